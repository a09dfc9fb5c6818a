import * as React from 'react';
import { Button, Flex } from '@strapi/design-system';
import { Download } from '@strapi/icons';
import { Layouts, Page, useFetchClient, useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { USAGE_PERIODS, type UsagePeriod } from '../../api/endpoints';
import { problemOf, toProblem } from '../../api/errors';
import { downloadLedgerCsv } from '../../api/ledger';
import { useGetSpeechSettingsQuery, useGetSpeechUsageQuery } from '../../api/speechApi';
import { saveBlob } from '../../api/transcriptions';
import { PERMISSIONS } from '../../utils/permissions';
import { textDirection } from '../../utils/textDirection';
import { useTranslator } from '../../utils/useTranslator';
import { ChartCard } from './ChartCard';
import { MonthCard } from './MonthCard';
import { ToggleGroup } from '../../components/ToggleGroup';
import { TopArticles } from './TopArticles';

/** Settings -> Speech usage: credits by day, the month against the budget, the ledger as CSV (issue 24). */
const UsagePage = () => {
  const t = useTranslator();
  const { formatNumber, locale } = useIntl();
  const { toggleNotification } = useNotification();
  const client = useFetchClient();
  const [days, setDays] = React.useState<UsagePeriod>(30);
  const [exporting, setExporting] = React.useState(false);
  const usageQuery = useGetSpeechUsageQuery(days, { refetchOnMountOrArgChange: true });
  // Only for the content types' display names; the chart falls back to the uid without them.
  const settingsQuery = useGetSpeechSettingsQuery();
  const displayNames = React.useMemo(
    () => Object.fromEntries((settingsQuery.data?.contentTypes ?? []).map((type) => [type.uid, type.displayName])),
    [settingsQuery.data]
  );
  const usage = usageQuery.currentData ?? usageQuery.data;
  const error = problemOf(usageQuery.error);
  const title = t('usage.title', 'Speech usage');

  const exportLedger = async () => {
    setExporting(true);
    try {
      const today = usage?.days.at(-1)?.day ?? new Date().toISOString().slice(0, 10);
      const { blob, fileName } = await downloadLedgerCsv(client, today);
      saveBlob(blob, fileName);
    } catch (caught) {
      toggleNotification({ type: 'danger', message: toProblem(caught).message });
    } finally {
      setExporting(false);
    }
  };

  if (usageQuery.isLoading) return <Page.Loading />;
  if (!usage) {
    return (
      <Page.Main>
        <Page.Title>{title}</Page.Title>
        <Layouts.Header title={title} />
        <Layouts.Content>
          <Page.Error
            content={error?.message}
            action={<Button onClick={() => void usageQuery.refetch()}>{t('common.retry', 'Try again')}</Button>}
          />
        </Layouts.Content>
      </Page.Main>
    );
  }

  const periodControl = (
    <ToggleGroup
      label={t('usage.period.label', 'Period')}
      value={days}
      onChange={setDays}
      testId="speech-usage-period"
      options={USAGE_PERIODS.map((period) => ({
        value: period,
        label: t('usage.period.days', '{days} days', { days: formatNumber(period) }),
      }))}
    />
  );

  return (
    <Page.Main>
      <Page.Title>{title}</Page.Title>
      <Layouts.Header
        title={title}
        subtitle={t('usage.subtitle', 'Credits the site spent on narrations, previews and transcriptions, as its ledger counts them.')}
        primaryAction={
          <Button
            startIcon={<Download />}
            variant="secondary"
            loading={exporting}
            onClick={() => void exportLedger()}
            data-testid="speech-usage-export"
          >
            {t('usage.export', 'Export the ledger (CSV)')}
          </Button>
        }
      />
      <Layouts.Content>
        {/* The plugin's own content reads in the admin's direction; Strapi's frame stays as it is. */}
        <Flex direction="column" alignItems="stretch" gap={6} dir={textDirection(locale)} data-testid="speech-usage">
          <MonthCard usage={usage} />
          <ChartCard usage={usage} displayNames={displayNames} periodControl={periodControl} />
          <TopArticles articles={usage.topArticles} typeName={(uid) => displayNames[uid] ?? uid} />
        </Flex>
      </Layouts.Content>
    </Page.Main>
  );
};

const ProtectedUsagePage = () => (
  <Page.Protect permissions={PERMISSIONS.readSettings}>
    <UsagePage />
  </Page.Protect>
);

export default ProtectedUsagePage;
