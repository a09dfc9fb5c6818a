import * as React from 'react';
import { Button, Flex } from '@strapi/design-system';
import { Layouts, Page, useNotification, useRBAC } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { problemOf, toProblem } from '../../api/errors';
import { useGetSpeechQueueQuery, useGetSpeechSettingsQuery, useResumeSpeechQueueMutation } from '../../api/speechApi';
import type { QueueEntry, QueueSummaryResponse } from '../../api/types';
import { WarningNotice } from '../../components/WarningNotice';
import { PERMISSIONS } from '../../utils/permissions';
import { textDirection } from '../../utils/textDirection';
import { useTranslator } from '../../utils/useTranslator';
import { BackfillCard } from './BackfillCard';
import { CountsCard } from './CountsCard';
import { FailuresCard } from './FailuresCard';
import { POLL_MS } from './lists';
import { WaitingCard } from './WaitingCard';

const SETTLED = new Set(['completed', 'failed', 'cancelled']);

/** The narrations the page listed as waiting, followed until each turns ready or failed, then said once. */
function useSettledNotices() {
  const t = useTranslator();
  const { toggleNotification } = useNotification();
  const [watch, setWatch] = React.useState<string[]>([]);
  const said = React.useRef(new Set<string>());
  const onListed = React.useCallback((entries: QueueEntry[]) => {
    setWatch((current) => {
      const next = [...new Set([...current, ...entries.map((entry) => entry.articleId)])].slice(-100);
      return next.length === current.length && next.every((id, index) => id === current[index]) ? current : next;
    });
  }, []);
  const heard = React.useCallback(
    (watched: QueueSummaryResponse['watched']) => {
      const settled = watched.filter((entry) => SETTLED.has(entry.status) && !said.current.has(entry.articleId));
      for (const entry of settled) {
        said.current.add(entry.articleId);
        if (entry.status === 'cancelled') continue;
        const title = entry.title ?? entry.articleId;
        toggleNotification(
          entry.status === 'completed'
            ? { type: 'success', message: t('queue.turnedReady', '“{title}” is narrated.', { title }) }
            : { type: 'danger', message: t('queue.turnedFailed', '“{title}” failed.', { title }) }
        );
      }
      if (settled.length > 0) setWatch((current) => current.filter((id) => !settled.some((entry) => entry.articleId === id)));
    },
    [t, toggleNotification]
  );
  return { watch, onListed, heard };
}

/** Settings -> Speech queue: the whole queue, refreshed while open; acting on it needs the narrate permission. */
const QueuePage = () => {
  const t = useTranslator();
  const { locale } = useIntl();
  const { toggleNotification } = useNotification();
  const {
    allowedActions: { canNarrate },
  } = useRBAC(PERMISSIONS.narrate);
  const { watch, onListed, heard } = useSettledNotices();
  const summaryQuery = useGetSpeechQueueQuery({ watch }, { pollingInterval: POLL_MS });
  const summary = summaryQuery.data;
  React.useEffect(() => {
    if (summary) heard(summary.watched);
  }, [summary, heard]);
  const settingsQuery = useGetSpeechSettingsQuery();
  const displayNames = React.useMemo(
    () => Object.fromEntries((settingsQuery.data?.contentTypes ?? []).map((type) => [type.uid, type.displayName])),
    [settingsQuery.data]
  );
  const typeName = React.useCallback((uid: string) => displayNames[uid] ?? uid, [displayNames]);
  const [resume, resuming] = useResumeSpeechQueueMutation();
  const title = t('queue.title', 'Speech queue');

  if (summaryQuery.isLoading) return <Page.Loading />;
  return (
    <Page.Main>
      <Page.Title>{title}</Page.Title>
      <Layouts.Header
        title={title}
        subtitle={t('queue.subtitle', 'Every narration on its way or failed, as you may read them. Refreshed every few seconds.')}
      />
      <Layouts.Content>
        {!summary ? (
          <Page.Error
            content={problemOf(summaryQuery.error)?.message}
            action={<Button onClick={() => void summaryQuery.refetch()}>{t('common.retry', 'Try again')}</Button>}
          />
        ) : (
          <Flex direction="column" alignItems="stretch" gap={6} dir={textDirection(locale)} data-testid="speech-queue">
            {summary.queue.paused ? (
              <WarningNotice
                testId="speech-queue-paused"
                detail={
                  canNarrate ? (
                    <Button
                      variant="secondary"
                      size="S"
                      loading={resuming.isLoading}
                      data-testid="speech-queue-resume"
                      onClick={() =>
                        void resume()
                          .unwrap()
                          .then(() => summaryQuery.refetch())
                          .catch((caught: unknown) => toggleNotification({ type: 'danger', message: toProblem(caught).message }))
                      }
                    >
                      {t('queue.resume', 'Resume the queue')}
                    </Button>
                  ) : null
                }
              >
                {t('queue.pausedNotice', 'The queue is paused: {reason}', {
                  reason: summary.queue.pauseReason ?? summary.queue.pauseCode ?? '',
                })}
              </WarningNotice>
            ) : null}
            <CountsCard summary={summary} typeName={typeName} />
            <WaitingCard typeName={typeName} canNarrate={canNarrate} onListed={onListed} />
            <FailuresCard summary={summary} typeName={typeName} canNarrate={canNarrate} />
            <BackfillCard settings={settingsQuery.data} typeName={typeName} canNarrate={canNarrate} />
          </Flex>
        )}
      </Layouts.Content>
    </Page.Main>
  );
};

const ProtectedQueuePage = () => (
  <Page.Protect permissions={PERMISSIONS.readSettings}>
    <QueuePage />
  </Page.Protect>
);

export default ProtectedQueuePage;
