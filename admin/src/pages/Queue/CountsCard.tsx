import { Box, Flex, Grid, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { QUEUE_PAGE_STATUSES, type QueuePageStatus, type QueueSummaryResponse } from '../../api/types';
import { ArticleLink, FiguresTable } from '../../components/FiguresTable';
import { Card } from '../../components/Card';
import { useTranslator } from '../../utils/useTranslator';

export const STATUS_LABELS: Record<QueuePageStatus, [string, string]> = {
  queued: ['queue.status.queued', 'Queued'],
  submitting: ['queue.status.submitting', 'Submitting'],
  awaitingService: ['queue.status.awaitingService', 'Awaiting the service'],
  storing: ['queue.status.storing', 'Storing'],
  failed: ['queue.status.failed', 'Failed'],
  heldByBudget: ['queue.status.heldByBudget', 'Held by the budget'],
  paused: ['queue.status.paused', 'Paused'],
};

/** The queue at a glance: a figure per status, the generations in flight, the longest wait, and the figures by type and locale. */
export const CountsCard = ({ summary, typeName }: { summary: QueueSummaryResponse; typeName: (uid: string) => string }) => {
  const t = useTranslator();
  const { formatNumber, formatDate } = useIntl();
  const oldest = summary.oldestWaiting;
  return (
    <Card
      testId="speech-queue-counts"
      title={t('queue.counts.title', 'The queue now')}
      subtitle={
        summary.partial
          ? t('queue.counts.partial', 'Your role sees documents one by one: these figures count the first 5,000 narrations only.')
          : t('queue.counts.subtitle', 'Narrations of every type and locale you may read, by where they are.')
      }
    >
      <Grid.Root gap={4}>
        {QUEUE_PAGE_STATUSES.map((status) => (
          <Grid.Item key={status} col={3} s={6} xs={12}>
            <Box background="neutral100" padding={4} hasRadius width="100%" data-testid={`speech-queue-count-${status}`}>
              <Typography variant="pi" textColor="neutral600" tag="p">
                {t(...STATUS_LABELS[status])}
              </Typography>
              <Typography variant="beta" tag="p" data-testid="speech-queue-count">
                {formatNumber(summary.counts[status])}
              </Typography>
            </Box>
          </Grid.Item>
        ))}
        <Grid.Item col={3} s={6} xs={12}>
          <Box background="neutral100" padding={4} hasRadius width="100%" data-testid="speech-queue-in-flight">
            <Typography variant="pi" textColor="neutral600" tag="p">
              {t('queue.inFlight', 'Generations in flight')}
            </Typography>
            <Typography variant="beta" tag="p">
              {t('queue.inFlightValue', '{count} of {cap}', {
                count: formatNumber(summary.inFlight.count),
                cap: formatNumber(summary.inFlight.cap),
              })}
            </Typography>
          </Box>
        </Grid.Item>
      </Grid.Root>
      <Flex gap={2} wrap="wrap" data-testid="speech-queue-oldest">
        {oldest ? (
          <>
            <Typography fontWeight="bold">{t('queue.oldest', 'Waiting longest:')}</Typography>
            <ArticleLink article={oldest} />
            {oldest.since ? (
              <Typography textColor="neutral600">
                {t('queue.oldestSince', 'since {time}', { time: formatDate(oldest.since, { dateStyle: 'medium', timeStyle: 'short' }) })}
              </Typography>
            ) : null}
          </>
        ) : (
          <Typography textColor="neutral600">{t('queue.oldestNone', 'Nothing is waiting for its turn.')}</Typography>
        )}
      </Flex>
      {summary.groups.length > 0 ? (
        <FiguresTable
          testId="speech-queue-groups"
          columns={[
            t('queue.column.type', 'Content type'),
            t('queue.column.locale', 'Locale'),
            ...QUEUE_PAGE_STATUSES.map((status) => t(...STATUS_LABELS[status])),
          ]}
          rows={summary.groups.map((group) => ({
            key: `${group.contentType}|${group.locale ?? ''}`,
            cells: [
              typeName(group.contentType),
              group.locale ?? '—',
              ...QUEUE_PAGE_STATUSES.map((status) => formatNumber(group.counts[status])),
            ],
          }))}
        />
      ) : null}
    </Card>
  );
};
