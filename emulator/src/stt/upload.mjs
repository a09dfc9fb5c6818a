/**
 * Receives the STT multipart upload: the `audio` file is streamed to a temporary file while its
 * bytes are counted and hashed; small text fields are kept. Past the size limit the rest of
 * the file is read and thrown away (so the client can finish sending and read the 413), up to a
 * hard cap after which the connection is cut.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { MultipartParser, MultipartError } from './multipart.mjs';

const MAX_FIELD_BYTES = 64 * 1024;

/**
 * @typedef {object} UploadedFile
 * @property {string} path
 * @property {number} bytes
 * @property {string} sha256
 * @property {string | null} filename
 * @property {string | null} contentType
 */

/**
 * @typedef {object} Upload
 * @property {Record<string, string>} fields  text fields (first value wins)
 * @property {UploadedFile | null} file       the first `audio` part, unless it was too large
 * @property {boolean} tooLarge
 * @property {number} bytesSeen  bytes of the audio part received (including discarded ones)
 * @property {string[]} ignoredParts  names of parts that were not used
 */

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {string} boundary
 * @param {{ maxFileBytes: number, tmpDir: string }} limits
 * @returns {Promise<Upload>}
 */
export async function receiveUpload(req, boundary, { maxFileBytes, tmpDir }) {
  const parser = new MultipartParser(boundary);
  /** @type {Upload} */
  const upload = { fields: {}, file: null, tooLarge: false, bytesSeen: 0, ignoredParts: [] };
  // Draining a runaway upload stops here; the client then sees a closed connection.
  const drainCap = maxFileBytes * 2 + 1024 * 1024;
  let received = 0;

  /** @type {{ kind: 'file', stream: import('node:fs').WriteStream, hash: import('node:crypto').Hash, file: UploadedFile } | { kind: 'field', name: string, chunks: Buffer[], size: number } | { kind: 'skip' } | null} */
  let part = null;

  const discardFile = async () => {
    if (part?.kind !== 'file') return;
    part.stream.destroy();
    await rm(part.file.path, { force: true });
  };

  try {
    // destroyOnReturn: false — on a parse error the socket must survive so the 400 can be sent.
    for await (const chunk of req.iterator({ destroyOnReturn: false })) {
      received += chunk.length;
      if (received > drainCap) {
        req.destroy();
        throw new MultipartError('Upload far exceeds the size limit; connection closed.');
      }
      for (const event of parser.push(chunk)) {
        if (event.type === 'part') {
          const { name, filename, contentType } = event.headers;
          if (name === 'audio' && !upload.file && !upload.tooLarge) {
            const path = join(tmpDir, `upload-${randomUUID()}`);
            part = { kind: 'file', stream: createWriteStream(path), hash: createHash('sha256'), file: { path, bytes: 0, sha256: '', filename, contentType } };
          } else if (name && name !== 'audio' && !(name in upload.fields)) {
            part = { kind: 'field', name, chunks: [], size: 0 };
          } else {
            upload.ignoredParts.push(name ?? '(unnamed)');
            part = { kind: 'skip' };
          }
        } else if (event.type === 'data') {
          if (part?.kind === 'file') {
            upload.bytesSeen += event.data.length;
            if (upload.bytesSeen > maxFileBytes) {
              await discardFile();
              upload.tooLarge = true;
              part = { kind: 'skip' };
              continue;
            }
            part.file.bytes += event.data.length;
            part.hash.update(event.data);
            if (!part.stream.write(event.data)) await once(part.stream, 'drain');
          } else if (part?.kind === 'field') {
            part.size += event.data.length;
            if (part.size > MAX_FIELD_BYTES) throw new MultipartError(`Field "${part.name}" is too large.`);
            part.chunks.push(event.data);
          } else if (part?.kind === 'skip' && upload.tooLarge) {
            upload.bytesSeen += event.data.length;
          }
        } else if (event.type === 'part-end') {
          if (part?.kind === 'file') {
            part.stream.end();
            await once(part.stream, 'finish');
            upload.file = { ...part.file, sha256: part.hash.digest('hex') };
          } else if (part?.kind === 'field') {
            upload.fields[part.name] = Buffer.concat(part.chunks).toString('utf8');
          }
          part = null;
        }
      }
    }
    if (!parser.finished && !upload.tooLarge) throw new MultipartError('Multipart body ended before its closing boundary.');
    return upload;
  } catch (error) {
    await discardFile();
    if (upload.file) await rm(upload.file.path, { force: true });
    throw error;
  }
}

/**
 * Reads and discards the rest of a request (bounded), so an error answer can be read by a
 * client that is still sending.
 * @param {import('node:http').IncomingMessage} req @param {number} capBytes
 */
export async function drainRequest(req, capBytes) {
  let seen = 0;
  try {
    for await (const chunk of req) {
      seen += chunk.length;
      if (seen > capBytes) {
        req.destroy();
        return;
      }
    }
  } catch {
    // the client went away: nothing to drain
  }
}
