import { createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Core } from '@strapi/strapi';
import type { MediaFileRef } from '../domain/narration-row';
import type { MediaStore } from './media';

/**
 * A stored file read back (unchanged parts are never asked of the service again). It is the site's
 * own storage, so the downloader's address policy for the service's URLs does not apply.
 */

export class StoredFileUnreadable extends Error {}

export async function localPathOf(
  strapi: Core.Strapi,
  media: Pick<MediaStore, 'readableUrl'>,
  file: MediaFileRef,
  options: { workDir: string; maxBytes: number; timeoutMs: number; signal?: AbortSignal }
): Promise<string> {
  if (file.provider === 'local') {
    const uploads = path.resolve(strapi.dirs.static.public);
    const local = path.resolve(uploads, `.${decodeURIComponent(new URL(file.url, 'http://local').pathname)}`);
    if (!local.startsWith(`${uploads}${path.sep}`)) throw new StoredFileUnreadable(`${file.url} is not in the uploads folder`);
    try {
      await fs.access(local);
    } catch {
      throw new StoredFileUnreadable(`${file.url} is no longer in the uploads folder`);
    }
    return local;
  }
  const { url } = await media.readableUrl(file);
  const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
  const response = await fetch(url, { signal: AbortSignal.any(signals), redirect: 'follow' });
  if (!response.ok || !response.body) throw new StoredFileUnreadable(`${file.url}: the storage answered ${response.status}`);
  const target = path.join(options.workDir, `stored-${file.id}`);
  let received = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(received > options.maxBytes ? new StoredFileUnreadable(`${file.url} is over ${options.maxBytes} bytes`) : null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), limit, createWriteStream(target));
  return target;
}
