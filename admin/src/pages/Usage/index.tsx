import * as React from 'react';
import { Page } from '@strapi/strapi/admin';
import { USAGE_PERIODS, type UsagePeriod } from '../../api/endpoints';
import { problemOf } from '../../api/errors';
import { downloadLedgerCsv } from '../../api/ledger';
import { useGetSpeechSettingsQuery, useGetSpeechUsageQuery } from '../../api/speechApi';
import { ReportPage } from '../../components/ReportPage';
import { PeriodToggle } from '../../components/ToggleGroup';
import { PERMISSIONS } from '../../utils/permissions';
import { useTranslator } from '../../utils/useTranslator';
import { ChartCard } from './ChartCard';
import { MonthCard } from './MonthCard';
import { TopArticles } from './TopArticles';

/** Settings -> Speech usage: credits by day, the month against the budget, the ledger as CSV. */
const UsagePage = () => {
  const t = useTranslator();
  const [days, setDays] = React.useState<UsagePeriod>(30);
  const usageQuery = useGetSpeechUsageQuery(days, { refetchOnMountOrArgChange: true });
  // Only for the content types' display names; the chart falls back to the uid without them.
  const settingsQuery = useGetSpeechSettingsQuery();
  const displayNames = React.useMemo(
    () => Object.fromEntries((settingsQuery.data?.contentTypes ?? []).map((type) => [type.uid, type.displayName])),
    [settingsQuery.data]
  );
  const usage = usageQuery.currentData ?? usageQuery.data;

  const periodControl = <PeriodToggle periods={USAGE_PERIODS} value={days} onChange={setDays} testId="speech-usage-period" />;

  return (
    <ReportPage
      title={t('usage.title', 'Speech usage')}
      subtitle={t('usage.subtitle', 'Credits the site spent on narrations, previews and transcriptions, as its ledger counts them.')}
      loading={usageQuery.isLoading}
      failed={usage ? null : { message: problemOf(usageQuery.error)?.message, retry: () => void usageQuery.refetch() }}
      exportCsv={{
        label: t('usage.export', 'Export the ledger (CSV)'),
        testId: 'speech-usage-export',
        download: (client) => downloadLedgerCsv(client, usage?.days.at(-1)?.day ?? new Date().toISOString().slice(0, 10)),
      }}
      testId="speech-usage"
    >
      {usage ? (
        <>
          <MonthCard usage={usage} />
          <ChartCard usage={usage} displayNames={displayNames} periodControl={periodControl} />
          <TopArticles articles={usage.topArticles} typeName={(uid) => displayNames[uid] ?? uid} />
        </>
      ) : null}
    </ReportPage>
  );
};

const ProtectedUsagePage = () => (
  <Page.Protect permissions={PERMISSIONS.readSettings}>
    <UsagePage />
  </Page.Protect>
);

export default ProtectedUsagePage;
