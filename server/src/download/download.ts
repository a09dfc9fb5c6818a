/**
 * Downloads a narration callback's MP3 or SRT without letting it turn the server into a proxy into
 * its own network (SSRF): the signature proves who sent a URL, not where it points, so every hop
 * (redirects are followed by hand) is admitted against the allow-list and public addresses only.
 * One deadline covers the whole download; the temporary file is deleted on every failure.
 */
import { admit, defaultResolver, parseAllowedOrigin, type HostResolver } from './admission';
import type { DownloadKind } from './body-inspector';
import { displayOrigin } from './origin';
import { DownloadRefusedError } from './refusal';
import { discard, get, saveBody, type DownloadedFile } from './transfer';

export { DownloadRefusedError };

export interface DownloadOptions {
  /**
   * `https://cdn.example.com`, `http://127.0.0.1:4010` (http only when written so), or a bare host
   * (https only). Paths in entries are ignored.
   */
  allowedOrigins: string[];
  maxBytes: number;
  /** DNS, every redirect and the body. */
  timeoutMs: number;
  kind: DownloadKind;
  tempDir?: string;
  maxRedirects?: number;
  resolver?: HostResolver;
  /** The caller lost its reason to go on (e.g. its lease): rejects with its reason. */
  signal?: AbortSignal;
}

const DEFAULT_MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

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
