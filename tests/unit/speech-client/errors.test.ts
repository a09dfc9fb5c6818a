import {
  AlreadyProcessingError,
  AuthFailedError,
  ConcurrentRequestError,
  ForbiddenError,
  InsufficientCreditsError,
  InternalServerError,
  InvalidRequestError,
  InvalidVoiceIdError,
  NotFoundError,
  PayloadTooLargeError,
  ProcessingError,
  RateLimitExceededError,
  RefundFailedError,
  SpeechServiceError,
  SpeechServiceUnavailableError,
  UnauthorizedError,
  UnexpectedResponseError,
  ValidationFailedError,
} from '../../../server/src/speech-client/errors';
import { errorFromResponse, readErrorBody } from '../../../server/src/speech-client/response-errors';
import { formatDuration } from '../../../server/src/speech-client/wording';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);

function generalBody(code: string, message = 'Something went wrong', details?: Record<string, unknown>) {
  return { success: false, error: { code, message, ...(details ? { details } : {}) } };
}

describe('errorFromResponse: codes of the contract', () => {
  const table: Array<[string, number, new (...args: never[]) => SpeechServiceError, boolean]> = [
    ['AUTH_FAILED', 401, AuthFailedError, false],
    ['VALIDATION_ERROR', 422, ValidationFailedError, false],
    ['INVALID_VOICE_ID', 400, InvalidVoiceIdError, false],
    ['ALREADY_PROCESSING', 409, AlreadyProcessingError, false],
    ['PROCESSING_ERROR', 422, ProcessingError, false],
    ['REFUND_FAILED', 422, RefundFailedError, false],
    ['INVALID_REQUEST', 400, InvalidRequestError, false],
    ['UNAUTHORIZED', 401, UnauthorizedError, false],
    ['INSUFFICIENT_CREDITS', 402, InsufficientCreditsError, false],
    ['FORBIDDEN', 403, ForbiddenError, false],
    ['NOT_FOUND', 404, NotFoundError, false],
    ['CONCURRENT_REQUEST', 409, ConcurrentRequestError, true],
    ['RATE_LIMIT_EXCEEDED', 429, RateLimitExceededError, true],
    ['INTERNAL_ERROR', 500, InternalServerError, true],
  ];

  it.each(table)('%s (%i) in the 7.1 format', (code, status, Class, retryable) => {
    for (const endpoint of ['article', 'general'] as const) {
      const error = errorFromResponse(endpoint, status, generalBody(code), {}, NOW);
      expect(error).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(SpeechServiceError);
      expect(error).toBeInstanceOf(Error);
      expect(error.code).toBe(code);
      expect(error.status).toBe(status);
      expect(error.retryable).toBe(retryable);
      expect(error.name).toBe(Class.name);
      expect(error.message.length).toBeGreaterThan(10);
    }
  });

  it.each(table)('%s (%i) as a flat {code, message} body, as JSON text or as a Buffer', (code, status, Class) => {
    const flat = { code, message: 'm' };
    expect(errorFromResponse('article', status, flat, {}, NOW)).toBeInstanceOf(Class);
    expect(errorFromResponse('article', status, JSON.stringify(flat), {}, NOW)).toBeInstanceOf(Class);
    expect(errorFromResponse('general', status, Buffer.from(JSON.stringify(generalBody(code))), {}, NOW)).toBeInstanceOf(Class);
  });

  it('reads {error: "CODE"} as a code and a lowercase code as well', () => {
    expect(errorFromResponse('article', 409, { error: 'ALREADY_PROCESSING' }, {}, NOW)).toBeInstanceOf(AlreadyProcessingError);
    expect(errorFromResponse('general', 409, { code: 'concurrent_request' }, {}, NOW)).toBeInstanceOf(ConcurrentRequestError);
  });

  it('lets the code win over a status that does not match it', () => {
    const error = errorFromResponse('general', 400, generalBody('INSUFFICIENT_CREDITS'), {}, NOW);
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error.status).toBe(400);
  });
});

