/** The voice list: GET {web_url}{voicesPath}. Not in the spec; the emulator serves it at /api/v1/voices. */
import { UnexpectedResponseError } from './errors';
import { MAX_JSON_RESPONSE_BYTES, parseJsonOrUnavailable, type Transport } from './transport';
import type { Voice } from './types';
import { idText, isRecord } from './values';

export const DEFAULT_VOICES_PATH = '/api/v1/voices';

export function createVoicesEndpoint(transport: Transport, webRoot: string, voicesPath: string) {
  async function listVoices(): Promise<Voice[]> {
    const { status, body } = await transport.exchange({
      endpoint: 'general',
      method: 'GET',
      url: `${webRoot}${voicesPath}`,
      maxContentLength: MAX_JSON_RESPONSE_BYTES,
      overallDeadline: true,
    });
    const parsed = parseJsonOrUnavailable(body, status);
    const list = Array.isArray(parsed)
      ? parsed
      : isRecord(parsed) && Array.isArray(parsed.voices)
        ? parsed.voices
        : isRecord(parsed) && Array.isArray(parsed.data)
          ? parsed.data
          : undefined;
    if (!list) throw new UnexpectedResponseError({ status, message: 'The speech service sent a voice list in an unknown shape.' });
    return list.map(toVoice).filter((voice): voice is Voice => voice !== undefined);
  }

  return { listVoices };
}

function toVoice(entry: unknown): Voice | undefined {
  if (!isRecord(entry)) return undefined;
  const id = idText(entry.id ?? entry.voice_id ?? entry.voiceId);
  if (id === undefined) return undefined;
  const voice: Voice = { id, name: typeof entry.name === 'string' && entry.name !== '' ? entry.name : id };
  if (typeof entry.language === 'string') voice.language = entry.language;
  if (typeof entry.gender === 'string') voice.gender = entry.gender;
  return voice;
}
