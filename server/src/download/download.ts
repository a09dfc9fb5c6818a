/**
 * Downloads the MP3 or SRT named in a narration callback to a temporary file, without letting the
 * callback turn the server into a proxy into its own network (SSRF).
 *
 * The URL comes from a signed callback, but the signature only proves who sent it, not where it points,
 * so every hop is checked:
 * - the host must be on the allow-list, with https, or http only where an entry names the origin with
 *   an explicit `http://` (the local emulator);
 * - the name is resolved once, every address it resolves to must be public, and the connection is pinned
 *   to that checked address (a custom `lookup`), so a second DNS answer (rebinding) cannot swap it;
 * - what is public is decided in address-policy.ts; private, loopback and similar addresses are allowed
 *   only where an entry names that exact origin by its IP literal (or `localhost`) with an explicit
 *   scheme: the operator asked for a local address there;
 * - redirects are followed by hand, each one checked like the first URL;
 * - the size cap is enforced while streaming, the whole download has one deadline, and the start of the
 *   file must be an MP3 (an optional ID3 tag, then chained MPEG audio frames: see mp3-sniff.ts) or an SRT.
 * The temporary file is deleted on every failure.
 */
import { createHash, randomUUID } from 'crypto';
import { promises as dns } from 'dns';
import { promises as fs } from 'fs';
import http, { type ClientRequest, type IncomingMessage } from 'http';
import https from 'https';
import net, { type LookupFunction } from 'net';
import os from 'os';
import path from 'path';
import { Transform, type TransformCallback } from 'stream';
import { pipeline } from 'stream/promises';
import { TextDecoder } from 'util';
import { nonPublicAddressReason, stripZone } from './address-policy';
import { Mp3Sniffer, looksLikeMp3, type Mp3Verdict } from '../audio/mp3-sniff';

export { looksLikeMp3 };

export type DownloadKind = 'mp3' | 'srt';

export type DownloadRefusalCode =
  | 'INVALID_URL'
  | 'HOST_NOT_ALLOWED'
  | 'SCHEME_NOT_ALLOWED'
  | 'PRIVATE_ADDRESS'
  | 'TOO_LARGE'
  | 'TIMEOUT'
  | 'BAD_CONTENT'
  | 'HTTP_STATUS'
  | 'TOO_MANY_REDIRECTS'
  | 'NETWORK_ERROR';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

export interface DownloadOptions {
  /**
   * Where files may come from: `https://cdn.example.com`, `http://127.0.0.1:4010` (http only when written
   * so), or a bare host `cdn.example.com` (https only, port 443 unless given). Paths in entries are ignored.
   */
  allowedOrigins: string[];
  maxBytes: number;
  /** For the whole download: DNS, every redirect and the body. */
  timeoutMs: number;
  kind: DownloadKind;
  /** Default os.tmpdir(). */
  tempDir?: string;
  /** Default 3. */
  maxRedirects?: number;
  /** Default: dns.promises.lookup with all addresses. Injectable for tests. */
  resolver?: HostResolver;
  /**
   * Stops the download (the caller lost its reason to go on, e.g. its lease); the promise then
   * rejects with the signal's reason and the temporary file is deleted.
   */
  signal?: AbortSignal;
}

export interface DownloadedFile {
  path: string;
  bytes: number;
  /** The canonical type of the verified content (audio/mpeg, application/x-subrip), not the server's claim. */
  contentType: string;
  /** Lowercase hex SHA-256 of the file. */
  sha256: string;
}

/** Refusals and failures of a download; `message` is plain words that name the origin, never the full URL (it may carry a token). */
export class DownloadRefusedError extends Error {
  readonly code: DownloadRefusalCode;
  /** Worth trying again later (timeouts, network failures, 5xx, 429). */
  readonly retryable: boolean;
  /** The HTTP status, for HTTP_STATUS. */
  readonly status?: number;

  constructor(code: DownloadRefusalCode, message: string, extra: { status?: number } = {}) {
    super(message);
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = 'DownloadRefusedError';
    this.code = code;
    if (extra.status !== undefined) this.status = extra.status;
    this.retryable =
      code === 'TIMEOUT' ||
      code === 'NETWORK_ERROR' ||
      (code === 'HTTP_STATUS' && extra.status !== undefined && (extra.status >= 500 || extra.status === 429 || extra.status === 408));
  }
}

const DEFAULT_MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Enough of the start of an SRT to recognise it (an MP3 is judged by Mp3Sniffer, which reads past the ID3 tag). */
const HEAD_BYTES = 4096;
const CANONICAL_CONTENT_TYPE: Record<DownloadKind, string> = { mp3: 'audio/mpeg', srt: 'application/x-subrip' };

const defaultResolver: HostResolver = (host) => dns.lookup(host, { all: true, verbatim: true });

