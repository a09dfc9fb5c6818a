import { Table, Tbody, Td, Th, Thead, Tr, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { UsageDay } from '../../api/types';
import { coversMonth, dayBreakdown, monthSum, type StackBy } from '../../utils/usageChart';
import { formatDay } from '../../utils/usageFormat';
import { useTranslator } from '../../utils/useTranslator';

interface Props {
  days: UsageDay[];
  by: StackBy;
  series: Array<{ key: string; name: string }>;
  /** YYYY-MM: the month whose days the last row adds up. */
  month: string;
}

/**
 * Every figure of the chart as a table: the chart's accessible equivalent (in a FiguresToggle:
 * always in the page, visually hidden until asked for), newest day first. Its last row adds up the month's days, the
 * month to date as the chart shows it.
 */
export const UsageTable = ({ days, by, series, month }: Props) => {
  const t = useTranslator();
  const { formatNumber, locale } = useIntl();
  const rows = [...days].reverse();
  return (
    <Table colCount={series.length + 4} rowCount={rows.length + 2} data-testid="speech-usage-table">
      <Thead>
        <Tr>
          <Th>
            <Typography variant="sigma">{t('usage.table.day', 'Day')}</Typography>
          </Th>
          {series.map((item) => (
            <Th key={item.key}>
              <Typography variant="sigma">{item.name}</Typography>
            </Th>
          ))}
          <Th>
            <Typography variant="sigma">{t('usage.table.total', 'Credits')}</Typography>
          </Th>
          <Th>
            <Typography variant="sigma">{t('usage.table.refunds', 'Refunds')}</Typography>
          </Th>
          <Th>
            <Typography variant="sigma">{t('usage.table.redeliveries', 'Free re-deliveries')}</Typography>
          </Th>
        </Tr>
      </Thead>
      <Tbody>
        {rows.map((day) => {
          const values = dayBreakdown(
            day,
            by,
            series.map((item) => item.key)
          );
          return (
            <Tr key={day.day}>
              <Td>
                <Typography>{formatDay(day.day, locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' })}</Typography>
              </Td>
              {series.map((item) => (
                <Td key={item.key}>
                  <Typography>{formatNumber(values[item.key] ?? 0)}</Typography>
                </Td>
              ))}
              <Td>
                <Typography fontWeight="bold">{formatNumber(day.credits)}</Typography>
              </Td>
              <Td>
                <Typography>
                  {t('usage.table.refundCell', '{refunds} ({credits} credits)', {
                    refunds: formatNumber(day.refunds),
                    credits: formatNumber(day.refundedCredits),
                  })}
                </Typography>
              </Td>
              <Td>
                <Typography>{formatNumber(day.redeliveries)}</Typography>
              </Td>
            </Tr>
          );
        })}
        <Tr>
          <Td colSpan={series.length + 1}>
            <Typography fontWeight="bold">
              {coversMonth(days, month)
                ? t('usage.table.monthSum', 'This month, day by day')
                : t('usage.table.monthSumPartial', 'This month’s days in the period (the first ones are before it)')}
            </Typography>
          </Td>
          <Td colSpan={3}>
            <Typography fontWeight="bold" data-testid="speech-usage-month-sum">
              {formatNumber(monthSum(days, month))}
            </Typography>
          </Td>
        </Tr>
      </Tbody>
    </Table>
  );
};
