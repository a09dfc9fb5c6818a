import { Box, Flex, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { GetUsageResponse } from '../api/types';
import { budgetProgress, type BudgetState } from '../utils/usageFormat';
import { useTranslator } from '../utils/useTranslator';

const BAR_COLOUR: Record<BudgetState, string> = { none: 'primary600', ok: 'primary600', near: 'warning600', reached: 'danger600' };

/**
 * The month to date against the budget, and what waits for it: the same few lines on the usage
 * page, the budget card of the settings and the home page widget.
 */
export const BudgetMeter = ({ usage, compact = false }: { usage: GetUsageResponse; compact?: boolean }) => {
  const t = useTranslator();
  const { formatNumber } = useIntl();
  const progress = budgetProgress(usage);
  const spent = formatNumber(progress.spent);
  return (
    <Flex direction="column" alignItems="stretch" gap={2} data-testid="speech-budget-meter" data-state={progress.state}>
      <Typography variant={compact ? 'omega' : 'beta'} fontWeight="bold" data-testid="speech-month-credits">
        {progress.limit === null
          ? t('usage.month.noLimit', '{spent} credits this month (no monthly budget)', { spent })
          : t('usage.month.ofBudget', '{spent} of {limit} credits this month', { spent, limit: formatNumber(progress.limit) })}
      </Typography>
      {progress.ratio !== null ? (
        <Box
          background="neutral150"
          hasRadius
          height="0.8rem"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={progress.limit ?? 0}
          aria-valuenow={Math.min(progress.spent, progress.limit ?? 0)}
          aria-label={t('usage.month.bar', 'Month to date against the budget')}
          overflow="hidden"
        >
          <Box background={BAR_COLOUR[progress.state]} height="100%" style={{ width: `${Math.round(progress.ratio * 100)}%` }} />
        </Box>
      ) : null}
      {progress.remaining !== null ? (
        <Typography
          variant="pi"
          textColor={progress.state === 'reached' ? 'danger600' : 'neutral600'}
          data-testid="speech-budget-remaining"
        >
          {progress.state === 'reached'
            ? t('usage.month.reached', 'The budget is reached: new narrations wait until next month.')
            : t('usage.month.remaining', '{remaining} credits left this month.', { remaining: formatNumber(progress.remaining) })}
        </Typography>
      ) : null}
      {usage.monthToDate.pending > 0 ? (
        <Typography variant="pi" textColor="neutral600">
          {t('usage.month.pending', 'Of those, {pending} credits are for narrations still being generated.', {
            pending: formatNumber(usage.monthToDate.pending),
          })}
        </Typography>
      ) : null}
      <Typography variant="pi" textColor={usage.waiting.articles > 0 ? 'warning700' : 'neutral600'} data-testid="speech-budget-waiting">
        {t(
          'usage.waiting',
          '{articles, plural, =0 {Nothing waits for the budget.} one {# narration waits for the budget: {credits} credits.} other {# narrations wait for the budget: {credits} credits.}}',
          { articles: usage.waiting.articles, credits: formatNumber(usage.waiting.credits) }
        )}
      </Typography>
    </Flex>
  );
};
