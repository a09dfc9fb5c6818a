/** Reading JSON request bodies with a size limit; multipart uploads are streamed elsewhere (stt/). */

export class BodyError extends Error {
  /** @param {'content-type'|'too-large'|'malformed'} reason @param {string} message */
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Reads and parses a JSON body. The limit protects the emulator from unbounded buffering;
 * callers translate BodyError into their endpoint's error model.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limitBytes
 * @returns {Promise<unknown>}
 */
export async function readJsonBody(req, limitBytes) {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type !== 'application/json') {
    throw new BodyError('content-type', 'Content-Type must be application/json.');
  }
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    // Keep reading (and discarding) so the client can finish sending and read our answer.
    if (size <= limitBytes) chunks.push(chunk);
  }
  if (size > limitBytes) throw new BodyError('too-large', `Request body exceeds ${limitBytes} bytes.`);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BodyError('malformed', 'Request body is not valid JSON.');
  }
}
