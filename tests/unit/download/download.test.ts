import { randomBytes } from 'crypto';
import { promises as fs } from 'fs';
import http, { type ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import os from 'os';
import path from 'path';

import { pinnedLookup, type ResolvedAddress } from '../../../server/src/download/admission';
import { startsWithSrtCue } from '../../../server/src/download/body-inspector';
import { DownloadRefusedError, downloadToTempFile, type DownloadOptions } from '../../../server/src/download/download';
import { nonPublicAddressReason } from '../../../server/src/download/address-policy';
import { HTML_PAGE, emulatorMp3, id3v2Tag, looksLikeMp3, mp3DurationSeconds } from '../audio/mp3-fixtures';

/** A real narration MP3 (the emulator's encoder) without a tag, and the same behind an ID3 tag with cover-art-sized padding. */
const BARE_MP3 = emulatorMp3(2);
const MP3 = Buffer.concat([id3v2Tag({ bodyBytes: 100_000 }), BARE_MP3]);
const SRT = '\uFEFF1\r\n00:00:00,000 --> 00:00:01,500\r\nمرحبا بكم\r\n\r\n2\r\n00:00:01,500 --> 00:00:03,000\r\nWelcome\r\n';

let server: http.Server;
let port: number;
let local: string;
let hits: string[];
/** Bytes the /endless route managed to write before the client hung up. */
let endlessWritten = 0;

function route(url: string, res: ServerResponse): void {
  switch (url) {
    case '/audio.mp3':
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(MP3.length) });
      res.end(MP3);
      return;
    case '/frame.mp3':
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(BARE_MP3);
      return;
    case '/id3-html.mp3':
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.end(Buffer.concat([id3v2Tag(), HTML_PAGE]));
      return;
    case '/id3-garbage.mp3':
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.end(Buffer.concat([id3v2Tag(), randomBytes(50_000)]));
      return;
    case '/huge-tag.mp3': {
      // No Content-Length; the tag claims 8 MB and the body would go on: refused on the tag's header.
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.write(id3v2Tag({ bodyBytes: 8 * 1024 * 1024 }).subarray(0, 64 * 1024));
      return;
    }
    case '/subs.srt':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(SRT);
      return;
    case '/broken-utf8.srt':
      res.writeHead(200);
      res.end(
        Buffer.concat([Buffer.from('1\n00:00:00,000 --> 00:00:01,000\nhello\n\n'), Buffer.alloc(5000, 0x61), Buffer.from([0xc3, 0x28])])
      );
      return;
    case '/page.html':
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.end('<!doctype html><html><body>Not found, but 200</body></html>');
      return;
    case '/declared-huge':
      res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      res.write(MP3.subarray(0, 1000));
      return; // never finishes; the client must refuse on the header
    case '/endless': {
      res.writeHead(200, { 'content-type': 'audio/mpeg' }); // no Content-Length: chunked
      // A real MP3 start, then zeros for ever: recognised at once, then cut off by the size cap.
      endlessWritten += BARE_MP3.length;
      res.write(BARE_MP3);
      const chunk = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (!res.destroyed) {
          endlessWritten += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      res.on('close', () => undefined);
      pump();
      return;
    }
    case '/slow-headers':
      return; // never answers
    case '/slow-body':
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.write(MP3.subarray(0, 100)); // then nothing
      return;
    case '/redirect-in':
      res.writeHead(302, { location: '/audio.mp3' });
      res.end();
      return;
    case '/redirect-out':
      res.writeHead(301, { location: `http://evil.test:${port}/audio.mp3` });
      res.end();
      return;
    case '/redirect-metadata':
      res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
      return;
    case '/redirect-to-name':
      res.writeHead(302, { location: `http://files.test:${port}/audio.mp3` });
      res.end();
      return;
    case '/redirect-loop':
      res.writeHead(302, { location: '/redirect-loop' });
      res.end();
      return;
    case '/gone':
      res.writeHead(404);
      res.end('nope');
      return;
    case '/unavailable':
      res.writeHead(503);
      res.end();
      return;
    default:
      res.writeHead(500);
      res.end();
  }
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    route(req.url ?? '', res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  local = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let tempDir: string;
beforeEach(async () => {
  hits = [];
  endlessWritten = 0;
  tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'speech-download-test-'));
});
afterEach(async () => {
  await fs.rm(tempDir, { recursive: true, force: true });
});

const resolveTo =
  (...addresses: string[]) =>
  async (): Promise<ResolvedAddress[]> =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

