/**
 * A private, throwaway S3-compatible server for the tests: s3rver (npm; the S3 server that installs
 * from the npm registry, which with Debian's packages is all this project's machines reach: Debian
 * has no MinIO, moto, Garage or SeaweedFS). It stores objects in a temporary folder, listens on a
 * free port of 127.0.0.1, has one bucket made before it answers, and serves path-style URLs
 * (`http://127.0.0.1:<port>/<bucket>/<key>`) to anyone, as a public-read bucket does: s3rver checks
 * no ACL, and a request without a signature is let in.
 *
 * Its only account is s3rver's built-in one (key and secret `S3RVER`); it checks V4 signatures' form,
 * not their value.
 *
 * `hold(matches)` keeps the requests `matches(req)` picks unanswered, never passing them on (a test
 * kills Strapi in the middle of an upload or a delete this way); `drop()` closes them.
 * `requests()` lists every request it received, in order: `{ method, key }` (the object's key, no
 * query string), so a test sees which objects were read, written or deleted.
 */
const { mkdtempSync, rmSync } = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const S3rver = require('s3rver');

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

async function startS3Server({ bucket = 'speech-media', region = 'us-east-1' } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'speech-s3-'));
  const s3rver = new S3rver({ silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
  /** @type {Array<{ matches: (req: import('node:http').IncomingMessage) => boolean, held: import('node:http').ServerResponse[] }>} */
  const holds = [];
  /** @type {Array<{ method: string, key: string }>} */
  const received = [];
  let server = null;
  try {
    await s3rver.configureBuckets();
    // s3rver is a Koa app; its handler is mounted on a server of our own (as s3rver's README shows
    // for Express), so a held request is kept before s3rver reads a byte of it.
    const handler = s3rver.callback();
    server = http.createServer((req, res) => {
      const { pathname } = new URL(req.url ?? '/', 'http://s3');
      received.push({ method: req.method ?? '', key: decodeURIComponent(pathname).replace(`/${bucket}/`, '') });
      const hold = holds.find((candidate) => candidate.matches(req));
      if (hold) hold.held.push(res);
      else handler(req, res);
    });
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
  } catch (error) {
    server?.close();
    s3rver.logger.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${server.address().port}`;

  return {
    endpoint,
    bucket,
    region,
    credentials: CREDENTIALS,
    dir,
    /** The path-style URL of an object, as the provider makes it. */
    objectUrl: (key) => `${endpoint}/${bucket}/${key}`,
    requests: () => [...received],
    hold(matches) {
      const hold = { matches, held: [] };
      holds.push(hold);
      return {
        count: () => hold.held.length,
        drop() {
          holds.splice(holds.indexOf(hold), 1);
          for (const res of hold.held.splice(0)) res.destroy();
        },
      };
    },
    async stop() {
      for (const hold of holds.splice(0)) for (const res of hold.held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      s3rver.logger.close();
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

module.exports = { startS3Server };
