/**
 * Stand-ins for the error helpers Strapi adds to every koa context (@strapi/core,
 * services/server/koa.ts): `ctx.<status name in camelCase>(message, details)` writes
 * `{ data: null, error: { status, name, message, details } }` with http-errors' name for the status.
 * The plugin's guards run ahead of Strapi's error middleware and answer through them; unit tests
 * give their fake contexts the ones the guards use.
 */
const HELPERS = {
  unauthorized: { status: 401, name: 'UnauthorizedError', defaultMessage: 'Unauthorized' },
  payloadTooLarge: { status: 413, name: 'PayloadTooLargeError', defaultMessage: 'Payload Too Large' },
  unsupportedMediaType: { status: 415, name: 'UnsupportedMediaTypeError', defaultMessage: 'Unsupported Media Type' },
} as const;

type ErrorHelpers = { [Method in keyof typeof HELPERS]: (message?: string, details?: unknown) => void };

export function withStrapiErrorHelpers<Context extends { status: number; body: any }>(ctx: Context): Context & ErrorHelpers {
  const helpers = Object.fromEntries(
    Object.entries(HELPERS).map(([method, { status, name, defaultMessage }]) => [
      method,
      (message: string = defaultMessage, details: unknown = {}) => {
        ctx.status = status;
        ctx.body = { data: null, error: { status, name, message, details } };
      },
    ])
  ) as ErrorHelpers;
  return Object.assign(ctx, helpers);
}
