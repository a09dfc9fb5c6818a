/** Voice previews: POST {web_url}/api/v1/tts/generate (spec 4.4), answered with the audio itself. */
import { UnexpectedResponseError } from './errors';
import { headerValue, numericHeader } from './headers';
import { requireText } from './requests';
import { MAX_AUDIO_RESPONSE_BYTES, type Transport } from './transport';
import { isRecord, tryParseJson } from './values';

export interface GenerateSpeechRequest {
  text: string;
  voiceId: string;
}

export interface GeneratedSpeech {
  audio: Buffer;
  contentType: string;
  creditsRemaining?: number;
  creditsUsed?: number;
}

export function createSpeechGenerationEndpoint(transport: Transport, webRoot: string) {
  async function generateSpeech(req: GenerateSpeechRequest): Promise<GeneratedSpeech> {
    requireText(req?.text, 'text', 'general', 'There is no text to speak.');
    requireText(req?.voiceId, 'voiceId', 'general', 'No voice was chosen.');
    const { status, headers, body } = await transport.exchange({
      endpoint: 'general',
      method: 'POST',
      url: `${webRoot}/api/v1/tts/generate`,
      data: JSON.stringify({ text: req.text, voice_id: req.voiceId }),
      headers: { 'Content-Type': 'application/json', Accept: 'audio/*, application/json' },
      maxContentLength: MAX_AUDIO_RESPONSE_BYTES,
      overallDeadline: true,
    });
    const contentType = headerValue(headers, 'content-type') ?? 'audio/mpeg';
    if (/json/i.test(contentType)) {
      // A 2xx with JSON is not audio; an error body in it is read as a server error (its status says nothing).
      const parsed = tryParseJson(body);
      if (isRecord(parsed) && (parsed.success === false || parsed.error !== undefined)) {
        throw transport.errorFromBody('general', 500, body, headers);
      }
      throw new UnexpectedResponseError({ status, message: 'The speech service answered with data instead of audio.' });
    }
    if (body.length === 0) {
      throw new UnexpectedResponseError({ status, message: 'The speech service answered without any audio.' });
    }
    const result: GeneratedSpeech = { audio: body, contentType };
    const creditsRemaining = numericHeader(headers, 'service-credits-remaining');
    const creditsUsed = numericHeader(headers, 'service-credits-used');
    if (creditsRemaining !== undefined) result.creditsRemaining = creditsRemaining;
    if (creditsUsed !== undefined) result.creditsUsed = creditsUsed;
    return result;
  }

  return { generateSpeech };
}