/** No DNS in these tests unless a test says so: a resolver that is called by mistake fails the test. */
const noDns = async (host: string): Promise<ResolvedAddress[]> => {
  throw new Error(`unexpected DNS lookup of ${host}`);
};

function options(overrides: Partial<DownloadOptions> = {}): DownloadOptions {
  return { allowedOrigins: [local], maxBytes: 1024 * 1024, timeoutMs: 3000, kind: 'mp3', tempDir, resolver: noDns, ...overrides };
}

async function refusal(promise: Promise<unknown>): Promise<DownloadRefusedError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DownloadRefusedError);
    return error as DownloadRefusedError;
  }
  throw new Error('expected a refusal');
}

async function expectTempDirEmpty(): Promise<void> {
  // Give destroyed streams a moment to close, so a late write could not recreate anything.
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(await fs.readdir(tempDir)).toEqual([]);
}

describe('allowed downloads', () => {
  it('stores an MP3 in the temp dir with its size, type and duration', async () => {
    const file = await downloadToTempFile(`${local}/audio.mp3`, options());
    expect(path.dirname(file.path)).toBe(tempDir);
    expect(file.bytes).toBe(MP3.length);
    expect(file.contentType).toBe('audio/mpeg');
    expect((await fs.readFile(file.path)).equals(MP3)).toBe(true);
    expect((await fs.stat(file.path)).mode & 0o777).toBe(0o600);
    // Read from its frames as it streamed in, past the ID3 tag: as a reader of the whole file counts it.
    expect(file.durationSeconds).toBe(mp3DurationSeconds(BARE_MP3));
    expect(file.durationSeconds).toBeGreaterThanOrEqual(2);
  });

  it("recognises the emulator's MP3, which has no ID3 tag", async () => {
    const file = await downloadToTempFile(`${local}/frame.mp3`, options());
    expect(file.bytes).toBe(BARE_MP3.length);
  });

  it('stores an SRT with a BOM and CRLF line ends', async () => {
    const file = await downloadToTempFile(`${local}/subs.srt`, options({ kind: 'srt' }));
    expect(file.durationSeconds).toBeUndefined();
    expect(file.contentType).toBe('application/x-subrip');
    expect(await fs.readFile(file.path, 'utf8')).toBe(SRT);
  });

  it('follows a relative redirect on the same allowed origin', async () => {
    const file = await downloadToTempFile(`${local}/redirect-in`, options());
    expect(file.bytes).toBe(MP3.length);
    expect(hits).toEqual(['/redirect-in', '/audio.mp3']);
  });

  it('connects to the checked address, not to a fresh DNS answer (pinning)', async () => {
    // A server on 127.0.0.2 only: "localhost" reaches it solely through the address the resolver gave.
    const pinned = http.createServer((req, res) => route(req.url ?? '', res));
    try {
      await new Promise<void>((resolve, reject) => {
        pinned.once('error', reject);
        pinned.listen(0, '127.0.0.2', resolve);
      });
    } catch {
      return; // this platform cannot bind 127.0.0.2 (not Linux); pinnedLookup is tested directly below
    }
    try {
      const pinnedPort = (pinned.address() as AddressInfo).port;
      let lookups = 0;
      const file = await downloadToTempFile(
        `http://localhost:${pinnedPort}/audio.mp3`,
        options({
          allowedOrigins: [`http://localhost:${pinnedPort}`],
          resolver: async (host) => {
            lookups += 1;
            expect(host).toBe('localhost');
            return [{ address: '127.0.0.2', family: 4 }];
          },
        })
      );
      expect(file.bytes).toBe(MP3.length);
      expect(lookups).toBe(1);
    } finally {
      pinned.closeAllConnections();
      await new Promise((resolve) => pinned.close(resolve));
    }
  });

  it('pinnedLookup answers the checked address in both callback forms', () => {
    const lookup = pinnedLookup('203.0.113.7', 4);
    const single = jest.fn();
    lookup('anything.example', { all: false }, single);
    expect(single).toHaveBeenCalledWith(null, '203.0.113.7', 4);
    const all = jest.fn();
    lookup('anything.example', { all: true }, all);
    expect(all).toHaveBeenCalledWith(null, [{ address: '203.0.113.7', family: 4 }]);
  });
});

