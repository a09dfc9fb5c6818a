/** Checks of a request's fields before anything is sent, failing the way the endpoint itself would. */
import { InvalidRequestError, ValidationFailedError, type SpeechEndpoint } from './errors';

/** A non-blank string, or the endpoint's own validation error naming the field. */
export function requireText(value: unknown, field: string, endpoint: SpeechEndpoint, message: string): asserts value is string {
  if (typeof value === 'string' && value.trim() !== '') return;
  const init = { message, details: { field } };
  throw endpoint === 'article' ? new ValidationFailedError(init) : new InvalidRequestError(init);
}
