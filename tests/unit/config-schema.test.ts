import type { ZodError } from 'zod';
import { describeConfigIssues, parsePluginConfig, pluginConfigSchema } from '../../server/src/settings/config-schema';

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
