import { env } from '@strapi/utils';
import { defaultsDeep } from 'lodash/fp';
import type { ZodError } from 'zod/v3';
import pluginConfigFile, { EMULATOR_URL } from '../../../server/src/config';
import { parsePluginConfig, pluginConfigSchema } from '../../../server/src/config/schema';
import { describeConfigIssues } from '../../../server/src/settings/problems';
import { runtimeSettingsSchema } from '../../../server/src/config/settings';

const minimal = { baseUrl: 'https://api.speech.example', webUrl: 'https://web.speech.example' };

describe('plugin configuration', () => {
  it('fills defaults for a minimal config', () => {
    const config = parsePluginConfig(minimal);
    expect(config).toMatchObject({
      apiKey: '',
      preprocessType: '0',
      maxInFlight: 3,
      maxAttempts: 3,
      callbackTimeoutMs: 15 * 60_000,
      mediaHosts: [],
    });
  });

  it('rejects bad values with messages that name the key', () => {
    expect(() => parsePluginConfig({ ...minimal, maxInFlight: 0 })).toThrow(/speech\.config\.maxInFlight/);
    expect(() => parsePluginConfig({ ...minimal, baseUrl: 'ftp://x' })).toThrow(/speech\.config\.baseUrl: must be an http\(s\) URL/);
    expect(() => parsePluginConfig({ ...minimal, preprocessType: 2 })).toThrow(/speech\.config\.preprocessType/);
    expect(() => parsePluginConfig({ ...minimal, contentTypes: { article: { textFields: ['body'] } } })).toThrow(
      /speech\.config\.contentTypes\.article/
    );
    expect(() => parsePluginConfig({ ...minimal, contentTypes: { 'api::a.a': { textFields: [] } } })).toThrow(
      /textFields: name at least one text field/
    );
    expect(() => parsePluginConfig({ ...minimal, contentTypes: { 'api::a.a': { textFields: ['body', 'summary', 'body'] } } })).toThrow(
      /contentTypes\.api::a\.a\.textFields: name each text field once/
    );
    expect(runtimeSettingsSchema.safeParse({ contentTypes: { 'api::a.a': { textFields: ['body', 'body'] } } }).success).toBe(false);
    expect(() => parsePluginConfig({ ...minimal, mediaHosts: ['http://'] })).toThrow(/speech\.config\.mediaHosts\.0/);
    expect(() => parsePluginConfig({ ...minimal, apiKeyy: 'typo' })).toThrow(/unknown key\(s\) apiKeyy/);
  });

  it('formats the file’s errors and the settings route’s alike: one "<key>: <message>" line each, the file’s with speech.config.', () => {
    const result = pluginConfigSchema.safeParse({ ...minimal, maxInFlight: 0, apiKeyy: 'typo' });
    expect(result.success).toBe(false);
    const lines = describeConfigIssues((result as { error: ZodError }).error).split('\n');
    expect(lines).toEqual([
      'speech.config.maxInFlight: Number must be greater than or equal to 1',
      'speech.config.(root): unknown key(s) apiKeyy',
    ]);
    expect(describeConfigIssues((result as { error: ZodError }).error, '').split('\n')[0]).toBe(
      'maxInFlight: Number must be greater than or equal to 1'
    );
  });

  it('verifies no type unless it says so, and takes a minimum word accuracy from 0 to 1', () => {
    const config = parsePluginConfig(minimal);
    expect(config.verification).toEqual({ minWordAccuracy: 0.95, maxAttempts: 5, maxWaitMs: 30 * 60_000 });
    expect(
      parsePluginConfig({ ...minimal, contentTypes: { 'api::a.a': { textFields: ['body'], verify: true } } }).contentTypes['api::a.a']
        .verify
    ).toBe(true);
    expect(() => parsePluginConfig({ ...minimal, verification: { minWordAccuracy: 1.5 } })).toThrow(
      /speech\.config\.verification\.minWordAccuracy: must be from 0 to 1/
    );
    expect(() => parsePluginConfig({ ...minimal, contentTypes: { 'api::a.a': { textFields: ['body'], verify: 'yes' } } })).toThrow(
      /speech\.config\.contentTypes\.api::a\.a\.verify/
    );
    expect(() => parsePluginConfig({ ...minimal, verification: { minWordAcuracy: 0.9 } })).toThrow(/minWordAcuracy/);
  });

  it('no longer knows reclaimUploadMemory (removed: a plugin does not change the V8 flags of its host)', () => {
    expect(() => parsePluginConfig({ ...minimal, reclaimUploadMemory: true })).toThrow(/unknown key\(s\) reclaimUploadMemory/);
  });

  it('accepts the preprocessType strings only', () => {
    expect(parsePluginConfig({ ...minimal, preprocessType: '2' }).preprocessType).toBe('2');
  });
});

