import * as React from 'react';
import { INSIGHTS_PERIODS, type InsightsPeriod } from '../../api/endpoints';
import { problemOf } from '../../api/errors';
import { downloadListeningCsv } from '../../api/ledger';
import { useGetSpeechInsightsQuery } from '../../api/speechApi';
import { ReportPage } from '../../components/ReportPage';
import { PeriodToggle } from '../../components/ToggleGroup';
import { useTranslator } from '../../utils/useTranslator';
import { LocaleTable, TopListened } from './ListenedTables';
import { PlaysCard } from './PlaysCard';
import { TotalsCard } from './TotalsCard';

/**
 * Settings -> Speech listening: plays per day, the period's totals, the most listened
 * articles, the locales, and the figures as CSV. Open to every admin: the server counts only the
 * articles the admin may read in the Content Manager.
 */
const ListeningPage = () => {
  const t = useTranslator();
  const [days, setDays] = React.useState<InsightsPeriod>(30);
  const query = useGetSpeechInsightsQuery(days, { refetchOnMountOrArgChange: true });
  const insights = query.currentData ?? query.data;

  const periodControl = <PeriodToggle periods={INSIGHTS_PERIODS} value={days} onChange={setDays} testId="speech-listening-period" />;

  return (
    <ReportPage
      title={t('listening.title', 'Speech listening')}
      subtitle={t('listening.subtitle', 'How visitors listen to the narrations, counted for the articles you may read.')}
      loading={query.isLoading}
      failed={insights ? null : { message: problemOf(query.error)?.message, retry: () => void query.refetch() }}
      exportCsv={{
        label: t('listening.export', 'Export the listening (CSV)'),
        testId: 'speech-listening-export',
        download: (client) => downloadListeningCsv(client, days, insights?.to ?? new Date().toISOString().slice(0, 10)),
      }}
      testId="speech-listening"
    >
      {insights ? (
        <>
          <TotalsCard insights={insights} periodControl={periodControl} />
          <PlaysCard days={insights.days} />
          <TopListened articles={insights.topArticles} />
          <LocaleTable locales={insights.byLocale} />
        </>
      ) : null}
    </ReportPage>
  );
};

export default ListeningPage;