export async function downloadToTempFile(url: string, opts: DownloadOptions): Promise<DownloadedFile> {
  if (opts.kind !== 'mp3' && opts.kind !== 'srt') throw new TypeError('kind must be mp3 or srt.');
  if (!(opts.maxBytes > 0)) throw new TypeError('maxBytes must be positive.');
  if (!(opts.timeoutMs > 0)) throw new TypeError('timeoutMs must be positive.');
  const allowList = opts.allowedOrigins.map(parseAllowedOrigin);
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const resolver = opts.resolver ?? defaultResolver;

  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new DownloadRefusedError('INVALID_URL', 'The file address sent by the speech service is not a valid web address.');
  }

  // One signal stops every step: the deadline, or the caller's own signal.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), opts.timeoutMs);
  const stopByCaller = () => deadline.abort();
  if (opts.signal?.aborted) deadline.abort();
  opts.signal?.addEventListener('abort', stopByCaller, { once: true });
  const callerStopped = () => (opts.signal?.reason instanceof Error ? opts.signal.reason : new Error('The download was stopped.'));
  const timeoutError = () =>
    new DownloadRefusedError(
      'TIMEOUT',
      `Downloading the file from ${displayOrigin(current)} took longer than ${Math.ceil(opts.timeoutMs / 1000)} s.`
    );

  try {
    for (let redirects = 0; ; redirects += 1) {
      const target = await admit(current, allowList, resolver, deadline.signal);
      const { req, res } = await get(current, target, deadline.signal);
      const status = res.statusCode ?? 0;

      if (REDIRECT_STATUSES.has(status)) {
        const location = res.headers.location;
        discard(req, res);
        if (!location) {
          throw new DownloadRefusedError('HTTP_STATUS', `The file server at ${displayOrigin(current)} redirected without saying where.`, {
            status,
          });
        }
        if (redirects >= maxRedirects) {
          throw new DownloadRefusedError('TOO_MANY_REDIRECTS', `The file address redirected more than ${maxRedirects} times.`);
        }
        try {
          current = new URL(location, current);
        } catch {
          throw new DownloadRefusedError('INVALID_URL', `The file server at ${displayOrigin(current)} redirected to an invalid address.`);
        }
        continue;
      }

      if (status !== 200) {
        discard(req, res);
        throw new DownloadRefusedError('HTTP_STATUS', `The file server at ${displayOrigin(current)} answered HTTP ${status}.`, { status });
      }
      return await saveBody(current, req, res, opts, deadline.signal);
    }
  } catch (error) {
    if (opts.signal?.aborted) throw callerStopped();
    if (error instanceof DownloadRefusedError) throw error;
    if (deadline.signal.aborted) throw timeoutError();
    throw error;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', stopByCaller);
  }
}

// ---------------------------------------------------------------------------------------------
// Allow-list and address checks
// ---------------------------------------------------------------------------------------------

interface AllowedOrigin {
  protocol: 'http:' | 'https:';
  hostname: string;
  port: number;
  /** Written with a scheme (`http://...`, `https://...`) rather than as a bare host. */
  explicit: boolean;
}