describe('errorFromResponse: falling back on the status', () => {
  const article: Array<[number, new (...args: never[]) => SpeechServiceError]> = [
    [400, InvalidVoiceIdError],
    [401, AuthFailedError],
    [402, InsufficientCreditsError],
    [403, ForbiddenError],
    [404, NotFoundError],
    [409, AlreadyProcessingError],
    [422, ValidationFailedError],
    [429, RateLimitExceededError],
    [500, InternalServerError],
  ];
  const general: Array<[number, new (...args: never[]) => SpeechServiceError]> = [
    [400, InvalidRequestError],
    [401, UnauthorizedError],
    [402, InsufficientCreditsError],
    [403, ForbiddenError],
    [404, NotFoundError],
    [409, ConcurrentRequestError],
    [413, PayloadTooLargeError],
    [422, InvalidRequestError],
    [429, RateLimitExceededError],
    [500, InternalServerError],
  ];

  it.each(article)('article endpoint, %i without a body', (status, Class) => {
    expect(errorFromResponse('article', status, '', {}, NOW)).toBeInstanceOf(Class);
  });

  it.each(general)('general endpoint, %i without a body', (status, Class) => {
    expect(errorFromResponse('general', status, undefined, {}, NOW)).toBeInstanceOf(Class);
  });

  it('uses the status when the code is unknown, and keeps the service code', () => {
    const error = errorFromResponse('general', 400, generalBody('TEXT_TOO_LONG', 'Text exceeds 5000 characters.'), {}, NOW);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.serviceCode).toBe('TEXT_TOO_LONG');
    expect(error.message).toBe('The speech service rejected the request: Text exceeds 5000 characters.');
  });

  it.each([502, 503, 504, 599])('%i is SpeechServiceUnavailable (retryable)', (status) => {
    const error = errorFromResponse('general', status, '<html><body>Bad gateway</body></html>', {}, NOW);
    expect(error).toBeInstanceOf(SpeechServiceUnavailableError);
    expect(error.retryable).toBe(true);
    expect(error.message).not.toContain('<html>');
    expect(error.message).toContain(String(status));
  });

  it.each([302, 405, 418, 451, 200])('%i is an UnexpectedResponseError (not retryable)', (status) => {
    const error = errorFromResponse('article', status, 'x', {}, NOW);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(status);
  });

  it('honours Retry-After on a 503', () => {
    expect(errorFromResponse('general', 503, '', { 'retry-after': '12' }, NOW).retryAfterMs).toBe(12_000);
  });
});

describe('insufficient credits (402)', () => {
  it('takes the numbers from details and writes them for an editor', () => {
    const error = errorFromResponse(
      'general',
      402,
      generalBody('INSUFFICIENT_CREDITS', 'Insufficient credits', { credits_remaining: 300, credits_required: 1200 }),
      {},
      NOW
    );
    expect(error.creditsRemaining).toBe(300);
    expect(error.creditsRequired).toBe(1200);
    expect(error.message).toMatch(/^Not enough credits: 1,200 needed, 300 left\./);
  });

  it('takes them from Service-Credits-Remaining / Service-Credits-Used when details are absent', () => {
    const error = errorFromResponse('general', 402, '', { 'Service-Credits-Remaining': '15', 'service-credits-used': ['25000'] }, NOW);
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error.creditsRemaining).toBe(15);
    expect(error.creditsRequired).toBe(25000);
    expect(error.message).toMatch(/^Not enough credits: 25,000 needed, 15 left\./);
  });

  it('reads headers through a get() method (axios / fetch Headers)', () => {
    const headers = new Map([['service-credits-remaining', '7']]);
    const error = errorFromResponse('general', 402, '', { get: (name: string) => headers.get(name) }, NOW);
    expect(error.creditsRemaining).toBe(7);
  });

  it('still says something useful without any numbers', () => {
    const error = errorFromResponse('article', 402, '', {}, NOW);
    expect(error.creditsRemaining).toBeUndefined();
    expect(error.message).toMatch(/Not enough credits/);
  });
});

