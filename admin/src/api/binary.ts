import { adminUrl } from '../../../shared/contracts/routes';
import { attemptTokenRefresh } from '@strapi/strapi/admin';
import { backendURL } from '../utils/backendURL';
import type { HearLexiconRuleRequest, ListenRequest, PreviewVoiceRequest } from './types';

/**
 * Requests the admin fetch client cannot make: it parses every POST answer as JSON (the voice
 * preview and "listen to a paragraph" answer audio/mpeg) and reports no upload progress. They
 * carry the admin token that components read from the admin's auth context (`useAuth`), and
 * refresh it once on a 401 like the fetch client does (the refresh also updates that context).
 */

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

/** Sends with the token; on a 401, refreshes the token once and sends again with the new one. */
export async function withFreshToken<T extends { status: number }>(
  token: string | null,
  send: (token: string | null) => Promise<T>
): Promise<T> {
  const answer = await send(token);
  if (answer.status !== 401) return answer;
  return send(await attemptTokenRefresh(token));
}

/** POST with a JSON body and a binary answer (an MP3). */
export async function postForBlob(path: string, body: unknown, token: string | null): Promise<Blob> {
  const response = await withFreshToken(token, (current) =>
    fetch(`${backendURL()}${path}`, {
      method: 'POST',
      credentials: 'include',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'audio/mpeg, application/json',
        ...(current ? { Authorization: `Bearer ${current}` } : {}),
      },
      body: JSON.stringify(body),
    })
  );
  if (!response.ok) throw fetchError(response.status, parseJson(await response.text().catch(() => '')), `HTTP ${response.status}`);
  return response.blob();
}

/** One paragraph of the draft, spoken in the entry's voice (costs credits once per voice and text). */
export const listenParagraph = (target: ListenRequest['body'], token: string | null) =>
  postForBlob(adminUrl('admin-narrations.listen'), target, token);

/** Only called when the server announces `features.voicePreview`. */
export const previewVoice = (voiceId: string, token: string | null) =>
  postForBlob(adminUrl('admin-voices.preview'), { voiceId } satisfies PreviewVoiceRequest['body'], token);

/** A lexicon rule's spoken form, in the voice of its locale (or the default voice); needs settings.update. */
export const hearLexiconRule = (rule: HearLexiconRuleRequest['body']['rule'], token: string | null) =>
  postForBlob(
    adminUrl('admin-lexicon.hear'),
    { rule: { spoken: rule.spoken, locale: rule.locale } } satisfies HearLexiconRuleRequest['body'],
    token
  );