function parseAllowedOrigin(entry: string): AllowedOrigin {
  const text = String(entry).trim();
  const explicit = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  let parsed: URL;
  try {
    parsed = new URL(explicit ? text : `https://${text}`);
  } catch {
    throw new TypeError(`"${text}" in allowedOrigins is not a host name or an origin.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`"${text}" in allowedOrigins must use http or https.`);
  }
  return { protocol: parsed.protocol, hostname: normaliseHost(parsed.hostname), port: effectivePort(parsed), explicit };
}

/** Checks a URL against the allow-list and the address rules; answers the one address to connect to. */
async function admit(url: URL, allowList: AllowedOrigin[], resolver: HostResolver, signal: AbortSignal): Promise<ResolvedAddress> {
  const origin = displayOrigin(url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new DownloadRefusedError(
      'SCHEME_NOT_ALLOWED',
      `Files from "${url.protocol}" addresses are not accepted; only https (or http where allowed) is.`
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new DownloadRefusedError('HOST_NOT_ALLOWED', `File addresses carrying a user name or password are not accepted (${origin}).`);
  }

  const host = normaliseHost(url.hostname);
  const port = effectivePort(url);
  const sameHost = allowList.filter((entry) => entry.hostname === host);
  if (sameHost.length === 0) {
    throw new DownloadRefusedError(
      'HOST_NOT_ALLOWED',
      `Files from ${origin} are not accepted: the host is not in the list of allowed media hosts.`
    );
  }
  const entry = sameHost.find((candidate) => candidate.protocol === url.protocol && candidate.port === port);
  if (!entry) {
    if (!sameHost.some((candidate) => candidate.protocol === url.protocol)) {
      throw new DownloadRefusedError(
        'SCHEME_NOT_ALLOWED',
        `Files from ${origin} are not accepted: this host is allowed over ${sameHost[0]!.protocol.replace(':', '')} only.`
      );
    }
    throw new DownloadRefusedError(
      'HOST_NOT_ALLOWED',
      `Files from ${origin} are not accepted: that port is not in the list of allowed media hosts.`
    );
  }

  const literalFamily = net.isIP(host);
  let addresses: ResolvedAddress[];
  if (literalFamily !== 0) {
    addresses = [{ address: host, family: literalFamily }];
  } else {
    try {
      addresses = await abortable(resolver(host), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new DownloadRefusedError('NETWORK_ERROR', `The file server's name (${host}) could not be resolved.`);
    }
    if (!Array.isArray(addresses) || addresses.length === 0) {
      throw new DownloadRefusedError('NETWORK_ERROR', `The file server's name (${host}) could not be resolved.`);
    }
  }

  // Local addresses only where the operator named them outright: an IP literal (or localhost) with a scheme.
  const localAllowed = entry.explicit && (literalFamily !== 0 || host === 'localhost');
  for (const { address } of addresses) {
    const family = net.isIP(stripZone(address));
    if (family === 0) {
      throw new DownloadRefusedError(
        'PRIVATE_ADDRESS',
        `Files from ${origin} are not accepted: its name resolved to something that is not an address.`
      );
    }
    const reason = nonPublicAddressReason(address);
    if (reason === undefined) continue;
    if (localAllowed && (host !== 'localhost' || reason === 'loopback')) continue;
    throw new DownloadRefusedError(
      'PRIVATE_ADDRESS',
      `Files from ${origin} are not accepted: ${literalFamily !== 0 ? 'it is' : `${host} points to`} a ${reason} address (${address}), which is only allowed when listed by that exact address.`
    );
  }
  const chosen = addresses[0]!;
  return { address: chosen.address, family: net.isIP(stripZone(chosen.address)) };
}

/**
 * A `lookup` for http(s).request that answers with the address already checked, whatever the name, so
 * the connection cannot go anywhere else. Node asks for one address or, with autoSelectFamily, for a list.
 */
export function pinnedLookup(address: string, family: number): LookupFunction {
  return (_hostname, options, callback) => {
    if (typeof options === 'function') {
      (options as unknown as (err: null, address: string, family: number) => void)(null, address, family);
      return;
    }
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

// ---------------------------------------------------------------------------------------------
// Transfer
// ---------------------------------------------------------------------------------------------

function get(url: URL, target: ResolvedAddress, signal: AbortSignal): Promise<{ req: ClientRequest; res: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(
      {
        protocol: url.protocol,
        hostname: normaliseHost(url.hostname),
        port: effectivePort(url),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        // A fresh agent per request: no pooled socket, connected earlier by someone else, can be reused.
        agent: false,
        lookup: pinnedLookup(target.address, target.family),
        signal,
        headers: {
          accept: '*/*',
          // Raw bytes, so the size cap and the content check see what is stored.
          'accept-encoding': 'identity',
          'user-agent': 'strapi-plugin-speech',
        },
      },
      (res) => resolve({ req, res })
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (signal.aborted) return reject(error);
      reject(
        new DownloadRefusedError(
          'NETWORK_ERROR',
          `The file server at ${displayOrigin(url)} could not be reached (${error.code ?? 'network error'}).`
        )
      );
    });
    req.end();
  });
}

async function saveBody(
  url: URL,
  req: ClientRequest,
  res: IncomingMessage,
  opts: DownloadOptions,
  signal: AbortSignal
): Promise<DownloadedFile> {
  const origin = displayOrigin(url);
  const declared = res.headers['content-length'];
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > opts.maxBytes) {
    discard(req, res);
    throw tooLarge(origin, opts.maxBytes);
  }

  const filePath = path.join(opts.tempDir ?? os.tmpdir(), `speech-${randomUUID()}.${opts.kind}`);
  // Opened here (not lazily by the stream) so the file exists before any failure can need to delete it.
  const handle = await fs.open(filePath, 'wx', 0o600);
  const out = handle.createWriteStream();
  const inspector = new BodyInspector(opts.kind, opts.maxBytes, origin);
  try {
    await pipeline(res, inspector, out, { signal });
    return {
      path: filePath,
      bytes: inspector.bytes,
      contentType: CANONICAL_CONTENT_TYPE[opts.kind],
      sha256: inspector.digest(),
    };
  } catch (error) {
    discard(req, res);
    out.destroy();
    await new Promise<void>((resolve) => (out.closed ? resolve() : out.once('close', () => resolve())));
    await fs.rm(filePath, { force: true });
    if (error instanceof DownloadRefusedError || signal.aborted) throw error;
    const syscall = (error as NodeJS.ErrnoException).syscall;
    if (syscall === 'write' || syscall === 'open' || syscall === 'close') throw error;
    throw new DownloadRefusedError('NETWORK_ERROR', `The download from ${origin} broke off before the end.`);
  }
}

