import {
  ConcurrentRequestError,
  errorFromResponse,
  ForbiddenError,
  InsufficientCreditsError,
  InternalServerError,
  PayloadTooLargeError,
  SpeechServiceUnavailableError,
  UnauthorizedError,
} from '../../server/src/speech-client';
import { editorMessage, serviceErrorAnswer } from '../../server/src/controllers/speech-service-errors';
import { tooLargeAnswer, uploadGuard } from '../../server/src/transcription/upload-guard';

describe('serviceErrorAnswer', () => {
  it('promises no retry to an editor, and says when the request may have been received anyway', () => {
    const timedOut = new SpeechServiceUnavailableError({ message: 'The speech service did not answer within 30 s; the request will be retried.', outcomeUnknown: true });
    expect(serviceErrorAnswer(timedOut).body.error.message).toBe(
      'The speech service did not answer within 30 s. Try again in a moment. The request may have reached the speech service anyway.'
    );
    expect(editorMessage(timedOut)).toBe(serviceErrorAnswer(timedOut).body.error.message);
    const refused = new SpeechServiceUnavailableError({ message: 'The speech service at http://x refused the connection; the request will be retried.' });
    expect(serviceErrorAnswer(refused).body.error.message).toBe('The speech service at http://x refused the connection. Try again in a moment.');
    expect(serviceErrorAnswer(new InternalServerError()).body.error.message).toBe(
      'The speech service had an internal error. Try again in a moment. The request may have reached the speech service anyway.'
    );
  });

  it('passes 402 on with the credits needed and remaining (from details or headers)', () => {
    const fromDetails = errorFromResponse('general', 402, { success: false, error: { code: 'INSUFFICIENT_CREDITS', message: 'x', details: { credits_remaining: 3, credits_required: 1200 } } }, {});
    const answer = serviceErrorAnswer(fromDetails);
    expect(answer.status).toBe(402);
    expect(answer.body.error.message).toBe('Not enough credits: 1,200 needed, 3 left. Buy credits or shorten the text.');
    expect(answer.body.error.details).toMatchObject({ code: 'INSUFFICIENT_CREDITS', creditsRequired: 1200, creditsRemaining: 3 });

    const fromHeaders = serviceErrorAnswer(errorFromResponse('general', 402, '', { 'service-credits-remaining': '0', 'service-credits-used': '40' }));
    expect(fromHeaders.body.error.details).toMatchObject({ creditsRequired: 40, creditsRemaining: 0 });
    expect(fromHeaders.body.error.message).toContain('40 needed, 0 left');
  });

  it('tells the editor how long to wait on 429 and sets Retry-After', () => {
    const error = errorFromResponse('general', 429, { error: { code: 'RATE_LIMIT_EXCEEDED', details: { reset_after: 30 } } }, { 'retry-after': '90' }, 0);
    const answer = serviceErrorAnswer(error);
    expect(answer.status).toBe(429);
    expect(answer.headers['Retry-After']).toBe('90');
    expect(answer.body.error.message).toBe('The speech service is rate limiting requests. Try again in 1 min 30 s.');
    expect(answer.body.error.details.retryAfterSeconds).toBe(90);
  });

  it('explains a refused text (over the limit)', () => {
    const error = errorFromResponse('general', 400, { success: false, error: { code: 'INVALID_REQUEST', message: 'Invalid', details: { text: ['Text exceeds 5000 characters.'] } } }, {});
    const answer = serviceErrorAnswer(error);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe('The speech service refused the text: Text exceeds 5000 characters. Shorten the text and try again.');
    expect(answer.body.error.details.fields).toEqual({ text: ['Text exceeds 5000 characters.'] });
  });

  it('never answers 401 or 403 for the service key (the admin would log the editor out)', () => {
    expect(serviceErrorAnswer(new UnauthorizedError()).status).toBe(502);
    expect(serviceErrorAnswer(new UnauthorizedError()).body.error.details.code).toBe('UNAUTHORIZED');
    expect(serviceErrorAnswer(new ForbiddenError()).status).toBe(502);
    expect(serviceErrorAnswer(errorFromResponse('general', 401, '', {})).status).toBe(502);
  });

  it('maps 404, 409, 413 and server failures', () => {
    const voice = serviceErrorAnswer(errorFromResponse('general', 404, { error: { code: 'NOT_FOUND', details: { voice_id: 'ar-x-1' } } }, {}));
    expect(voice.status).toBe(404);
    expect(voice.body.error.message).toContain('"ar-x-1"');
    const busy = serviceErrorAnswer(new ConcurrentRequestError());
    expect(busy.status).toBe(409);
    expect(busy.body.error.message).toMatch(/try again in a moment/i);
    expect(serviceErrorAnswer(new PayloadTooLargeError({ sizeBytes: 60 * 1024 * 1024 })).status).toBe(413);
    expect(serviceErrorAnswer(new InternalServerError()).status).toBe(502);
    const down = serviceErrorAnswer(new SpeechServiceUnavailableError({ message: 'The speech service at http://x refused the connection; the request will be retried.' }));
    expect(down.status).toBe(503);
    expect(down.body.error.message).toBe('The speech service at http://x refused the connection. Try again in a moment.');
    expect(serviceErrorAnswer(new InsufficientCreditsError()).body).toMatchObject({ data: null, error: { status: 402, name: 'SpeechServiceError' } });
  });
});

describe('upload guard', () => {
  const run = async (method: string, path: string, contentLength?: number) => {
    const ctx: any = { method, path, get: (name: string) => (name === 'content-length' && contentLength !== undefined ? String(contentLength) : ''), status: 404, body: undefined };
    const next = jest.fn(async () => undefined);
    await uploadGuard()(ctx, next);
    return { ctx, next };
  };

  it('refuses a declared body over 50 MB plus the envelope, before the body parser', async () => {
    const { ctx, next } = await run('POST', '/speech/transcriptions', 51 * 1024 * 1024);
    expect(next).not.toHaveBeenCalled();
    expect(ctx.status).toBe(413);
    expect(ctx.body.error.details).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', maxBytes: 50 * 1024 * 1024 });
  });

  it('lets through 50 MB with its envelope, chunked bodies and other routes', async () => {
    expect((await run('POST', '/speech/transcriptions', 50 * 1024 * 1024 + 2000)).next).toHaveBeenCalled();
    expect((await run('POST', '/speech/transcriptions/')).next).toHaveBeenCalled();
    expect((await run('POST', '/upload', 90 * 1024 * 1024)).next).toHaveBeenCalled();
    expect((await run('GET', '/speech/transcriptions', 90 * 1024 * 1024)).next).toHaveBeenCalled();
  });

  it('says how large the file was and what the limit is', () => {
    expect(tooLargeAnswer(51 * 1024 * 1024).body.error.message).toBe(
      'The audio file is too large (51 MB): the speech service accepts files of at most 50 MB. Shorten or compress the recording and try again.'
    );
  });
});
