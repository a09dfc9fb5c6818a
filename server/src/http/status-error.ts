import { errors } from '@strapi/utils';

/**
 * Statuses @strapi/utils has no class for (402, 409, 502...), which Strapi's error middleware writes
 * as its own. Not `ctx.throw`: koa's http-errors copy is not the `errors.HttpError` Strapi tests for,
 * so Strapi would log a crash and rewrite a 5xx's message. HttpError cannot be constructed: only its prototype is used.
 */
export class StatusError extends Error {
  readonly status: number;
  readonly statusCode: number;
  /** Strapi shows the message either way. */
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

export function conflict(message: string, details: Record<string, unknown> = {}): StatusError {
  return new StatusError(409, 'ConflictError', message, details);
}
