import * as React from 'react';
import { Box, Flex, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { GetUsageResponse } from '../../api/types';
import { Card } from '../../components/Card';
import { chartSeries, periodTotals, seriesColour, stackDays, type StackBy } from '../../utils/usageChart';
import { seriesName } from '../../utils/usageFormat';
import { textDirection } from '../../utils/textDirection';
import { useTranslator } from '../../utils/useTranslator';
import { DayChart } from '../../components/DayChart';
import { FiguresToggle } from '../../components/FiguresTable';
import { ToggleGroup } from '../../components/ToggleGroup';
import { UsageTable } from './UsageTable';

interface Props {
  usage: GetUsageResponse;
  /** A content type's display name by uid (from the settings), where known. */
  displayNames: Record<string, string>;
  /** The period's controls (30 or 90 days), drawn beside the stacking toggle. */
  periodControl: React.ReactNode;
}

/** Credits per day, stacked by content type or by locale, with its data table. */
export const ChartCard = ({ usage, displayNames, periodControl }: Props) => {
  const t = useTranslator();
  const { formatNumber, locale } = useIntl();
  const dir = textDirection(locale);
  const [by, setBy] = React.useState<StackBy>('contentType');

  const keys = React.useMemo(() => chartSeries(usage.days, by), [usage.days, by]);
  const stacks = React.useMemo(() => stackDays(usage.days, by, keys), [usage.days, by, keys]);
  const series = keys.map((key) => {
    const name = seriesName(key, by, displayNames);
    return { key, name: name.kind === 'name' ? name.text : t(name.id, name.defaultMessage) };
  });
  const totals = periodTotals(usage.days);

  return (
    <Card
      testId="speech-usage-days"
      title={t('usage.chart.title', 'Credits per day')}
      subtitle={t(
        'usage.chart.subtitle',
        '{credits} credits over these days. Refunds ({refunds}) are deducted; free re-deliveries ({redeliveries}) cost nothing.',
        {
          credits: formatNumber(totals.credits),
          refunds: formatNumber(totals.refunds),
          redeliveries: formatNumber(totals.redeliveries),
        }
      )}
    >
      <Flex gap={6} wrap="wrap">
        {periodControl}
        <ToggleGroup
          label={t('usage.by.label', 'Stacked by')}
          value={by}
          onChange={setBy}
          testId="speech-usage-by"
          options={[
            { value: 'contentType', label: t('usage.by.contentType', 'Content type') },
            { value: 'locale', label: t('usage.by.locale', 'Locale') },
          ]}
        />
      </Flex>
      {series.length ? (
        <Flex gap={4} wrap="wrap" tag="ul" aria-label={t('usage.legend', 'Legend')} data-testid="speech-usage-legend">
          {series.map((item, index) => (
            <Flex key={item.key} gap={2} alignItems="center" tag="li">
              <Box width="1.2rem" height="1.2rem" hasRadius style={{ background: seriesColour(item.key, index) }} aria-hidden />
              <Typography variant="pi">{item.name}</Typography>
            </Flex>
          ))}
        </Flex>
      ) : (
        <Typography textColor="neutral600">{t('usage.chart.empty', 'No credits were spent over these days.')}</Typography>
      )}
      <DayChart
        stacks={stacks}
        series={series}
        dir={dir}
        testIdPrefix="speech-usage"
        title={t('usage.chart.title', 'Credits per day')}
        describe={({ days, total, peak }) =>
          t('usage.chart.description', '{days} days, {credits} credits in all; the most on {peak}. The table below gives every day.', {
            days,
            credits: total,
            peak,
          })
        }
        formatValue={(value) => t('usage.credits', '{credits} credits', { credits: formatNumber(value) })}
      />
      <FiguresToggle testId="speech-usage-table-toggle">
        <UsageTable days={usage.days} by={by} series={series} month={usage.month} />
      </FiguresToggle>
    </Card>
  );
};
