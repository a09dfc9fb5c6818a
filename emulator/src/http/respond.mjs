/** Small response writers; every JSON answer of the emulator goes through `sendJson`. */

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
export function sendJson(res, status, body, headers = {}) {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(payload.length),
    ...headers,
  });
  res.end(payload);
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {import('./errors.mjs').ApiError} error
 */
export function sendError(res, error) {
  sendJson(res, error.status, error.toBody(), error.headers);
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {Buffer} bytes
 * @param {Record<string, string>} headers  must include Content-Type
 * @param {boolean} [headOnly]
 */
export function sendBytes(res, status, bytes, headers, headOnly = false) {
  res.writeHead(status, { 'Content-Length': String(bytes.length), ...headers });
  res.end(headOnly ? undefined : bytes);
}
