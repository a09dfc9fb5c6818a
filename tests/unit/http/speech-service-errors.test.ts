import {
  ConcurrentRequestError,
  errorFromResponse,
  ForbiddenError,
  InsufficientCreditsError,
  InternalServerError,
  PayloadTooLargeError,
  SpeechServiceUnavailableError,
  UnauthorizedError,
} from '../../../server/src/speech-client';
import { errors } from '@strapi/utils';
import { editorMessage, rethrowForAdmin, serviceErrorAnswer } from '../../../server/src/http/speech-service-errors';
import { audioTooLargeError, uploadGuard } from '../../../server/src/speech-to-text/upload-guard';
import { withStrapiErrorHelpers } from '../strapi-error-helpers';

describe('serviceErrorAnswer', () => {
  it('promises no retry to an editor, and says when the request may have been received anyway', () => {
    const timedOut = new SpeechServiceUnavailableError({
      message: 'The speech service did not answer within 30 s; the request will be retried.',
      outcomeUnknown: true,
    });
    expect(serviceErrorAnswer(timedOut).message).toBe(
      'The speech service did not answer within 30 s. Try again in a moment. The request may have reached the speech service anyway.'
    );
    expect(editorMessage(timedOut)).toBe(serviceErrorAnswer(timedOut).message);
    const refused = new SpeechServiceUnavailableError({
      message: 'The speech service at http://x refused the connection; the request will be retried.',
    });
    expect(serviceErrorAnswer(refused).message).toBe('The speech service at http://x refused the connection. Try again in a moment.');
    expect(serviceErrorAnswer(new InternalServerError()).message).toBe(
      'The speech service had an internal error. Try again in a moment. The request may have reached the speech service anyway.'
    );
  });

  it('passes 402 on with the credits needed and remaining (from details or headers)', () => {
    const fromDetails = errorFromResponse(
      'general',
      402,
      { success: false, error: { code: 'INSUFFICIENT_CREDITS', message: 'x', details: { credits_remaining: 3, credits_required: 1200 } } },
      {}
    );
    const answer = serviceErrorAnswer(fromDetails);
    expect(answer.status).toBe(402);
    expect(answer.message).toBe('Not enough credits: 1,200 needed, 3 left. Buy credits or shorten the text.');
    expect(answer.details).toMatchObject({ code: 'INSUFFICIENT_CREDITS', creditsRequired: 1200, creditsRemaining: 3 });

    const fromHeaders = serviceErrorAnswer(
      errorFromResponse('general', 402, '', { 'service-credits-remaining': '0', 'service-credits-used': '40' })
    );
    expect(fromHeaders.details).toMatchObject({ creditsRequired: 40, creditsRemaining: 0 });
    expect(fromHeaders.message).toContain('40 needed, 0 left');
  });

  it('tells the editor how long to wait on 429 and sets Retry-After', () => {
    const error = errorFromResponse(
      'general',
      429,
      { error: { code: 'RATE_LIMIT_EXCEEDED', details: { reset_after: 30 } } },
      { 'retry-after': '90' },
      0
    );
    const answer = serviceErrorAnswer(error);
    expect(answer.status).toBe(429);
    expect(answer.headers['Retry-After']).toBe('90');
    expect(answer.message).toBe('The speech service is rate limiting requests. Try again in 1 min 30 s.');
    expect(answer.details.retryAfterSeconds).toBe(90);
  });

  it('explains a refused text (over the limit)', () => {
    const error = errorFromResponse(
      'general',
      400,
      { success: false, error: { code: 'INVALID_REQUEST', message: 'Invalid', details: { text: ['Text exceeds 5000 characters.'] } } },
      {}
    );
    const answer = serviceErrorAnswer(error);
    expect(answer.status).toBe(400);
    expect(answer.message).toBe('The speech service refused the text: Text exceeds 5000 characters. Shorten the text and try again.');
    expect(answer.details.fields).toEqual({ text: ['Text exceeds 5000 characters.'] });
  });

  it('never answers 401 or 403 for the service key (the admin would log the editor out)', () => {
    expect(serviceErrorAnswer(new UnauthorizedError()).status).toBe(502);
    expect(serviceErrorAnswer(new UnauthorizedError()).details.code).toBe('UNAUTHORIZED');
    expect(serviceErrorAnswer(new ForbiddenError()).status).toBe(502);
    expect(serviceErrorAnswer(errorFromResponse('general', 401, '', {})).status).toBe(502);
  });

  it('maps 404, 409, 413 and server failures', () => {
    const voice = serviceErrorAnswer(
      errorFromResponse('general', 404, { error: { code: 'NOT_FOUND', details: { voice_id: 'ar-x-1' } } }, {})
    );
    expect(voice.status).toBe(404);
    expect(voice.message).toContain('"ar-x-1"');
    const busy = serviceErrorAnswer(new ConcurrentRequestError());
    expect(busy.status).toBe(409);
    expect(busy.message).toMatch(/try again in a moment/i);
    expect(serviceErrorAnswer(new PayloadTooLargeError({ sizeBytes: 60 * 1024 * 1024 })).status).toBe(413);
    expect(serviceErrorAnswer(new InternalServerError()).status).toBe(502);
    const down = serviceErrorAnswer(
      new SpeechServiceUnavailableError({ message: 'The speech service at http://x refused the connection; the request will be retried.' })
    );
    expect(down.status).toBe(503);
    expect(down.message).toBe('The speech service at http://x refused the connection. Try again in a moment.');
  });
});

