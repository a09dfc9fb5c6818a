import type { ZodError } from 'zod';
import { describeConfigIssues, parsePluginConfig, pluginConfigSchema } from '../../server/src/config/schema';

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
