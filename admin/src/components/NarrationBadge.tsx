import { Status, Tooltip, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { NarrationView, QueueState } from '../api/types';
import { getTranslation } from '../utils/getTranslation';
import { BADGE_LABEL, BADGE_VARIANT, badgeKind, type BadgeKind } from '../utils/status';
import { useFailureReason } from './FailureReason';

interface Props {
  row: NarrationView | null;
  queue?: QueueState | null;
  size?: 'XS' | 'S' | 'M';
}

export const NarrationBadge = ({ row, queue, size = 'S' }: Props) => {
  const { formatMessage } = useIntl();
  const kind: BadgeKind = badgeKind(row, queue);
  const describeFailure = useFailureReason();
  const label = formatMessage({ id: getTranslation(`badge.${kind}`), defaultMessage: BADGE_LABEL[kind] });
  const badge = (
    <Status variant={BADGE_VARIANT[kind]} size={size} data-testid="speech-badge" data-kind={kind} maxWidth="min-content">
      <Typography tag="span" variant="omega" fontWeight="bold" style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Typography>
    </Status>
  );
  const reason =
    (kind === 'failed' || kind === 'budget') && row
      ? describeFailure(row)
      : kind === 'paused'
        ? (queue?.pauseReason ?? null)
        : kind === 'mismatch' && row?.verification
          ? formatMessage(
              {
                id: getTranslation('badge.mismatchReason'),
                defaultMessage: 'Its audio differs from the text sent in {count, plural, one {# place} other {# places}}.',
              },
              { count: row.verification.placeCount }
            )
          : null;
  if (!reason) return badge;
  return (
    <Tooltip label={reason}>
      <span>{badge}</span>
    </Tooltip>
  );
};