describe('allow-list', () => {
  it('refuses a host that is not listed, without connecting', async () => {
    const error = await refusal(downloadToTempFile(`${local}/audio.mp3`, options({ allowedOrigins: ['cdn.example.com'] })));
    expect(error.code).toBe('HOST_NOT_ALLOWED');
    expect(error.message).toContain(`http://127.0.0.1:${port}`);
    expect(hits).toEqual([]);
  });

  it('refuses another port of a listed host', async () => {
    const error = await refusal(downloadToTempFile(`http://127.0.0.1:${port + 1}/audio.mp3`, options()));
    expect(error.code).toBe('HOST_NOT_ALLOWED');
  });

  it('refuses http when the host is listed for https only (bare host or https origin)', async () => {
    for (const allowedOrigins of [['files.test'], ['https://files.test'], [`files.test:${port}`]]) {
      const error = await refusal(downloadToTempFile(`http://files.test:${port}/audio.mp3`, options({ allowedOrigins })));
      expect(error.code).toBe('SCHEME_NOT_ALLOWED');
    }
    const literal = await refusal(downloadToTempFile(`${local}/audio.mp3`, options({ allowedOrigins: [`127.0.0.1:${port}`] })));
    expect(literal.code).toBe('SCHEME_NOT_ALLOWED');
    expect(hits).toEqual([]);
  });

  it('refuses other schemes and invalid URLs', async () => {
    expect((await refusal(downloadToTempFile('ftp://files.test/a.mp3', options({ allowedOrigins: ['files.test'] })))).code).toBe(
      'SCHEME_NOT_ALLOWED'
    );
    expect((await refusal(downloadToTempFile('file:///etc/passwd', options()))).code).toBe('SCHEME_NOT_ALLOWED');
    expect((await refusal(downloadToTempFile('not a url', options()))).code).toBe('INVALID_URL');
  });

  it('refuses URLs with credentials', async () => {
    const error = await refusal(downloadToTempFile(`http://user:s3cretpw@127.0.0.1:${port}/audio.mp3`, options()));
    expect(error.code).toBe('HOST_NOT_ALLOWED');
    expect(error.message).not.toContain('s3cretpw');
  });

  it('does not put the path or query (which may hold a token) in messages', async () => {
    const error = await refusal(downloadToTempFile('https://cdn.other.com/a.mp3?X-Amz-Signature=secret', options()));
    expect(error.message).not.toContain('secret');
  });
});

describe('private addresses', () => {
  const privateAnswers = [
    '10.0.0.5',
    '127.0.0.1',
    '169.254.169.254',
    '::1',
    '::ffff:127.0.0.1',
    '192.168.1.10',
    '100.64.0.1',
    'fd00::1',
    'fe80::1',
    '0.0.0.0',
    '255.255.255.255',
    '239.255.255.250',
    '240.0.0.1',
    'ff02::1',
    '::ffff:0:7f00:1',
    '2002:7f00:1::1',
  ];

  it.each(privateAnswers)('refuses a listed name that resolves to %s', async (address) => {
    const error = await refusal(
      downloadToTempFile(
        `http://files.test:${port}/audio.mp3`,
        options({ allowedOrigins: [`http://files.test:${port}`], resolver: resolveTo(address) })
      )
    );
    expect(error.code).toBe('PRIVATE_ADDRESS');
    expect(hits).toEqual([]);
    await expectTempDirEmpty();
  });

  it('refuses a name when any of its addresses is private', async () => {
    const error = await refusal(
      downloadToTempFile(
        'https://cdn.example.com/a.mp3',
        options({ allowedOrigins: ['cdn.example.com'], resolver: resolveTo('93.184.216.34', '10.1.2.3') })
      )
    );
    expect(error.code).toBe('PRIVATE_ADDRESS');
  });

  it('refuses "localhost" resolving to a non-loopback private address', async () => {
    const error = await refusal(
      downloadToTempFile(
        `http://localhost:${port}/audio.mp3`,
        options({ allowedOrigins: [`http://localhost:${port}`], resolver: resolveTo('10.0.0.1') })
      )
    );
    expect(error.code).toBe('PRIVATE_ADDRESS');
  });

  it('allows a private address listed by its exact origin (the local emulator)', async () => {
    expect((await downloadToTempFile(`${local}/audio.mp3`, options())).bytes).toBe(MP3.length);
  });

  it('refuses an IPv6 literal URL whose address is private when listed as a bare host', async () => {
    const error = await refusal(downloadToTempFile('https://[::ffff:7f00:1]/a.mp3', options({ allowedOrigins: ['[::ffff:7f00:1]'] })));
    expect(error.code).toBe('PRIVATE_ADDRESS');
  });

  it('treats a failed lookup as a network error', async () => {
    const error = await refusal(
      downloadToTempFile(
        'https://cdn.example.com/a.mp3',
        options({ allowedOrigins: ['cdn.example.com'], resolver: async () => Promise.reject(new Error('ENOTFOUND')) })
      )
    );
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.retryable).toBe(true);
  });
});

