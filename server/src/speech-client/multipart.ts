/**
 * The multipart/form-data body of the transcription upload (spec 2.4), streamed: text fields, then
 * the audio straight from its source, never read whole into memory.
 */
import { randomBytes } from 'crypto';
import { Readable } from 'stream';

import { MAX_TRANSCRIPTION_UPLOAD_BYTES, PayloadTooLargeError, UploadSourceError, type SpeechServiceError } from './errors';

/**
 * The fixed parts of a multipart/form-data body: the text fields and the audio part's headers before the
 * file, the closing boundary after it. Text fields come first so a streaming parser has them before the audio.
 */
function multipartEnvelope(
  boundary: string,
  fields: { language: string; outputFormat: string },
  filename: string,
  contentType: string
): { head: Buffer; tail: Buffer } {
  const head =
    textPart(boundary, 'language', fields.language) +
    textPart(boundary, 'output_format', fields.outputFormat) +
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="audio"; filename="${quoteFilename(filename)}"\r\n` +
    `Content-Type: ${contentType}\r\n\r\n`;
  return { head: Buffer.from(head, 'utf8'), tail: Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8') };
}

function textPart(boundary: string, name: string, value: string): string {
  return `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
}

/** As browsers do (WHATWG form encoding): quotes and line breaks percent-escaped, other characters sent as UTF-8. */
function quoteFilename(filename: string): string {
  return filename.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export interface AudioUploadPart {
  source: Readable;
  filename: string;
  contentType: string;
  /** Byte size of the source when known: checked as it streams, and the body then carries a Content-Length. */
  size?: number;
  language: string;
  outputFormat: string;
  /** Called as the audio's bytes are handed on, with the running total of audio bytes. */
  onProgress?: (sentBytes: number) => void;
}

export interface AudioUploadBody {
  stream: Readable;
  headers: Record<string, string>;
  /** Set when the body failed because of its source (too large, grew, shorter than stated), not the network. */
  sourceFailure(): SpeechServiceError | undefined;
}

/** The streamed upload body; refuses, mid-stream, audio beyond 50 MB or other than its stated size. */
export function audioUploadBody(part: AudioUploadPart): AudioUploadBody {
  const boundary = `----speech-client-${randomBytes(16).toString('hex')}`;
  const { head, tail } = multipartEnvelope(boundary, part, part.filename, part.contentType);
  const { source, size: expectedSize, onProgress } = part;

  let sourceFailure: SpeechServiceError | undefined;
  async function* chunks(): AsyncGenerator<Buffer> {
    yield head;
    let sent = 0;
    for await (const chunk of source as AsyncIterable<Buffer | string>) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      sent += buffer.length;
      if (sent > MAX_TRANSCRIPTION_UPLOAD_BYTES) {
        sourceFailure = new PayloadTooLargeError();
        throw sourceFailure;
      }
      if (expectedSize !== undefined && sent > expectedSize) {
        sourceFailure = new UploadSourceError({ message: 'The audio file grew while it was being uploaded.' });
        throw sourceFailure;
      }
      yield buffer;
      onProgress?.(sent);
    }
    if (expectedSize !== undefined && sent !== expectedSize) {
      sourceFailure = new UploadSourceError({ message: 'The audio file was shorter than its stated size.' });
      throw sourceFailure;
    }
    yield tail;
  }

  const headers: Record<string, string> = { 'Content-Type': `multipart/form-data; boundary=${boundary}` };
  // Without a known size the body goes out chunked.
  if (expectedSize !== undefined) headers['Content-Length'] = String(head.length + expectedSize + tail.length);
  return { stream: Readable.from(chunks(), { objectMode: false }), headers, sourceFailure: () => sourceFailure };
}
