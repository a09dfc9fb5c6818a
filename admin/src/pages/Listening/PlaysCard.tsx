import * as React from 'react';
import { Button, Flex, Typography, VisuallyHidden } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { ListeningDay } from '../../api/types';
import { Card } from '../../components/Card';
import { DayChart } from '../../components/DayChart';
import { FiguresTable } from '../../components/FiguresTable';
import { playsPerDay } from '../../utils/insights';
import { singleSeriesStacks } from '../../utils/usageChart';
import { formatDay } from '../../utils/usageFormat';
import { textDirection } from '../../utils/textDirection';
import { useTranslator } from '../../utils/useTranslator';
import { useListeningFormat } from './useListeningFormat';

const PLAYS = 'plays';

/** Plays per day (the usage page's chart, one series), and every day's figures as a table beside it. */
export const PlaysCard = ({ days }: { days: ListeningDay[] }) => {
  const t = useTranslator();
  const { locale } = useIntl();
  const { row } = useListeningFormat();
  const [tableShown, setTableShown] = React.useState(false);
  const stacks = React.useMemo(() => singleSeriesStacks(playsPerDay(days), PLAYS), [days]);
  const series = [{ key: PLAYS, name: t('listening.plays', 'Plays') }];

  const table = (
    <FiguresTable
      testId="speech-listening-table"
      columns={[
        t('usage.table.day', 'Day'),
        t('listening.plays', 'Plays'),
        t('listening.listeners', 'Listeners'),
        t('listening.finished', 'Finished'),
        t('listening.heard', 'Time heard'),
        t('listening.downloadsShort', 'Feed downloads'),
      ]}
      bold={1}
      rows={[...days].reverse().map((day) => {
        const figures = row(day);
        return {
          key: day.day,
          cells: [
            <Typography key="day">{formatDay(day.day, locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' })}</Typography>,
            figures.plays,
            figures.listeners,
            figures.finished,
            figures.heard,
            figures.downloads,
          ],
        };
      })}
    />
  );

  return (
    <Card testId="speech-listening-days" title={t('listening.chart.title', 'Plays per day')}>
      <DayChart
        stacks={stacks}
        series={series}
        dir={textDirection(locale)}
        testIdPrefix="speech-listening"
        title={t('listening.chart.title', 'Plays per day')}
        describe={({ days: count, total, peak }) =>
          t('listening.chart.description', '{days} days, {plays} plays in all; the most on {peak}. The table below gives every day.', {
            days: count,
            plays: total,
            peak,
          })
        }
        formatValue={(value) => t('listening.playsCount', '{count, plural, one {# play} other {# plays}}', { count: value })}
      />
      <Flex>
        <Button
          variant="tertiary"
          size="S"
          aria-expanded={tableShown}
          onClick={() => setTableShown(!tableShown)}
          data-testid="speech-listening-table-toggle"
        >
          {tableShown ? t('usage.table.hide', 'Hide the figures') : t('usage.table.show', 'Show the figures as a table')}
        </Button>
      </Flex>
      {tableShown ? table : <VisuallyHidden>{table}</VisuallyHidden>}
    </Card>
  );
};
