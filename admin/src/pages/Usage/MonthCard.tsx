import { Flex, Grid, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { GetUsageResponse } from '../../api/types';
import { BudgetMeter } from '../../components/BudgetMeter';
import { Card, Fact } from '../../components/Card';
import { formatMonth } from '../../utils/usageFormat';
import { useTranslator } from '../../utils/useTranslator';

/**
 * The month to date against the budget, what waits for it, and what is counted apart: refunds
 * (credits the service gave back) and free re-deliveries, the failures that need an editor, the
 * service's balance as last seen.
 */
export const MonthCard = ({ usage }: { usage: GetUsageResponse }) => {
  const t = useTranslator();
  const { formatNumber, formatDate, locale } = useIntl();
  const { monthToDate, balance } = usage;
  return (
    <Card
      testId="speech-usage-month"
      title={t('usage.month.title', '{month} to date', { month: formatMonth(usage.month, locale) })}
      subtitle={t('usage.month.subtitle', 'Counted in the {timeZone} time zone, refunds deducted.', { timeZone: usage.timeZone })}
    >
      <BudgetMeter usage={usage} />
      <Grid.Root gap={4}>
        <Grid.Item col={3} s={6} xs={12} direction="column" alignItems="stretch">
          <Fact label={t('usage.month.refunds', 'Refunds')} testId="speech-usage-refunds">
            {t('usage.month.refundsValue', '{refunds} ({credits} credits given back)', {
              refunds: formatNumber(monthToDate.refunds),
              credits: formatNumber(monthToDate.refundedCredits),
            })}
          </Fact>
        </Grid.Item>
        <Grid.Item col={3} s={6} xs={12} direction="column" alignItems="stretch">
          <Fact label={t('usage.month.redeliveries', 'Free re-deliveries')} testId="speech-usage-redeliveries">
            {formatNumber(monthToDate.redeliveries)}
          </Fact>
        </Grid.Item>
        <Grid.Item col={3} s={6} xs={12} direction="column" alignItems="stretch">
          <Fact label={t('usage.month.failures', 'Failures needing attention')} testId="speech-usage-failures">
            {formatNumber(usage.failures)}
          </Fact>
        </Grid.Item>
        {usage.checks && usage.checks.done + usage.checks.underWay > 0 ? (
          <Grid.Item col={3} s={6} xs={12} direction="column" alignItems="stretch">
            <Fact label={t('verification.usage.checks', 'Narrations checked by listening')} testId="speech-usage-checks">
              {t('verification.usage.checked', '{done} ({mismatches} differed, {failed} could not be checked)', {
                done: formatNumber(usage.checks.done),
                mismatches: formatNumber(usage.checks.mismatches),
                failed: formatNumber(usage.checks.failed),
              })}
            </Fact>
          </Grid.Item>
        ) : null}
        <Grid.Item col={3} s={6} xs={12} direction="column" alignItems="stretch">
          <Fact label={t('usage.month.balance', 'Account balance (last seen)')} testId="speech-usage-balance">
            {balance.creditsRemaining === null
              ? t('usage.month.balanceUnknown', 'Not seen yet')
              : t('usage.credits', '{credits} credits', { credits: formatNumber(balance.creditsRemaining) })}
          </Fact>
          {balance.seenAt ? (
            <Typography variant="pi" textColor="neutral600">
              {formatDate(balance.seenAt, { dateStyle: 'medium', timeStyle: 'short' })}
            </Typography>
          ) : null}
        </Grid.Item>
      </Grid.Root>
      {balance.drift !== null && balance.drift > 0 ? (
        <Flex>
          <Typography variant="pi" textColor="warning700" data-testid="speech-usage-drift">
            {t(
              'usage.month.drift',
              'The balance fell by {credits} credits more than this site’s ledger charged: another site or tool may use the same account.',
              { credits: formatNumber(balance.drift) }
            )}
          </Typography>
        </Flex>
      ) : null}
    </Card>
  );
};
