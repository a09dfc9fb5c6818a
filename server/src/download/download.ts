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
 *
 * This file follows the redirects under the one deadline; each step lives beside it: admission.ts (the
 * allow-list and the addresses), transfer.ts (the request and the temporary file), body-inspector.ts
 * (size, content and an MP3's duration while streaming), refusal.ts (the errors).
 */
import { admit, defaultResolver, parseAllowedOrigin, type HostResolver } from './admission';
import type { DownloadKind } from './body-inspector';
import { displayOrigin } from './origin';
import { DownloadRefusedError } from './refusal';
import { discard, get, saveBody, type DownloadedFile } from './transfer';

// What callers of a download catch; the parts' own helpers are imported from their files.
export { DownloadRefusedError };

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