describe('podcast feeds configuration', () => {
  it('is on by default: 300 items, five minutes of caching, no channel details', () => {
    expect(parsePluginConfig(minimal).feeds).toEqual({ enabled: true, limit: 300, maxAgeSeconds: 300, channel: {}, contentTypes: {} });
  });

  it('takes channel defaults and per-type overrides', () => {
    const feeds = parsePluginConfig({
      ...minimal,
      feeds: {
        limit: 1000,
        channel: { title: 'Listen', author: 'The Desk', imageUrl: 'https://cdn.example/cover.png', language: 'en', explicit: false },
        contentTypes: { 'api::article.article': { title: 'Articles, read aloud', category: 'News' }, 'api::page.page': { enabled: false } },
      },
    }).feeds;
    expect(feeds.channel.imageUrl).toBe('https://cdn.example/cover.png');
    expect(feeds.contentTypes['api::page.page']).toEqual({ enabled: false });
  });

  it.each([
    [{ limit: 0 }, /speech\.config\.feeds\.limit/],
    [{ limit: 5000 }, /speech\.config\.feeds\.limit/],
    [{ maxAgeSeconds: -1 }, /speech\.config\.feeds\.maxAgeSeconds/],
    [{ channel: { imageUrl: 'cover.png' } }, /speech\.config\.feeds\.channel\.imageUrl/],
    [{ channel: { language: 'english please' } }, /speech\.config\.feeds\.channel\.language: must be a locale code/],
    [{ channel: { titel: 'typo' } }, /speech\.config\.feeds\.channel: unknown key\(s\) titel/],
    [{ contentTypes: { articles: {} } }, /speech\.config\.feeds\.contentTypes\.articles: must be a content-type uid/],
    [{ contentTypes: { 'api::a.a': { link: 'javascript:alert(1)' } } }, /speech\.config\.feeds\.contentTypes\.api::a\.a\.link/],
  ])('refuses %j, naming the key', (feeds, message) => {
    expect(() => parsePluginConfig({ ...minimal, feeds })).toThrow(message);
  });
});

describe('segmented narration settings (issue 23)', () => {
  const article = { textFields: ['body'] };

  it('has a global part size of 2,000 characters by default, and adds no mode to a type that names none', () => {
    const config = parsePluginConfig({ ...minimal, contentTypes: { 'api::a.a': article } });
    expect(config.segmentCharacters).toBe(2_000);
    expect(config.contentTypes['api::a.a']).toEqual(article);
  });

  it('takes a mode and a part size per type, and a global part size from 200 to 100,000', () => {
    const config = parsePluginConfig({
      ...minimal,
      segmentCharacters: 100_000,
      contentTypes: {
        'api::a.a': { ...article, narrationMode: 'segmented', segmentCharacters: 200 },
        'api::b.b': { ...article, narrationMode: 'whole' },
      },
    });
    expect(config.segmentCharacters).toBe(100_000);
    expect(config.contentTypes['api::a.a']).toMatchObject({ narrationMode: 'segmented', segmentCharacters: 200 });
    expect(config.contentTypes['api::b.b'].narrationMode).toBe('whole');
  });

  it.each([
    [{ segmentCharacters: 0 }, 'speech.config.segmentCharacters: must be a whole number of characters from 200 to 100000'],
    [{ segmentCharacters: 199 }, 'speech.config.segmentCharacters: must be a whole number of characters from 200 to 100000'],
    [{ segmentCharacters: 100_001 }, 'speech.config.segmentCharacters: must be a whole number of characters from 200 to 100000'],
    [{ segmentCharacters: 1_500.5 }, 'speech.config.segmentCharacters: must be a whole number of characters from 200 to 100000'],
    [{ segmentCharacters: '2000' }, 'speech.config.segmentCharacters: Expected number, received string'],
    [
      { contentTypes: { 'api::a.a': { ...article, narrationMode: 'parts' } } },
      "speech.config.contentTypes.api::a.a.narrationMode: Invalid enum value. Expected 'whole' | 'segmented', received 'parts'",
    ],
    [
      { contentTypes: { 'api::a.a': { ...article, segmentCharacters: 0 } } },
      'speech.config.contentTypes.api::a.a.segmentCharacters: must be a whole number of characters from 200 to 100000',
    ],
  ])('refuses %j, naming the key', (values, message) => {
    expect(() => parsePluginConfig({ ...minimal, ...values })).toThrow(`Invalid configuration of the speech plugin:\n${message}`);
  });

  it('validates PUT /speech/settings alike: the same keys, the same messages without the prefix', () => {
    expect(runtimeSettingsSchema.parse({ segmentCharacters: 500 })).toEqual({ segmentCharacters: 500 });
    const type = { 'api::a.a': { ...article, narrationMode: 'segmented', segmentCharacters: 800 } };
    expect(runtimeSettingsSchema.parse({ contentTypes: type })).toEqual({ contentTypes: type });
    const refused = runtimeSettingsSchema.safeParse({
      segmentCharacters: 0,
      contentTypes: { 'api::a.a': { ...article, narrationMode: 'parts' } },
    });
    expect(refused.success).toBe(false);
    expect(describeConfigIssues((refused as { error: ZodError }).error, '').split('\n')).toEqual([
      "contentTypes.api::a.a.narrationMode: Invalid enum value. Expected 'whole' | 'segmented', received 'parts'",
      'segmentCharacters: must be a whole number of characters from 200 to 100000',
    ]);
  });
});