describe('rethrowForAdmin', () => {
  const context = () => {
    const headers: Record<string, string> = {};
    return { headers, set: (name: string, value: string) => void (headers[name] = value) };
  };
  const thrown = (run: () => void): any => {
    try {
      run();
    } catch (error) {
      return error;
    }
    throw new Error('nothing was thrown');
  };

  it("throws an error Strapi's error middleware answers with the mapped status, the name SpeechServiceError, the message and the details", () => {
    const ctx = context();
    const error = thrown(() => rethrowForAdmin(ctx, new InsufficientCreditsError(), { voiceId: 'ar-1' }));
    // strapi::errors formats an errors.HttpError with its own status, name, message and details.
    expect(error).toBeInstanceOf(errors.HttpError);
    expect(error).not.toBeInstanceOf(errors.ApplicationError);
    expect(error).toMatchObject({
      status: 402,
      name: 'SpeechServiceError',
      message: serviceErrorAnswer(new InsufficientCreditsError()).message,
    });
    expect(error.details).toMatchObject({ code: 'INSUFFICIENT_CREDITS', voiceId: 'ar-1' });
    expect(ctx.headers).toEqual({});
  });

  it('sets Retry-After before throwing', () => {
    const ctx = context();
    const limited = errorFromResponse('general', 429, { error: { code: 'RATE_LIMIT_EXCEEDED' } }, { 'retry-after': '7' }, 0);
    expect(thrown(() => rethrowForAdmin(ctx, limited))).toMatchObject({ status: 429, details: { retryAfterSeconds: 7 } });
    expect(ctx.headers).toEqual({ 'Retry-After': '7' });
  });

  it('rethrows anything else unchanged', () => {
    const notFound = new errors.NotFoundError('gone');
    expect(thrown(() => rethrowForAdmin(context(), notFound))).toBe(notFound);
  });
});

describe('upload guard', () => {
  const run = async (method: string, path: string, contentLength?: number) => {
    const ctx = withStrapiErrorHelpers({
      method,
      path,
      get: (name: string) => (name === 'content-length' && contentLength !== undefined ? String(contentLength) : ''),
      status: 404,
      body: undefined as any,
    });
    const next = jest.fn(async () => undefined);
    await uploadGuard()(ctx, next);
    return { ctx, next };
  };

  it('refuses a declared body over 50 MB plus the envelope, before the body parser', async () => {
    const { ctx, next } = await run('POST', '/speech/transcriptions', 51 * 1024 * 1024);
    expect(next).not.toHaveBeenCalled();
    expect(ctx.status).toBe(413);
    expect(ctx.body.error).toMatchObject({
      name: 'PayloadTooLargeError',
      message: expect.stringContaining('at most 50 MB'),
      details: { code: 'PAYLOAD_TOO_LARGE', maxBytes: 50 * 1024 * 1024 },
    });
  });

  it('lets through 50 MB with its envelope, chunked bodies and other routes', async () => {
    expect((await run('POST', '/speech/transcriptions', 50 * 1024 * 1024 + 2000)).next).toHaveBeenCalled();
    expect((await run('POST', '/speech/transcriptions/')).next).toHaveBeenCalled();
    expect((await run('POST', '/upload', 90 * 1024 * 1024)).next).toHaveBeenCalled();
    expect((await run('GET', '/speech/transcriptions', 90 * 1024 * 1024)).next).toHaveBeenCalled();
  });

  it('says how large the file was and what the limit is', () => {
    const refusal = audioTooLargeError(51 * 1024 * 1024);
    // Strapi answers a PayloadTooLargeError with 413 and this name.
    expect(refusal).toBeInstanceOf(errors.PayloadTooLargeError);
    expect(refusal.message).toBe(
      'The audio file is too large (51 MB): the speech service accepts files of at most 50 MB. Shorten or compress the recording and try again.'
    );
  });
});