describe('redirects', () => {
  it('refuses a redirect to a host that is not listed', async () => {
    const error = await refusal(downloadToTempFile(`${local}/redirect-out`, options()));
    expect(error.code).toBe('HOST_NOT_ALLOWED');
    expect(hits).toEqual(['/redirect-out']);
    await expectTempDirEmpty();
  });

  it('refuses a redirect to the cloud metadata address', async () => {
    expect((await refusal(downloadToTempFile(`${local}/redirect-metadata`, options()))).code).toBe('HOST_NOT_ALLOWED');
  });

  it('re-checks the addresses of every hop', async () => {
    const error = await refusal(
      downloadToTempFile(
        `${local}/redirect-to-name`,
        options({ allowedOrigins: [local, `http://files.test:${port}`], resolver: resolveTo('10.9.8.7') })
      )
    );
    expect(error.code).toBe('PRIVATE_ADDRESS');
  });

  it('stops after maxRedirects', async () => {
    const error = await refusal(downloadToTempFile(`${local}/redirect-loop`, options({ maxRedirects: 2 })));
    expect(error.code).toBe('TOO_MANY_REDIRECTS');
    expect(hits).toHaveLength(3);
  });
});

describe('size, content and time', () => {
  it('aborts a chunked body as soon as it passes maxBytes and removes the file', async () => {
    const error = await refusal(downloadToTempFile(`${local}/endless`, options({ maxBytes: 256 * 1024 })));
    expect(error.code).toBe('TOO_LARGE');
    expect(error.message).toContain('256 KB');
    await expectTempDirEmpty();
    // The server was cut off: it could write no more than the cap plus socket buffers.
    expect(endlessWritten).toBeLessThan(32 * 1024 * 1024);
  });

  it('refuses early on a Content-Length over the cap', async () => {
    const error = await refusal(downloadToTempFile(`${local}/declared-huge`, options({ maxBytes: 1024 * 1024 })));
    expect(error.code).toBe('TOO_LARGE');
    await expectTempDirEmpty();
  });

  it('refuses HTML served as MP3 and removes the file', async () => {
    const error = await refusal(downloadToTempFile(`${local}/page.html`, options()));
    expect(error.code).toBe('BAD_CONTENT');
    expect(error.retryable).toBe(false);
    await expectTempDirEmpty();
  });

  it('refuses an ID3 tag followed by an HTML page, saying why, and removes the file (issue 9)', async () => {
    const error = await refusal(downloadToTempFile(`${local}/id3-html.mp3`, options()));
    expect(error.code).toBe('BAD_CONTENT');
    expect(error.message).toBe(`The file from ${local} is not an MP3 audio file: no MPEG audio frame starts where the audio should.`);
    expect(error.retryable).toBe(false);
    await expectTempDirEmpty();
  });

  it('refuses an ID3 tag followed by random bytes', async () => {
    expect((await refusal(downloadToTempFile(`${local}/id3-garbage.mp3`, options()))).code).toBe('BAD_CONTENT');
    await expectTempDirEmpty();
  });

  it('refuses at once an ID3 tag that claims more than the size limit', async () => {
    const error = await refusal(downloadToTempFile(`${local}/huge-tag.mp3`, options({ maxBytes: 1024 * 1024 })));
    expect(error.code).toBe('TOO_LARGE');
    expect(error.message).toMatch(/1 MB limit: its ID3 tag alone claims 8 MB/);
    await expectTempDirEmpty();
  });

  it('refuses an MP3 where an SRT is expected', async () => {
    expect((await refusal(downloadToTempFile(`${local}/audio.mp3`, options({ kind: 'srt' })))).code).toBe('BAD_CONTENT');
    await expectTempDirEmpty();
  });

  it('refuses an SRT that stops being UTF-8 later on', async () => {
    expect((await refusal(downloadToTempFile(`${local}/broken-utf8.srt`, options({ kind: 'srt' })))).code).toBe('BAD_CONTENT');
    await expectTempDirEmpty();
  });

  it('times out when the server never answers', async () => {
    const started = Date.now();
    const error = await refusal(downloadToTempFile(`${local}/slow-headers`, options({ timeoutMs: 300 })));
    expect(error.code).toBe('TIMEOUT');
    expect(error.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    await expectTempDirEmpty();
  });

  it('times out while the body trickles, and removes the partial file', async () => {
    const error = await refusal(downloadToTempFile(`${local}/slow-body`, options({ timeoutMs: 300 })));
    expect(error.code).toBe('TIMEOUT');
    await expectTempDirEmpty();
  });

  it('reports HTTP errors with their status', async () => {
    const gone = await refusal(downloadToTempFile(`${local}/gone`, options()));
    expect(gone.code).toBe('HTTP_STATUS');
    expect(gone.status).toBe(404);
    expect(gone.retryable).toBe(false);
    const unavailable = await refusal(downloadToTempFile(`${local}/unavailable`, options()));
    expect(unavailable.status).toBe(503);
    expect(unavailable.retryable).toBe(true);
    await expectTempDirEmpty();
  });
});

describe('nonPublicAddressReason', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:c0a8:101::1', 'private'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['not-an-ip', 'malformed'],
  ])('%s is %s', (address, reason) => {
    expect(nonPublicAddressReason(address)).toBe(reason);
  });

  it.each([
    ['fd00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['FE80::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.9', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.19.255.1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'Teredo'],
    ['100::1', 'discard'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:100.64.0.1', 'carrier-grade NAT'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b:1::1', 'local NAT64'],
    ['64:ff9b:2::1', 'local NAT64'],
    // IPv4-compatible (deprecated): refused whatever the IPv4, in either spelling (ipaddr.js would read the
    // dotted one as IPv4-mapped and let ::8.8.8.8 through).
    ['::8.8.8.8', 'reserved'],
    ['::808:808', 'reserved'],
    ['::0.0.0.1', 'loopback'],
    // Only the strict forms Node accepts are addresses; ipaddr.js alone would read these as 127.0.0.1.
    ['127.1', 'malformed'],
    ['0x7f.0.0.1', 'malformed'],
    ['2130706433', 'malformed'],
  ])('%s is %s, as before ipaddr.js', (address, reason) => {
    expect(nonPublicAddressReason(address)).toBe(reason);
  });

  it.each([
    // SIIT (RFC 6145) IPv4-translated addresses, judged by their IPv4 part like NAT64.
    ['::ffff:0:10.0.0.1', 'private'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:a9fe:a9fe', 'link-local'],
    ['192.88.99.1', 'reserved'],
    ['2001:2::1', 'benchmarking'],
    ['3fff::1', 'documentation'],
    ['2001:1::1', 'reserved'],
    ['2001:20::1', 'reserved'],
    ['5f00::1', 'reserved'],
  ])('%s is %s (a range ipaddr.js knows and the hand-written checks missed)', (address, reason) => {
    expect(nonPublicAddressReason(address)).toBe(reason);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    // Special ranges that are still globally reachable services: AS112 DNS sinks and AMT relays.
    '192.175.48.1',
    '192.52.193.1',
    '2001:4:112::1',
    '2001:3::1',
    '::ffff:0:8.8.8.8',
    '2002:808:808::1',
    '169.253.255.255',
    '100.63.255.255',
    '11.0.0.1',
  ])('%s is public', (address) => {
    expect(nonPublicAddressReason(address)).toBeUndefined();
  });
});