describe('rate limit (429)', () => {
  it('uses Retry-After in seconds', () => {
    const error = errorFromResponse('article', 429, 'Too Many Requests', { 'Retry-After': '30' }, NOW);
    expect(error).toBeInstanceOf(RateLimitExceededError);
    expect(error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(error.retryAfterMs).toBe(30_000);
    expect(error.message).toBe('The speech service is rate limiting requests; retrying in 30 s.');
  });

  it('uses Retry-After as an HTTP-date', () => {
    const date = new Date(NOW + 90_000).toUTCString();
    const error = errorFromResponse('general', 429, generalBody('RATE_LIMIT_EXCEEDED'), { 'retry-after': date }, NOW);
    expect(error.retryAfterMs).toBe(90_000);
    expect(error.message).toBe('The speech service is rate limiting requests; retrying in 1 min 30 s.');
  });

  it('falls back on RateLimit-Reset as a Unix timestamp', () => {
    const reset = String(Math.floor(NOW / 1000) + 45);
    expect(errorFromResponse('general', 429, '', { 'RateLimit-Reset': reset }, NOW).retryAfterMs).toBe(45_000);
  });

  it('reads a small RateLimit-Reset as seconds (the IETF draft form)', () => {
    expect(errorFromResponse('general', 429, '', { 'ratelimit-reset': '20' }, NOW).retryAfterMs).toBe(20_000);
  });

  it('falls back on details.reset_after and reads credits_remaining', () => {
    const error = errorFromResponse(
      'general',
      429,
      generalBody('RATE_LIMIT_EXCEEDED', 'slow down', { reset_after: 12, credits_remaining: 500 }),
      {},
      NOW
    );
    expect(error.retryAfterMs).toBe(12_000);
    expect(error.creditsRemaining).toBe(500);
  });

  it('prefers Retry-After over the other sources', () => {
    const error = errorFromResponse(
      'general',
      429,
      generalBody('RATE_LIMIT_EXCEEDED', 'x', { reset_after: 99 }),
      { 'retry-after': '5', 'ratelimit-reset': String(Math.floor(NOW / 1000) + 60) },
      NOW
    );
    expect(error.retryAfterMs).toBe(5_000);
  });

  it('says "shortly" when nothing tells when', () => {
    const error = errorFromResponse('article', 429, '', {}, NOW);
    expect(error.retryAfterMs).toBeUndefined();
    expect(error.message).toBe('The speech service is rate limiting requests; retrying shortly.');
  });
});

describe('messages and bodies', () => {
  it('summarises per-field validation details', () => {
    const error = errorFromResponse(
      'article',
      422,
      {
        success: false,
        error: { code: 'VALIDATION_ERROR', details: { text: ['This field is required.'], 'postData.voiceId': ['Missing.'] } },
      },
      {},
      NOW
    );
    expect(error.message).toBe("The speech service rejected the article's data: text: This field is required; postData.voiceId: Missing.");
    expect(error.details).toEqual({ text: ['This field is required.'], 'postData.voiceId': ['Missing.'] });
  });

  it('names the missing voice of a 404', () => {
    const error = errorFromResponse('general', 404, generalBody('NOT_FOUND', 'Voice not found', { voice_id: 'v-9' }), {}, NOW);
    expect(error.message).toContain('"v-9"');
  });

  it('reads DRF-style {detail} and plain text bodies as the service message', () => {
    expect(readErrorBody({ detail: 'Authentication credentials were not provided.' })).toEqual({
      message: 'Authentication credentials were not provided.',
    });
    expect(readErrorBody('  Too many\n requests  ')).toEqual({ message: 'Too many requests' });
    expect(readErrorBody('<html>502</html>')).toEqual({});
    expect(readErrorBody({ error: 'Invalid API key' })).toEqual({ message: 'Invalid API key' });
    expect(readErrorBody({ text: ['required'] })).toEqual({ details: { text: ['required'] } });
  });

  it('shortens very long service messages', () => {
    const error = errorFromResponse('general', 400, { message: 'x'.repeat(5000) }, {}, NOW);
    expect(error.serviceMessage!.length).toBeLessThanOrEqual(300);
  });

  it('serialises to a safe JSON view', () => {
    const error = errorFromResponse('general', 429, '', { 'retry-after': '3' }, NOW);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      name: 'RateLimitExceededError',
      code: 'RATE_LIMIT_EXCEEDED',
      status: 429,
      retryAfterMs: 3000,
      retryable: true,
    });
  });

  it('formats durations in plain words', () => {
    expect(formatDuration(500)).toBe('1 s');
    expect(formatDuration(30_000)).toBe('30 s');
    expect(formatDuration(120_000)).toBe('2 min');
    expect(formatDuration(3_900_000)).toBe('1 h 5 min');
  });

  it('PayloadTooLargeError says the size and the limit', () => {
    const error = new PayloadTooLargeError({ sizeBytes: 62.4 * 1024 * 1024 });
    expect(error.message).toBe('The audio file is 62.4 MB and is too large: the speech service accepts at most 50 MB.');
    expect(error.status).toBe(413);
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
