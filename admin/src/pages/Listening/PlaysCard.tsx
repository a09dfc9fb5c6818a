import * as React from 'react';
import { Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { ListeningDay } from '../../api/types';
import { Card } from '../../components/Card';
import { DayChart } from '../../components/DayChart';
import { FiguresTable, FiguresToggle } from '../../components/FiguresTable';
import { playsPerDay } from '../../utils/insights';
import { singleSeriesStacks } from '../../utils/usageChart';
import { formatDay } from '../../utils/usageFormat';
import { textDirection } from '../../utils/textDirection';
import { useTranslator } from '../../utils/useTranslator';
import { useListeningFormat } from './useListeningFormat';

const PLAYS = 'plays';

/** Plays per day (the usage page's chart, one series), and every day's figures as a table beside it, newest first. */
export const PlaysCard = ({ days }: { days: ListeningDay[] }) => {
  const t = useTranslator();
  const { locale } = useIntl();
  const { columns, cells } = useListeningFormat();
  const stacks = React.useMemo(() => singleSeriesStacks(playsPerDay(days), PLAYS), [days]);
  const title = t('listening.chart.title', 'Plays per day');
  return (
    <Card testId="speech-listening-days" title={title}>
      {stacks.every((stack) => stack.value === 0) ? (
        <Typography textColor="neutral600">{t('listening.chart.empty', 'No narration was played over these days.')}</Typography>
      ) : null}
      <DayChart
        stacks={stacks}
        series={[{ key: PLAYS, name: t('listening.plays', 'Plays') }]}
        dir={textDirection(locale)}
        testIdPrefix="speech-listening"
        title={title}
        describe={({ days: count, total, peak }) =>
          t('listening.chart.description', '{days} days, {plays} plays in all; the most on {peak}. The table below gives every day.', {
            days: count,
            plays: total,
            peak,
          })
        }
        formatValue={(value) => t('listening.playsCount', '{count, plural, one {# play} other {# plays}}', { count: value })}
      />
      <FiguresToggle testId="speech-listening-table-toggle">
        <FiguresTable
          testId="speech-listening-table"
          columns={[t('usage.table.day', 'Day'), ...columns]}
          bold={1}
          rows={[...days].reverse().map((day) => ({
            key: day.day,
            cells: [formatDay(day.day, locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }), ...cells(day)],
          }))}
        />
      </FiguresToggle>
    </Card>
  );
};
