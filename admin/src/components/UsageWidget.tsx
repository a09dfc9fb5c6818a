import { Flex, Typography } from '@strapi/design-system';
import { Widget } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { useGetSpeechUsageQuery } from '../api/speechApi';
import { textDirection } from '../utils/textDirection';
import { useTranslator } from '../utils/useTranslator';
import { BudgetMeter } from './BudgetMeter';

/** How often the home page refreshes the figures while it stays open. */
const REFRESH_MS = 60_000;

/**
 * The home page widget (registered in index.ts for settings readers only): the month to date
 * against the budget, what waits for it, and the failures an editor should look at.
 */
const UsageWidget = () => {
  const t = useTranslator();
  const { formatNumber, locale } = useIntl();
  const { data, isLoading, isError } = useGetSpeechUsageQuery(30, { pollingInterval: REFRESH_MS, refetchOnMountOrArgChange: true });
  if (isLoading) return <Widget.Loading />;
  if (isError || !data) return <Widget.Error />;
  return (
    <Flex direction="column" alignItems="stretch" gap={3} width="100%" dir={textDirection(locale)} data-testid="speech-usage-widget">
      <BudgetMeter usage={data} compact />
      <Typography variant="pi" textColor={data.failures > 0 ? 'danger600' : 'neutral600'} data-testid="speech-widget-failures">
        {t(
          'widget.failures',
          '{count, plural, =0 {No failed narration needs attention.} one {# failed narration needs attention.} other {# failed narrations need attention.}}',
          { count: data.failures }
        )}
      </Typography>
      {data.monthToDate.refunds > 0 || data.monthToDate.redeliveries > 0 ? (
        <Typography variant="pi" textColor="neutral600">
          {t('widget.apart', 'Counted apart: {refunds} refunds, {redeliveries} free re-deliveries.', {
            refunds: formatNumber(data.monthToDate.refunds),
            redeliveries: formatNumber(data.monthToDate.redeliveries),
          })}
        </Typography>
      ) : null}
    </Flex>
  );
};

export default UsageWidget;
