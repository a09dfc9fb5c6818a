/**
 * Receives the STT multipart upload (parsed by busboy): the `audio` file is streamed to a temporary
 * file while its bytes are counted and hashed; small text fields are kept. Past the size limit the
 * rest of the file is read and thrown away (so the client can finish sending and read the 413), up
 * to a hard cap after which the connection is cut.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import busboy from 'busboy';

const MAX_FIELD_BYTES = 64 * 1024;
/** Part headers are not limited by the spec; this only keeps a hostile name from being cut short silently. */
const MAX_FIELD_NAME_BYTES = 16 * 1024;

export class MultipartError extends Error {
  /**
   * @param {'not-multipart' | 'malformed'} reason  not a multipart/form-data request at all, or a broken one
   * @param {string} message
   */
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}

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
 * @property {UploadedFile | null} file       the first `audio` file part, unless it was too large
 * @property {boolean} tooLarge
 * @property {number} bytesSeen  bytes of the audio part received (including discarded ones)
 * @property {string[]} ignoredParts  names of parts that were not used
 */

/**
 * Reads the whole upload. Rejects with MultipartError when the request is not multipart/form-data or
 * is malformed; the request is then left open (not destroyed) so the caller can drain it and answer 400.
 * @param {import('node:http').IncomingMessage} req
 * @param {{ maxFileBytes: number, tmpDir: string }} limits
 * @returns {Promise<Upload>}
 */
export function receiveUpload(req, { maxFileBytes, tmpDir }) {
  const parser = openParser(req);
  if (!parser) return Promise.reject(new MultipartError('not-multipart', 'The request is not multipart/form-data with a boundary.'));

  /** @type {Upload} */
  const upload = { fields: {}, file: null, tooLarge: false, bytesSeen: 0, ignoredParts: [] };
  // Draining a runaway upload stops here; the client then sees a closed connection.
  const drainCap = maxFileBytes * 2 + 1024 * 1024;
  let received = 0;
  let audioClaimed = false;
  /** @type {Promise<void> | null} */
  let audioSaved = null;
  /** Temporary files to delete should the upload fail. */
  const written = new Set();

  return new Promise((resolve, reject) => {
    let settled = false;
    /** @param {Buffer} chunk */
    const count = (chunk) => {
      received += chunk.length;
      if (received <= drainCap) return;
      req.destroy();
      fail(new MultipartError('malformed', 'Upload far exceeds the size limit; connection closed.'));
    };
    const closedEarly = () => {
      if (!req.complete) fail(new Error('The client closed the connection before the upload ended.'));
    };
    const settle = () => {
      settled = true;
      req.off('data', count);
      req.off('error', fail);
      req.off('close', closedEarly);
    };
    /** @param {unknown} error */
    const fail = async (error) => {
      if (settled) return;
      settle();
      req.unpipe(parser);
      parser.removeAllListeners('close');
      parser.destroy();
      await audioSaved?.catch(() => undefined);
      await Promise.all([...written].map((path) => rm(path, { force: true })));
      reject(error);
    };
    const succeed = async () => {
      if (settled) return;
      try {
        await audioSaved;
      } catch (error) {
        return fail(error);
      }
      if (settled) return;
      settle();
      resolve(upload);
    };

    req.on('data', count);
    req.on('error', fail);
    req.on('close', closedEarly);

    parser.on('field', (name, value, info) => {
      if (!name || name in upload.fields) {
        upload.ignoredParts.push(name || '(unnamed)');
      } else if (info.valueTruncated) {
        fail(new MultipartError('malformed', `Field "${name}" is too large.`));
      } else {
        upload.fields[name] = value;
      }
    });

    parser.on('file', (name, stream, info) => {
      if (name !== 'audio' || audioClaimed) {
        upload.ignoredParts.push(name || '(unnamed)');
        // A skipped part cut short is the parser's error, reported once there.
        stream.on('error', () => undefined);
        stream.resume();
        return;
      }
      audioClaimed = true;
      const path = join(tmpDir, `upload-${randomUUID()}`);
      written.add(path);
      audioSaved = saveAudio(stream, { path, filename: info.filename ?? null, contentType: info.mimeType ?? null });
      // Awaited by succeed or fail; this keeps a failure before then from counting as unhandled.
      audioSaved.catch(() => undefined);
    });

    parser.on('error', (error) => {
      // Once the audio is known to be too large, the 413 is the answer, however the rest of the body looks.
      if (upload.tooLarge) succeed();
      else fail(new MultipartError('malformed', /** @type {Error} */ (error).message));
    });
    parser.on('close', succeed);

    req.pipe(parser);
  });

  /**
   * @param {import('node:stream').Readable} stream
   * @param {{ path: string, filename: string | null, contentType: string | null }} part
   */
  async function saveAudio(stream, { path, filename, contentType }) {
    const out = createWriteStream(path);
    const hash = createHash('sha256');
    let bytes = 0;
    try {
      for await (const chunk of stream) {
        upload.bytesSeen += chunk.length;
        if (upload.tooLarge) continue;
        if (upload.bytesSeen > maxFileBytes) {
          upload.tooLarge = true;
          out.destroy();
          await rm(path, { force: true });
          continue;
        }
        bytes += chunk.length;
        hash.update(chunk);
        if (!out.write(chunk)) await once(out, 'drain');
      }
      if (upload.tooLarge) return;
      out.end();
      await once(out, 'finish');
      upload.file = { path, bytes, sha256: hash.digest('hex'), filename, contentType };
    } catch (error) {
      out.destroy();
      // The rest of a too-large file is only being thrown away: a body cut short there changes nothing.
      if (!upload.tooLarge) throw error;
    }
  }
}

/**
 * A busboy parser for a multipart/form-data request with a boundary, or null for anything else
 * (busboy would also read urlencoded forms, which the STT endpoint does not take).
 * @param {import('node:http').IncomingMessage} req
 */
function openParser(req) {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type !== 'multipart/form-data') return null;
  try {
    return busboy({
      headers: req.headers,
      // Filenames as sent (no path stripping) and read as UTF-8, the way browsers and the plugin send them.
      preservePath: true,
      defParamCharset: 'utf8',
      limits: { fieldSize: MAX_FIELD_BYTES, fieldNameSize: MAX_FIELD_NAME_BYTES },
    });
  } catch {
    return null; // no boundary, or a Content-Type busboy cannot read
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
