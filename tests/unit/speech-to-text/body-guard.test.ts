import { promises as fs } from 'fs';
import os from 'os';
import path from 'path';
import { bodyGuard, hasBearerToken, pluginRequestKind, temporaryFilePaths } from '../../../server/src/speech-to-text/body-guard';
import { withStrapiErrorHelpers } from '../strapi-error-helpers';

describe('pluginRequestKind', () => {
  it.each([
    ['POST', '/speech/transcriptions', 'upload'],
    ['POST', '/speech/transcriptions/', 'upload'],
    ['GET', '/speech/transcriptions', 'no-files'],
    ['POST', '/speech/transcriptions/3/save', 'no-files'],
    ['PUT', '/speech/settings', 'no-files'],
    ['POST', '/speech/narrations/narrate', 'no-files'],
    ['POST', '/speech', 'no-files'],
    ['POST', '/api/speech/callback', 'no-files'],
    ['GET', '/api/speech/narrations/x-en/audio.mp3', 'no-files'],
    ['POST', '/upload', 'other'],
    ['POST', '/api/articles', 'other'],
    ['POST', '/speechless', 'other'],
    ['POST', '/api/speech-other/callback', 'other'],
    ['POST', '/content-manager/collection-types/api::article.article', 'other'],
  ])('%s %s is %s', (method, pathname, kind) => {
    expect(pluginRequestKind(method, pathname)).toBe(kind);
  });

  it.each([
    ['POST', '/SPEECH/Transcriptions', 'upload'],
    ['POST', '/speech/TRANSCRIPTIONS/', 'upload'],
    ['POST', '/Speech/settings', 'no-files'],
    ['POST', '/API/Speech/Callback', 'no-files'],
    ['POST', '/api/speech/callback/', 'no-files'],
  ])('%s %s in another spelling the router routes is %s', (method, pathname, kind) => {
    expect(pluginRequestKind(method, pathname)).toBe(kind);
  });

  it('follows a configured REST prefix', () => {
    expect(pluginRequestKind('POST', '/rest/speech/callback', '/rest')).toBe('no-files');
    expect(pluginRequestKind('POST', '/api/speech/callback', '/rest/')).toBe('other');
  });
});

describe('hasBearerToken', () => {
  it('reads the header the way the admin strategy does', () => {
    expect(hasBearerToken('Bearer abc.def')).toBe(true);
    expect(hasBearerToken('bearer abc')).toBe(true);
    expect(hasBearerToken(undefined)).toBe(false);
    expect(hasBearerToken('')).toBe(false);
    expect(hasBearerToken('Basic dXNlcg==')).toBe(false);
    expect(hasBearerToken('Bearer')).toBe(false);
    expect(hasBearerToken('Bearer a b')).toBe(false);
  });
});

describe('temporaryFilePaths', () => {
  it('collects every field, single or repeated, and ignores anything without a path', () => {
    expect(
      temporaryFilePaths({ audio: { filepath: '/t/a' }, files: [{ filepath: '/t/b' }, { filepath: '/t/c' }], odd: {}, nul: null })
    ).toEqual(['/t/a', '/t/b', '/t/c']);
    expect(temporaryFilePaths(undefined)).toEqual([]);
  });
});

describe('bodyGuard', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'speech-body-guard-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** A Koa-like context: just what the guard reads and writes. */
  function context(method: string, pathname: string, headers: Record<string, string> = {}) {
    const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    return withStrapiErrorHelpers({
      method,
      path: pathname,
      status: 404,
      body: undefined as any,
      request: {} as { files?: unknown },
      is: (type: string) => (type === 'multipart' && /^multipart\//.test(lower['content-type'] ?? '') ? 'multipart' : false),
      get: (name: string) => lower[name.toLowerCase()] ?? '',
      set: () => undefined,
    });
  }

  /** Plays the body parser: writes a temporary file per field and puts them on ctx.request.files. */
  async function parse(ctx: ReturnType<typeof context>, fields: string[]) {
    const files: Record<string, { filepath: string }> = {};
    for (const field of fields) {
      const filepath = path.join(dir, `upload-${field}`);
      await fs.writeFile(filepath, 'bytes');
      files[field] = { filepath };
    }
    ctx.request.files = files;
  }

  const multipart = { 'content-type': 'multipart/form-data; boundary=x' };

  it('refuses multipart with 415 on the plugin routes that take no file, before the parser runs', async () => {
    for (const [method, pathname] of [
      ['POST', '/api/speech/callback'],
      ['PUT', '/speech/settings'],
      ['POST', '/speech/narrations/narrate'],
    ] as const) {
      const ctx = context(method, pathname, { ...multipart, authorization: 'Bearer t' });
      const next = jest.fn(async () => parse(ctx, ['files']));
      await bodyGuard()(ctx, next);
      expect(next).not.toHaveBeenCalled();
      expect(ctx.status).toBe(415);
      expect(ctx.body.error).toMatchObject({
        name: 'UnsupportedMediaTypeError',
        message: expect.stringMatching(/multipart/),
        details: { code: 'MULTIPART_NOT_ACCEPTED' },
      });
    }
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('refuses an upload without any bearer token with 401, before the parser runs', async () => {
    const ctx = context('POST', '/speech/transcriptions', multipart);
    const next = jest.fn(async () => parse(ctx, ['audio']));
    await bodyGuard()(ctx, next);
    expect(next).not.toHaveBeenCalled();
    expect(ctx.status).toBe(401);
    expect(ctx.body.error).toMatchObject({ name: 'UnauthorizedError', message: 'Missing or invalid credentials' });
  });

  it('removes what the parser wrote when a later layer refuses (a bad token, no permission) or throws', async () => {
    const refused = context('POST', '/speech/transcriptions', { ...multipart, authorization: 'Bearer not-a-session' });
    await bodyGuard()(refused, async () => {
      await parse(refused, ['audio', 'other']);
      refused.status = 401;
    });
    expect(await fs.readdir(dir)).toEqual([]);
    expect(refused.request.files).toBeUndefined();

    const thrown = context('POST', '/speech/transcriptions', { ...multipart, authorization: 'Bearer t' });
    await expect(
      bodyGuard()(thrown, async () => {
        await parse(thrown, ['audio']);
        throw new Error('policy failed');
      })
    ).rejects.toThrow('policy failed');
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('lets JSON through to the plugin routes, and leaves other paths alone', async () => {
    const json = context('POST', '/api/speech/callback', { 'content-type': 'application/json' });
    const next = jest.fn(async () => undefined);
    await bodyGuard()(json, next);
    expect(next).toHaveBeenCalledTimes(1);

    const other = context('POST', '/upload', multipart);
    await bodyGuard()(other, async () => parse(other, ['files']));
    // Strapi's own upload route keeps its files: its controller uses them, the parser removes them.
    expect(await fs.readdir(dir)).toEqual(['upload-files']);
  });
});
