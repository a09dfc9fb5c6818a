import { errors } from '@strapi/utils';

/**
 * An error for a status that @strapi/utils has no class for (402, 409, 502, 503 ...), or that
 * keeps a name of its own (`SpeechServiceError` at whatever status the service's error maps to).
 *
 * Strapi's error middleware (`strapi::errors`, @strapi/core) writes the body of an
 * `errors.ApplicationError` with a status fixed by its class (400 for any class it does not know),
 * and of an `errors.HttpError` with the error's own `status`, `name`, `message` and `details`:
 * both as `{ data: null, error: { status, name, message, details } }`. So a route throws this and
 * Strapi answers, exactly as for its own errors.
 *
 * Not `ctx.throw`: koa creates its errors with its own copy of http-errors, which is not the
 * `errors.HttpError` Strapi tests for; Strapi then logs them as crashes and replaces the message
 * of a 5xx with "Bad Gateway". `errors.HttpError` (http-errors' base class) cannot be constructed,
 * so this class takes only its prototype.
 */
export class StatusError extends Error {
  readonly status: number;
  /** http-errors' alias of `status`. */
  readonly statusCode: number;
  /** http-errors' flag: whether the message may be shown to the client (Strapi shows it either way). */
  readonly expose = true;
  readonly details: Record<string, unknown>;

  constructor(status: number, name: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = name;
    this.status = status;
    this.statusCode = status;
    this.details = details;
  }
}

Object.setPrototypeOf(StatusError.prototype, (errors.HttpError as unknown as { prototype: object }).prototype);

/** 409: the resource is not in a state that allows the request. */
export function conflict(message: string, details: Record<string, unknown> = {}): StatusError {
  return new StatusError(409, 'ConflictError', message, details);
}
