/** The transcription upload's multipart body (spec 2.4), streamed: the audio is never read whole. */
import { randomBytes } from 'crypto';
import { Readable } from 'stream';

import { MAX_TRANSCRIPTION_UPLOAD_BYTES, PayloadTooLargeError, UploadSourceError, type SpeechServiceError } from './errors';

/** Text fields come first so a streaming parser has them before the audio. */
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

/** As browsers do (WHATWG form encoding): quotes and line breaks percent-escaped. */
function quoteFilename(filename: string): string {
  return filename.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export interface AudioUploadPart {
  source: Readable;
  filename: string;
  contentType: string;
  size?: number;
  language: string;
  outputFormat: string;
  onProgress?: (sentBytes: number) => void;
}

export interface AudioUploadBody {
  stream: Readable;
  headers: Record<string, string>;
  /** Tells a source failure (too large, grew, shorter than stated) from the network's. */
  sourceFailure(): SpeechServiceError | undefined;
}

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
