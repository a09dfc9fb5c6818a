import type { z } from 'zod';

/** Strapi's error body (`{ error: { status, name, message, details } }`), so the admin's fetch client reads it. */
const NAMES: Record<number, string> = {
  400: 'ValidationError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  409: 'ConflictError',
  413: 'PayloadTooLargeError',
  429: 'RateLimitError',
  502: 'SpeechServiceError',
};

export function sendError(ctx: any, status: number, message: string, details?: unknown) {
  ctx.status = status;
  ctx.body = { error: { status, name: NAMES[status] ?? 'ApplicationError', message, ...(details === undefined ? {} : { details }) } };
}

export function sendValidationError(ctx: any, error: z.ZodError, message = 'Invalid request.') {
  sendError(ctx, 400, message, error.flatten().fieldErrors);
}
