/**
 * A small streaming multipart/form-data parser (RFC 7578), so uploads go to disk chunk by
 * chunk and are never held in memory. Feed it request chunks; it yields events.
 */

export class MultipartError extends Error {}

/** @typedef {{ name: string | null, filename: string | null, contentType: string | null }} PartHeaders */
/** @typedef {{ type: 'part', headers: PartHeaders } | { type: 'data', data: Buffer } | { type: 'part-end' }} MultipartEvent */

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 16 * 1024;

/** @param {string | undefined} contentType @returns {string | null} */
export function multipartBoundary(contentType) {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : null;
}

export class MultipartParser {
  /** @param {string} boundary */
  constructor(boundary) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    // A virtual CRLF in front makes the first boundary look like every later one.
    /** @type {Buffer} */
    this.buffer = Buffer.from(CRLF);
    /** @type {'preamble'|'after-delimiter'|'headers'|'body'|'done'} */
    this.state = 'preamble';
  }

  get finished() {
    return this.state === 'done';
  }

  /**
   * @param {Buffer} chunk
   * @returns {Generator<MultipartEvent>}
   */
  *push(chunk) {
    if (this.state === 'done') return; // epilogue is ignored
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    while (true) {
      switch (this.state) {
        case 'preamble': {
          const at = this.buffer.indexOf(this.delimiter);
          if (at === -1) {
            this.keepTail();
            return;
          }
          this.buffer = this.buffer.subarray(at + this.delimiter.length);
          this.state = 'after-delimiter';
          break;
        }
        case 'after-delimiter': {
          if (this.buffer.length < 2) return;
          if (this.buffer[0] === 0x2d && this.buffer[1] === 0x2d) {
            this.state = 'done';
            this.buffer = Buffer.alloc(0);
            return;
          }
          const lineEnd = this.buffer.indexOf(CRLF);
          if (lineEnd === -1) {
            if (this.buffer.length > 1024) throw new MultipartError('Malformed multipart boundary line.');
            return;
          }
          if (!/^[ \t]*$/.test(this.buffer.toString('latin1', 0, lineEnd))) throw new MultipartError('Malformed multipart boundary line.');
          this.buffer = this.buffer.subarray(lineEnd + 2);
          this.state = 'headers';
          break;
        }
        case 'headers': {
          // A part may have no headers at all: then the blank line follows at once.
          const end = this.buffer.subarray(0, 2).equals(CRLF) ? -2 : this.buffer.indexOf(HEADER_END);
          if (end === -1) {
            if (this.buffer.length > MAX_HEADER_BYTES) throw new MultipartError('Multipart part headers are too large.');
            return;
          }
          const headers = parsePartHeaders(end < 0 ? '' : this.buffer.toString('utf8', 0, end));
          this.buffer = this.buffer.subarray(end < 0 ? 2 : end + 4);
          this.state = 'body';
          yield { type: 'part', headers };
          break;
        }
        case 'body': {
          const at = this.buffer.indexOf(this.delimiter);
          if (at === -1) {
            // Everything except a possible beginning of the delimiter is part data.
            const safe = this.buffer.length - (this.delimiter.length - 1);
            if (safe > 0) {
              yield { type: 'data', data: this.buffer.subarray(0, safe) };
              this.buffer = this.buffer.subarray(safe);
            }
            return;
          }
          if (at > 0) yield { type: 'data', data: this.buffer.subarray(0, at) };
          yield { type: 'part-end' };
          this.buffer = this.buffer.subarray(at + this.delimiter.length);
          this.state = 'after-delimiter';
          break;
        }
        default:
          return;
      }
    }
  }

  /** Keeps only what could be the start of a delimiter split across chunks. */
  keepTail() {
    const keep = Math.min(this.buffer.length, this.delimiter.length - 1);
    this.buffer = this.buffer.subarray(this.buffer.length - keep);
  }
}

/** @param {string} block @returns {PartHeaders} */
function parsePartHeaders(block) {
  /** @type {PartHeaders} */
  const headers = { name: null, filename: null, contentType: null };
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'content-type') headers.contentType = value;
    if (field !== 'content-disposition') continue;
    for (const m of value.matchAll(/;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g)) {
      const param = m[1].toLowerCase();
      const raw = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3].trim();
      if (param === 'name') headers.name = raw;
      else if (param === 'filename' && headers.filename === null) headers.filename = raw;
      else if (param === 'filename*') headers.filename = decodeExtendedValue(raw);
    }
  }
  return headers;
}

/** RFC 5987 `UTF-8''na%C3%AFve.mp3` @param {string} value */
function decodeExtendedValue(value) {
  const match = /^[^']*'[^']*'(.*)$/.exec(value);
  try {
    return decodeURIComponent(match ? match[1] : value);
  } catch {
    return value;
  }
}
