import * as React from 'react';
import { useIntl } from 'react-intl';
import type { NarrationView } from '../api/types';
import { getTranslation } from '../utils/getTranslation';
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
};

/** The reason of a failure in plain words, in the editor's language when the code is known. */
export function useFailureReason() {
  const { formatMessage } = useIntl();
  return React.useCallback(
    (row: Pick<NarrationView, 'lastError' | 'lastErrorCode'>): string | null => {
      const code = knownErrorCode(row.lastErrorCode);
      if (code) return formatMessage({ id: getTranslation(`error.${code}`), defaultMessage: DEFAULT_REASONS[code] });
      return row.lastError || null;
    },
    [formatMessage]
  );
}

export const FAILURE_REASON_DEFAULTS = DEFAULT_REASONS;
