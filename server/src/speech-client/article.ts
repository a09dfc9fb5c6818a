/** Article narration: POST {base_url}/process-text (spec 2.1, 2.2, 4.1); the result comes later by callback. */
import { ValidationFailedError } from './errors';
import { numericHeader } from './headers';
import { requireText } from './requests';
import { MAX_JSON_RESPONSE_BYTES, type Transport } from './transport';
import type { PreprocessType, ProcessTextRequest } from './types';
import { isRecord, tryParseJson } from './values';

export interface ProcessTextResult {
  accepted: true;
  message: string;
  creditsRemaining?: number;
}

export function createArticleEndpoint(transport: Transport, articleRoot: string) {
  async function processText(req: ProcessTextRequest): Promise<ProcessTextResult> {
    const body = processTextBody(req);
    const { headers, body: raw } = await transport.exchange({
      endpoint: 'article',
      method: 'POST',
      url: `${articleRoot}/process-text`,
      data: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json' },
      maxContentLength: MAX_JSON_RESPONSE_BYTES,
      overallDeadline: true,
    });
    const result: ProcessTextResult = { accepted: true, message: acceptedMessage(raw, transport.scrub) };
    const creditsRemaining = numericHeader(headers, 'service-credits-remaining');
    if (creditsRemaining !== undefined) result.creditsRemaining = creditsRemaining;
    return result;
  }

  return { processText };
}

/** Known fields only, with preprocessType as the JSON string the service requires. */
function processTextBody(req: ProcessTextRequest): ProcessTextRequest {
  const postData = (req as Partial<ProcessTextRequest> | undefined)?.postData;
  requireText(req?.text, 'text', 'article', 'The article has no text to narrate.');
  if (!isRecord(postData)) throw new ValidationFailedError({ message: 'The narration request has no postData.' });
  requireText(postData.name, 'postData.name', 'article', 'The article has no title.');
  requireText(postData.articleId, 'postData.articleId', 'article', 'The article has no id.');
  requireText(postData.voiceId, 'postData.voiceId', 'article', 'No voice was chosen.');
  requireText(postData.callbackURL, 'postData.callbackURL', 'article', 'No callback URL is configured.');

  const body: ProcessTextRequest = {
    text: req.text,
    postData: {
      name: postData.name,
      articleId: postData.articleId,
      voiceId: postData.voiceId,
      callbackURL: postData.callbackURL,
    },
  };
  const preprocessType = normalisePreprocessType((postData as { preprocessType?: unknown }).preprocessType);
  if (preprocessType !== undefined) body.postData.preprocessType = preprocessType;
  const regenerate = (postData as { regenerate?: unknown }).regenerate;
  if (regenerate !== undefined) {
    if (typeof regenerate !== 'boolean') {
      throw new ValidationFailedError({ message: 'regenerate must be true or false.', details: { field: 'postData.regenerate' } });
    }
    body.postData.regenerate = regenerate;
  }
  return body;
}

/** The service rejects the bare numbers 0 and 2 (spec 2.2), so numbers are turned into their strings. */
function normalisePreprocessType(value: unknown): PreprocessType | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
  if (text === '0' || text === '2') return text;
  throw new ValidationFailedError({
    message: 'The text preparation mode (preprocessType) must be "0" (verbatim) or "2" (AI preprocessing).',
    details: { field: 'postData.preprocessType' },
  });
}

/** The 202 body is "a plain message" in an unspecified shape: JSON with a message, or text. */
function acceptedMessage(body: Buffer, scrub: (text: string) => string): string {
  const fallback = 'Narration started; the result will be sent to the callback URL.';
  const text = scrub(body.toString('utf8')).trim();
  if (text === '') return fallback;
  const parsed = tryParseJson(body);
  if (parsed === undefined) return text.startsWith('<') ? fallback : text.slice(0, 500);
  if (typeof parsed === 'string') return scrub(parsed);
  if (isRecord(parsed)) {
    for (const value of [parsed.message, parsed.detail, isRecord(parsed.data) ? parsed.data.message : undefined]) {
      if (typeof value === 'string' && value.trim() !== '') return scrub(value);
    }
  }
  return fallback;
}
