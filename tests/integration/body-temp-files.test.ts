import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startStack, waitFor, type Stack } from './harness';
import { sleep } from './narration-helpers';

/**
 * Issue 9: Strapi's body parser writes a multipart body to the temporary directory before routing and
 * authentication, and only cleans a field named `files`. An unauthenticated chunked upload to a plugin
 * route was refused, but its whole body stayed on disk. Here Strapi's os.tmpdir() is a folder of the
 * test's own; after a 20 MB chunked multipart body to each public or admin plugin route, refused for
 * whatever reason, nothing may be left in it.
 */

jest.setTimeout(240_000);

const MB = 1024 * 1024;
const BODY_BYTES = 20 * MB;

let stack: Stack;
let strapiTmp: string;
let limitedToken: string;

beforeAll(async () => {
  strapiTmp = mkdtempSync(path.join(os.tmpdir(), 'speech-it-body-tmp-'));
  stack = await startStack({ env: { TMPDIR: strapiTmp } });

  // A signed-in admin whose role has none of the plugin's permissions.
  const role = await stack.admin('POST', '/admin/roles', { name: 'No speech', description: 'No speech permissions' });
  const user = await stack.admin('POST', '/admin/users', {
    firstname: 'Limited',
    lastname: 'Editor',
    email: 'limited@example.com',
    roles: [role.body.data.id],
  });
  const registered = await stack.request('/admin/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      registrationToken: user.body.data.registrationToken,
      userInfo: { firstname: 'Limited', lastname: 'Editor', password: 'Limited-Passw0rd!' },
    }),
  });
  limitedToken = ((await registered.json()) as any).data.token;
  if (!limitedToken) throw new Error('could not register the limited admin');
});

afterAll(async () => {
  await stack?.stop();
  rmSync(strapiTmp, { recursive: true, force: true });
});

function filesIn(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesIn(full).map((name) => path.join(entry.name, name)));
    else found.push(entry.name);
  }
  return found;
}

async function expectTempDirEmpty(what: string) {
  await waitFor(async () => filesIn(strapiTmp).length === 0, { timeoutMs: 5_000, what: `${what}: no temporary files` }).catch(() => {
    throw new Error(`${what}: temporary files left behind: ${filesIn(strapiTmp).join(', ')}`);
  });
}

/**
 * POSTs (or PUTs) a multipart body with one 20 MB file part, chunked (no Content-Length), from one
 * reused 64 KB buffer. Stops sending as soon as an answer arrives. With `waitAfterBytes`, it sends
 * that much, then waits up to 10 s for an answer before sending the rest: an answer that comes
 * meanwhile did not need the body, however slow the machine (racing a fast sender against a busy
 * server's answer did not say that: once it answers, Node reads and drops the rest of the body).
 */
function chunkedMultipart(method: string, pathname: string, headers: Record<string, string> = {}, waitAfterBytes?: number) {
  const boundary = `----it-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="language"\r\n\r\nen-US\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="probe.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 7);
  return new Promise<{ status: number; body: any; sentBytes: number }>((resolve, reject) => {
    let answered = false;
    let sent = 0;
    let heard: () => void = () => undefined;
    const answer = new Promise<void>((done) => (heard = done));
    const req = http.request(`${stack.url}${pathname}`, {
      method,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked', ...headers },
    });
    req.on('response', (res) => {
      answered = true;
      heard();
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (part) => (text += part));
      res.on('end', () => {
        let body: any = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body, sentBytes: sent });
        req.destroy();
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const waitForRoom = () =>
      new Promise<void>((done) => {
        const finish = () => {
          req.off('drain', finish);
          req.off('close', finish);
          done();
        };
        req.on('drain', finish);
        req.on('close', finish);
      });
    (async () => {
      if (!req.write(head)) await waitForRoom();
      while (sent < BODY_BYTES && !answered && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) await waitForRoom();
        if (waitAfterBytes !== undefined && sent === waitAfterBytes) await Promise.race([answer, sleep(10_000)]);
      }
      if (!answered && !req.destroyed) req.end(tail);
    })().catch((error) => {
      if (!answered) reject(error);
    });
  });
}

const REFUSED = [401, 403, 413, 415];

describe('a 20 MB chunked multipart body to a plugin route leaves nothing in the temporary directory', () => {
  it.each([
    ['POST', '/speech/transcriptions', 'unauthenticated', {}],
    ['POST', '/api/speech/callback', 'unauthenticated (public route)', {}],
    ['POST', '/speech/narrations/narrate', 'unauthenticated', {}],
    ['PUT', '/speech/settings', 'unauthenticated', {}],
    ['POST', '/speech/tts/preview', 'unauthenticated', {}],
  ] as Array<[string, string, string, Record<string, string>]>)('%s %s, %s', async (method, pathname, what, headers) => {
    const answer = await chunkedMultipart(method, pathname, headers);
    expect(REFUSED).toContain(answer.status);
    expect(answer.body?.error?.status).toBe(answer.status);
    await expectTempDirEmpty(`${method} ${pathname} ${what}`);
  });

  it('refuses multipart with 415 before reading it on routes that take no file, even for a super admin', async () => {
    for (const [method, pathname] of [
      ['POST', '/api/speech/callback'],
      ['POST', '/speech/narrations/narrate'],
      ['PUT', '/speech/settings'],
    ]) {
      const answer = await chunkedMultipart(method, pathname, { authorization: `Bearer ${stack.adminToken}` }, MB);
      expect(answer.status).toBe(415);
      expect(answer.body.error).toMatchObject({ name: 'UnsupportedMediaTypeError', details: { code: 'MULTIPART_NOT_ACCEPTED' } });
      // Answered while the sender waited after its first megabyte: the body was never read.
      expect(answer.sentBytes).toBeLessThan(BODY_BYTES);
    }
    await expectTempDirEmpty('415 answers');
  });

  it('removes the upload the parser read in full when authentication (a token that is no session: 401) or permission (403) fails after it', async () => {
    const badToken = await chunkedMultipart('POST', '/speech/transcriptions', { authorization: 'Bearer not-a-session-token' });
    expect(badToken.status).toBe(401);
    // The whole body was sent and parsed (to disk) before the route refused it: the guard removed it afterwards.
    expect(badToken.sentBytes).toBe(BODY_BYTES);
    await expectTempDirEmpty('401 upload with a bad token');

    const unpermitted = await chunkedMultipart('POST', '/speech/transcriptions', { authorization: `Bearer ${limitedToken}` });
    expect(unpermitted.status).toBe(403);
    expect(unpermitted.sentBytes).toBe(BODY_BYTES);
    await expectTempDirEmpty('403 upload');
  });

  it('still takes JSON on those routes', async () => {
    const settings = await stack.admin('GET', '/speech/settings');
    expect(settings.status).toBe(200);
    const callback = await stack.request('/api/speech/callback', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect([400, 401, 422]).toContain(callback.status);
  });
});