/**
 * The plugin's config as Strapi 5 loads it (@strapi/core's loaders/plugins, applyUserConfig): the
 * plugin's default, the app's `speech.config` merged over it with lodash/fp's defaultsDeep, then
 * the validator, all under this NODE_ENV.
 */
function loadAsStrapiDoes(appConfig: Record<string, unknown>, nodeEnv: string): Record<string, unknown> {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = nodeEnv;
  try {
    const config = defaultsDeep(pluginConfigFile.default({ env }), appConfig);
    pluginConfigFile.validator(config);
    return config;
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}

describe("the speech service's hosts", () => {
  const baseUrl = 'https://api.speech.example';
  const webUrl = 'https://web.speech.example';
  const required = (key: string, variable: string) =>
    `speech.config.${key}: required when NODE_ENV=production, where it does not default to the local emulator: ` +
    `set it to the speech service's host in config/plugins.ts, e.g. ${key}: env('${variable}'), and ${variable} in the environment`;

  // Left out, or passed on unset (the README's env('SPEECH_BASE_URL')), or set empty.
  it.each([{}, { baseUrl: undefined }, { baseUrl: '' }, { baseUrl: '  ' }])(
    'refuses a production config without baseUrl (%j), naming baseUrl and how to set it',
    (missing) => {
      expect(() => loadAsStrapiDoes({ webUrl, ...missing }, 'production')).toThrow(
        `Invalid configuration of the speech plugin:\n${required('baseUrl', 'SPEECH_BASE_URL')}`
      );
    }
  );

  it.each([{}, { webUrl: undefined }, { webUrl: '' }])('refuses a production config without webUrl (%j), naming webUrl', (missing) => {
    expect(() => loadAsStrapiDoes({ baseUrl, ...missing }, 'production')).toThrow(
      `Invalid configuration of the speech plugin:\n${required('webUrl', 'SPEECH_WEB_URL')}`
    );
  });

  it('names every problem of a production config at once: both hosts, once each, and any other bad value', () => {
    expect(() => loadAsStrapiDoes({ maxInFlight: 0 }, 'production')).toThrow(
      [
        'Invalid configuration of the speech plugin:',
        required('baseUrl', 'SPEECH_BASE_URL'),
        required('webUrl', 'SPEECH_WEB_URL'),
        'speech.config.maxInFlight: Number must be greater than or equal to 1',
      ].join('\n')
    );
  });

  it('does not fall back from webUrl to baseUrl in production: both are named', () => {
    expect(() => loadAsStrapiDoes({ baseUrl }, 'production')).toThrow(/speech\.config\.webUrl: required when NODE_ENV=production/);
  });

  it('accepts a production config naming both hosts, and uses them', () => {
    const config = loadAsStrapiDoes({ baseUrl, webUrl }, 'production');
    expect(config).toMatchObject({ baseUrl, webUrl });
    expect(parsePluginConfig(config)).toMatchObject({ baseUrl, webUrl });
  });

  it('still refuses a malformed host in production as anywhere', () => {
    expect(() => loadAsStrapiDoes({ baseUrl: 'ftp://x', webUrl }, 'production')).toThrow(
      'Invalid configuration of the speech plugin:\nspeech.config.baseUrl: must be an http(s) URL'
    );
  });

  it.each(['development', 'test'])('defaults both hosts to the local emulator in %s, as a bare install always did', (nodeEnv) => {
    expect(EMULATOR_URL).toBe('http://127.0.0.1:4010');
    for (const appConfig of [{}, { baseUrl: undefined, webUrl: undefined }]) {
      expect(parsePluginConfig(loadAsStrapiDoes(appConfig, nodeEnv))).toMatchObject({ baseUrl: EMULATOR_URL, webUrl: EMULATOR_URL });
    }
    // Each host on its own, as before: webUrl does not follow baseUrl.
    expect(loadAsStrapiDoes({ baseUrl }, nodeEnv)).toMatchObject({ baseUrl, webUrl: EMULATOR_URL });
  });
});
