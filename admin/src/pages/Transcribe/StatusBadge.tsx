import { Status, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { TranscriptionStatus } from '../../api/types';
import { getTranslation } from '../../utils/getTranslation';
import { STATUS_VARIANT } from './utils';

/** The label of a transcription status, in the editor's language. */
export function useStatusLabel() {
  const { formatMessage } = useIntl();
  const t = (id: string, defaultMessage: string) => formatMessage({ id: getTranslation(id), defaultMessage });
  return (status: TranscriptionStatus): string => {
    switch (status) {
      case 'uploading':
        return t('transcribe.status.uploading', 'Uploading');
      case 'queued':
        return t('transcribe.status.queued', 'Queued');
      case 'processing':
        return t('transcribe.status.processing', 'Processing');
      case 'completed':
        return t('transcribe.status.completed', 'Completed');
      case 'failed':
        return t('transcribe.status.failed', 'Failed');
      default:
        return String(status);
    }
  };
}

export const TranscriptionStatusBadge = ({ status, testId = 'transcribe-status' }: { status: TranscriptionStatus; testId?: string }) => {
  const label = useStatusLabel();
  return (
    <Status variant={STATUS_VARIANT[status] ?? 'neutral'} size="S" data-testid={testId} data-status={status} maxWidth="min-content">
      <Typography tag="span" variant="omega" fontWeight="bold" style={{ whiteSpace: 'nowrap' }}>
        {label(status)}
      </Typography>
    </Status>
  );
};
