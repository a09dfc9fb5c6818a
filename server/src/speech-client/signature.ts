/** The narration callback's signature (spec section 5.4). */
import { createHash, createHmac, timingSafeEqual } from 'crypto';

const SIGNATURE_HEX_LENGTH = 64;

/** The API key's SHA-256 as lowercase hex, which the service uses as text, not bytes. */
export function callbackSigningKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

export function signCallback(apiKey: string, articleId: string, audioFile: string | null, srtFile: string | null): string {
  const message = `${articleId}|${audioFile ?? 'null'}|${srtFile ?? 'null'}`;
  return createHmac('sha256', callbackSigningKey(apiKey)).update(message, 'utf8').digest('hex');
}

export interface SignedCallbackFields {
  articleId: string;
  audioFile: string | null;
  srtFile: string | null;
  signature: string;
}

/** Untrusted input: answers false rather than throwing, and compares in constant time. */
export function verifyCallbackSignature(apiKey: string, fields: SignedCallbackFields): boolean {
  const { articleId, audioFile, srtFile, signature } = fields;
  if (typeof apiKey !== 'string' || apiKey === '') return false;
  if (typeof articleId !== 'string' || typeof signature !== 'string') return false;
  if (!isNullableString(audioFile) || !isNullableString(srtFile)) return false;

  const expected = Buffer.from(signCallback(apiKey, articleId, audioFile ?? null, srtFile ?? null), 'ascii');
  // Compared as text, so no hex decoding that could throw.
  const received = Buffer.from(signature, 'utf8');
  if (received.length !== SIGNATURE_HEX_LENGTH) return false;
  return timingSafeEqual(received, expected);
}

function isNullableString(value: unknown): value is string | null | undefined {
  return value === null || value === undefined || typeof value === 'string';
}
