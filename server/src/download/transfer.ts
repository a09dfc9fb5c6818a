import { randomUUID } from 'crypto';
import { promises as fs } from 'fs';
import http, { type ClientRequest, type IncomingMessage } from 'http';
import https from 'https';
import os from 'os';
import path from 'path';
import { pipeline } from 'stream/promises';
import { pinnedLookup, type ResolvedAddress } from './admission';
import { BodyInspector, type DownloadKind } from './body-inspector';
import { displayOrigin, effectivePort, normaliseHost } from './origin';
import { DownloadRefusedError, tooLarge } from './refusal';

export interface DownloadedFile {
  path: string;
  bytes: number;
  /** Of the verified content, not the server's claim. */
  contentType: string;
  durationSeconds?: number | null;
}

export interface BodyRules {
  kind: DownloadKind;
  maxBytes: number;
  tempDir?: string;
}

const CANONICAL_CONTENT_TYPE: Record<DownloadKind, string> = { mp3: 'audio/mpeg', srt: 'application/x-subrip' };

export function get(url: URL, target: ResolvedAddress, signal: AbortSignal): Promise<{ req: ClientRequest; res: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(
      {
        protocol: url.protocol,
        hostname: normaliseHost(url.hostname),
        port: effectivePort(url),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        // A fresh agent: no pooled socket connected earlier by someone else can be reused.
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

export async function saveBody(
  url: URL,
  req: ClientRequest,
  res: IncomingMessage,
  opts: BodyRules,
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
      ...(opts.kind === 'mp3' ? { durationSeconds: inspector.durationSeconds() ?? null } : {}),
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

export function discard(req: ClientRequest, res: IncomingMessage): void {
  res.destroy();
  req.destroy();
}
