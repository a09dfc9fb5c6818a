/** Field checks before sending, failing the way the endpoint itself would. */
import { InvalidRequestError, ValidationFailedError, type SpeechEndpoint } from './errors';

export function requireText(value: unknown, field: string, endpoint: SpeechEndpoint, message: string): asserts value is string {
  if (typeof value === 'string' && value.trim() !== '') return;
  const init = { message, details: { field } };
  throw endpoint === 'article' ? new ValidationFailedError(init) : new InvalidRequestError(init);
}
