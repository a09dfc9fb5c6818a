/** Reading the JSON of a 2xx answer. */
import { SpeechServiceUnavailableError } from './errors';
import { tryParseJson } from './values';

/** The body as JSON; a 2xx that is not JSON is read as a passing failure of the service, worth retrying. */
export function parseJsonOrUnavailable(body: Buffer, status: number): unknown {
  const parsed = tryParseJson(body);
  if (parsed === undefined) {
    throw new SpeechServiceUnavailableError({
      status,
      message: 'The speech service sent a response that could not be read; the request will be retried.',
      // It answered: whatever the request asked for may have been done.
      outcomeUnknown: true,
    });
  }
  return parsed;
}