/** Counts, hashes and recognises the bytes as they pass, refusing as soon as a rule is broken. */
class BodyInspector extends Transform {
  bytes = 0;
  private readonly hash = createHash('sha256');
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private checked = false;
  /** SRT must be UTF-8 throughout; a fatal decoder fed chunk by chunk checks that without keeping the text. */
  private readonly utf8: TextDecoder | undefined;
  /** MP3: how far to read depends on the ID3 tag's size, so the sniffer is fed every chunk until it can tell. */
  private readonly mp3: Mp3Sniffer | undefined;

  constructor(
    private readonly kind: DownloadKind,
    private readonly maxBytes: number,
    private readonly origin: string
  ) {
    super();
    this.utf8 = kind === 'srt' ? new TextDecoder('utf-8', { fatal: true }) : undefined;
    this.mp3 = kind === 'mp3' ? new Mp3Sniffer(maxBytes) : undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return callback(tooLarge(this.origin, this.maxBytes));
    this.hash.update(chunk);
    if (this.utf8) {
      try {
        this.utf8.decode(chunk, { stream: true });
      } catch {
        return callback(this.badContent());
      }
    }
    if (!this.checked) {
      const problem = this.mp3 ? this.judgeMp3(this.mp3.push(chunk)) : this.pushSrtHead(chunk);
      if (problem) return callback(problem);
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.utf8) {
      try {
        this.utf8.decode();
      } catch {
        return callback(this.badContent());
      }
    }
    if (this.checked) return callback(null);
    callback((this.mp3 ? this.judgeMp3(this.mp3.end()) : this.checkSrtHead()) ?? null);
  }

  digest(): string {
    return this.hash.digest('hex');
  }

  private judgeMp3(verdict: Mp3Verdict): DownloadRefusedError | undefined {
    if (verdict.kind === 'need-more') return undefined;
    this.checked = true;
    if (verdict.kind === 'mp3') return undefined;
    if (verdict.kind === 'too-large') {
      return new DownloadRefusedError(
        'TOO_LARGE',
        `The file from ${this.origin} is larger than the ${formatBytes(this.maxBytes)} limit: its ID3 tag alone claims ${formatBytes(verdict.tagBytes)}.`
      );
    }
    return this.badContent(verdict.reason);
  }

  private pushSrtHead(chunk: Buffer): DownloadRefusedError | undefined {
    this.head.push(chunk);
    this.headBytes += chunk.length;
    return this.headBytes >= HEAD_BYTES ? this.checkSrtHead() : undefined;
  }

  private checkSrtHead(): DownloadRefusedError | undefined {
    this.checked = true;
    const head = Buffer.concat(this.head);
    this.head.length = 0;
    return startsWithSrtCue(head) ? undefined : this.badContent();
  }

  private badContent(reason?: string): DownloadRefusedError {
    const what = this.kind === 'mp3' ? 'an MP3 audio file' : 'an SRT subtitle file';
    return new DownloadRefusedError('BAD_CONTENT', `The file from ${this.origin} is not ${what}${reason ? `: ${reason}` : ''}.`);
  }
}

const SRT_TIMING = /^\d{1,3}:\d{2}:\d{2}[,.]\d{3}\s*-->\s*\d{1,3}:\d{2}:\d{2}[,.]\d{3}/;

/** Text whose first non-empty block opens with a cue number and a `00:00:00,000 --> 00:00:01,000` line. */
export function startsWithSrtCue(head: Buffer): boolean {
  // Not fatal here: the head may end inside a character; full UTF-8 validity is checked while streaming.
  const text = new TextDecoder('utf-8').decode(head).replace(/^\uFEFF/, '');
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let index = 0;
  while (index < lines.length && lines[index]!.trim() === '') index += 1;
  const counter = lines[index]?.trim() ?? '';
  const timing = lines[index + 1]?.trim() ?? '';
  return /^\d+$/.test(counter) && SRT_TIMING.test(timing);
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function tooLarge(origin: string, maxBytes: number): DownloadRefusedError {
  return new DownloadRefusedError('TOO_LARGE', `The file from ${origin} is larger than the ${formatBytes(maxBytes)} limit.`);
}

function discard(req: ClientRequest, res: IncomingMessage): void {
  res.destroy();
  req.destroy();
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      }
    );
  });
}

/** Lowercase, without IPv6 brackets or a trailing dot, so `CDN.example.com.` and `cdn.example.com` compare equal. */
function normaliseHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'http:' ? 80 : 443;
}

/** scheme://host:port only: the path and query of a file URL may carry an access token. */
function displayOrigin(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
