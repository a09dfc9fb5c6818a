import { attemptTokenRefresh } from '@strapi/strapi/admin';
import { backendURL } from '../utils/backendURL';

/**
 * Requests the admin fetch client cannot make: it parses every POST answer as JSON (the voice
 * preview and "listen to a paragraph" answer audio/mpeg) and reports no upload progress. They
 * carry the admin token that components read from the admin's auth context (useAdminToken),
 * and refresh it once on a 401 like the fetch client does.
 */

/** The current admin token and a way to keep a refreshed one. */
export type TokenSource = { get: () => string | null; set: (token: string | null) => void };

/** A Strapi error answer's body, as far as the message goes. */
type ErrorBody = { error?: { message?: string } } | null | undefined;

/** The shape of the admin fetch client's FetchError, so api/errors.ts reads it the same way. */
export function fetchError(status: number, data: unknown, fallback: string) {
  const message = (data as ErrorBody)?.error?.message ?? fallback;
  return Object.assign(new Error(message), { name: 'FetchError', status, response: { data } });
}

export function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** Sends with the current token; on a 401, refreshes the token once and sends again. */
export async function withFreshToken<T extends { status: number }>(
  tokens: TokenSource,
  send: (token: string | null) => Promise<T>
): Promise<T> {
  const answer = await send(tokens.get());
  if (answer.status !== 401) return answer;
  const fresh = await attemptTokenRefresh(tokens.get());
  tokens.set(fresh);
  return send(fresh);
}

/** POST with a JSON body and a binary answer (an MP3). */
export async function postForBlob(path: string, body: unknown, tokens: TokenSource): Promise<Blob> {
  const response = await withFreshToken(tokens, (token) =>
    fetch(`${backendURL()}${path}`, {
      method: 'POST',
      credentials: 'include',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'audio/mpeg, application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    })
  );
  if (!response.ok) throw fetchError(response.status, parseJson(await response.text().catch(() => '')), `HTTP ${response.status}`);
  return response.blob();
}

/** One paragraph of the draft, spoken in the entry's voice (costs credits once per voice and text). */
export const listenParagraph = (
  target: { contentType: string; documentId: string; locale?: string | null; index: number },
  tokens: TokenSource
) => postForBlob('/speech/narrations/listen', target, tokens);

/** Only called when the server announces `features.voicePreview`. */
export const previewVoice = (voiceId: string, tokens: TokenSource) => postForBlob('/speech/tts/preview', { voiceId }, tokens);

/** A lexicon rule's spoken form, in the voice of its locale (or the default voice); needs settings.update. */
export const hearLexiconRule = (rule: { spoken: string; locale: string | null }, tokens: TokenSource) =>
  postForBlob('/speech/lexicon/hear', { rule: { spoken: rule.spoken, locale: rule.locale } }, tokens);