describe('content recognisers', () => {
  it('looksLikeMp3 (details in mp3-sniff.test.ts)', () => {
    expect(looksLikeMp3(MP3)).toBe(true);
    expect(looksLikeMp3(BARE_MP3)).toBe(true);
    expect(looksLikeMp3(Buffer.from('ID3'))).toBe(false);
    expect(looksLikeMp3(Buffer.concat([id3v2Tag(), HTML_PAGE]))).toBe(false);
    expect(looksLikeMp3(Buffer.from([0xff, 0xe3]))).toBe(false);
    expect(looksLikeMp3(Buffer.from([0xff, 0xd0]))).toBe(false);
    expect(looksLikeMp3(Buffer.from('<html>'))).toBe(false);
    expect(looksLikeMp3(Buffer.alloc(0))).toBe(false);
  });

  it('startsWithSrtCue', () => {
    expect(startsWithSrtCue(Buffer.from('\n\n1\n00:00:00,000 --> 00:00:01,000\nx'))).toBe(true);
    expect(startsWithSrtCue(Buffer.from('\uFEFF12\r\n01:02:03,004 --> 01:02:04,000\r\n'))).toBe(true);
    expect(startsWithSrtCue(Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000'))).toBe(false);
    expect(startsWithSrtCue(Buffer.from('{"subtitles": []}'))).toBe(false);
    expect(startsWithSrtCue(Buffer.from(''))).toBe(false);
  });
});
