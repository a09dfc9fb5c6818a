import { Typography } from '@strapi/design-system';
import { ArrowClockwise } from '@strapi/icons';
import { useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { toProblem } from '../../api/errors';
import { useGetSpeechRetryEstimateQuery, useSpeechRetryFailedMutation } from '../../api/speechApi';
import type { QueueSelection } from '../../api/types';
import { CostDialog } from './CostDialog';
import { useTranslator } from '../../utils/useTranslator';

/** Retry asks what it would send and cost first, and says the budget left; nothing is sent until confirmed. */
export const RetryDialog = ({ selection, onClose }: { selection: QueueSelection; onClose: (retried: boolean) => void }) => {
  const t = useTranslator();
  const { formatNumber } = useIntl();
  const { toggleNotification } = useNotification();
  const estimate = useGetSpeechRetryEstimateQuery(selection, { refetchOnMountOrArgChange: true });
  const [retry, retrying] = useSpeechRetryFailedMutation();
  const figures = estimate.data;

  const confirm = async () => {
    try {
      const result = await retry(selection).unwrap();
      const message = t('queue.retried', '{count, plural, one {# narration} other {# narrations}} queued again.', {
        count: result.retried,
      });
      const skipped = result.skipped.length
        ? ` ${t('queue.retrySkipped', '{count, plural, one {# was} other {# were}} not: {reason}', { count: result.skipped.length, reason: result.skipped[0].reason })}`
        : '';
      const left = result.left
        ? ` ${t('queue.retryLeft', '{count} more failed: retry again for them.', { count: formatNumber(result.left) })}`
        : '';
      toggleNotification({ type: result.skipped.length ? 'warning' : 'success', message: `${message}${skipped}${left}` });
      onClose(true);
    } catch (caught) {
      toggleNotification({ type: 'danger', message: toProblem(caught).message });
    }
  };

  return (
    <CostDialog
      title={t('queue.retryTitle', 'Retry the failed narrations?')}
      icon={<ArrowClockwise />}
      testId="speech-retry-dialog"
      estimate={{ isFetching: estimate.isFetching, error: estimate.error, hasFigures: Boolean(figures) }}
      confirm={{
        label: t('queue.retryConfirm', 'Retry'),
        testId: 'speech-retry-confirm',
        disabled: !figures || figures.count === 0,
        loading: retrying.isLoading,
        onConfirm: () => void confirm(),
      }}
      onClose={() => onClose(false)}
    >
      {figures ? (
        <>
          <Typography textAlign="center" fontWeight="bold" data-testid="speech-retry-cost">
            {t('queue.retryCost', '{count, plural, one {# narration} other {# narrations}}, about {credits} credits.', {
              count: figures.count,
              credits: formatNumber(figures.credits),
            })}
          </Typography>
          <Typography textAlign="center" textColor="neutral600" data-testid="speech-retry-budget">
            {figures.budgetRemaining === null
              ? t('queue.retryNoBudget', 'The site has no monthly budget.')
              : t('queue.retryBudget', '{credits} credits are left in this month’s budget; what goes past it waits for it.', {
                  credits: formatNumber(figures.budgetRemaining),
                })}
          </Typography>
          {figures.refused ? (
            <Typography textAlign="center" textColor="neutral600">
              {t(
                'queue.retryRefused',
                '{count, plural, one {# narration is} other {# narrations are}} left out: you may not narrate them, or they no longer failed.',
                {
                  count: figures.refused,
                }
              )}
            </Typography>
          ) : null}
        </>
      ) : null}
    </CostDialog>
  );
};
