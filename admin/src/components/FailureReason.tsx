import * as React from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import type { NarrationView } from '../api/types';
import { getTranslation } from '../utils/getTranslation';
import { failedPart } from '../utils/parts';
import { knownErrorCode } from '../utils/status';

/** English defaults; the Arabic text lives in translations/ar.json under the same ids. */
const DEFAULT_REASONS: Record<string, string> = {
  NO_AUDIO: 'The speech service produced no audio for this article.',
  CALLBACK_TIMEOUT: 'No result arrived from the speech service in time.',
  NOT_PUBLISHED: 'The content is no longer published or no longer narrated.',
  EMPTY_TEXT: 'There is no text to narrate.',
  INSUFFICIENT_CREDITS: 'The account has run out of credits.',
  AUTH_FAILED: 'The speech service rejected the API key.',
  UNAUTHORIZED: 'The speech service rejected the API key.',
  FORBIDDEN: 'The API key may not use this voice or feature.',
  INVALID_VOICE_ID: 'The voice does not exist on the speech service.',
  NOT_FOUND: 'The voice does not exist on the speech service.',
  VALIDATION_ERROR: 'The speech service refused the text.',
  INVALID_REQUEST: 'The speech service refused the request.',
  PROCESSING_ERROR: 'The speech service failed while generating the audio.',
  REFUND_FAILED: 'The speech service failed and could not refund the credits.',
  RATE_LIMIT_EXCEEDED: 'Too many requests to the speech service; it will be retried.',
  CONCURRENT_REQUEST: 'Another request was in progress on the account; it will be retried.',
  ALREADY_PROCESSING: 'The speech service is already generating this article.',
  PAYLOAD_TOO_LARGE: 'The article is too long for the speech service.',
  INTERNAL_ERROR: 'The speech service had an internal error.',
  SERVICE_UNAVAILABLE: 'The speech service could not be reached.',
  TEXT_TOO_LONG:
    'The article is longer than the speech service takes in one request; nothing was charged. Choose “In parts” as the narration mode of this content type in the Speech settings.',
  BUDGET_REACHED:
    'The site’s monthly credit budget is reached: the narration waits for next month, or for someone with the Speech settings permission to let it through.',
  PART_LOST: 'The audio of a part could no longer be fetched from the speech service; it is asked for again, without paying twice.',
};

/** TEXT_TOO_LONG said of one part of a segmented article: smaller parts help, not the mode. */
const PART_TOO_LONG =
  'This part is longer than the speech service takes in one request; nothing was charged. Lower the longest part of this content type in the Speech settings.';

type Row = Pick<NarrationView, 'lastError' | 'lastErrorCode'>;

/**
 * The reason of a failure in plain words: in the editor's language when the code is known, else
 * the server's text. A failure of one part of a segmented article says which part ("Part 3 of 18:"
 * from the server's text), in the editor's language as well.
 */
export function explainFailure(row: Row, intl: Pick<IntlShape, 'formatMessage' | 'formatNumber'>): string | null {
  const part = failedPart(row.lastError);
  const code = knownErrorCode(row.lastErrorCode);
  const reason =
    code === 'TEXT_TOO_LONG' && part
      ? intl.formatMessage({ id: getTranslation('error.partTextTooLong'), defaultMessage: PART_TOO_LONG })
      : code
        ? intl.formatMessage({ id: getTranslation(`error.${code}`), defaultMessage: DEFAULT_REASONS[code] })
        : part
          ? part.reason
          : row.lastError || null;
  if (!part || !reason) return reason;
  return intl.formatMessage(
    { id: getTranslation('error.inPart'), defaultMessage: 'Part {part} of {total}: {reason}' },
    { part: intl.formatNumber(part.part), total: intl.formatNumber(part.total), reason }
  );
}

/** The reason of a failure in plain words, in the editor's language (explainFailure). */
export function useFailureReason() {
  const intl = useIntl();
  return React.useCallback((row: Row): string | null => explainFailure(row, intl), [intl]);
}

export const FAILURE_REASON_DEFAULTS = DEFAULT_REASONS;
