import * as React from 'react';
import { useIntl } from 'react-intl';
import { heardTime, PERCENT, rowFigures } from '../../utils/insights';
import type { ListeningTotals } from '../../api/types';
import { useTranslator } from '../../utils/useTranslator';

/** The listening figures in the admin's language: shares as percents, time heard in hours and minutes. */
export function useListeningFormat() {
  const t = useTranslator();
  const { formatNumber } = useIntl();
  return React.useMemo(() => {
    const percent = (share: number | null) => (share === null ? '-' : formatNumber(share, PERCENT));
    const heard = (seconds: number) => {
      const time = heardTime(seconds);
      if (time.unit === 'hours')
        return t('listening.heard.hours', '{hours} h {minutes} min', {
          hours: formatNumber(time.hours),
          minutes: formatNumber(time.minutes),
        });
      if (time.unit === 'minutes') return t('listening.heard.minutes', '{minutes} min', { minutes: formatNumber(time.minutes) });
      return t('listening.heard.seconds', '{seconds} s', { seconds: formatNumber(time.seconds) });
    };
    /** The figures' columns of every listening table, after its first (the day, the article, the locale). */
    const columns = [
      t('listening.plays', 'Plays'),
      t('listening.listeners', 'Listeners'),
      t('listening.finished', 'Finished'),
      t('listening.heard', 'Time heard'),
      t('listening.downloadsShort', 'Feed downloads'),
    ];
    /** A row's figures, in the columns' order. */
    const cells = (totals: ListeningTotals) => {
      const figures = rowFigures(totals);
      return [
        formatNumber(figures.plays),
        formatNumber(figures.listeners),
        percent(figures.completion),
        heard(figures.secondsHeard),
        formatNumber(figures.downloads),
      ];
    };
    return { percent, heard, columns, cells, formatNumber };
  }, [t, formatNumber]);
}
