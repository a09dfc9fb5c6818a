import * as React from 'react';
import { Button, Flex, SingleSelect, SingleSelectOption } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { useGetSpeechQueueEntriesQuery } from '../../api/speechApi';
import type { QueueFilter, QueueSelection, QueueSummaryResponse } from '../../api/types';
import { Card } from '../../components/Card';
import { FAILURE_REASON_DEFAULTS } from '../../components/FailureReason';
import { getTranslation } from '../../utils/getTranslation';
import { useTranslator } from '../../utils/useTranslator';
import { EntriesTable } from './EntriesTable';
import { Pager, POLL_MS, useSelection } from './lists';
import { RetryDialog } from './RetryDialog';

const ANY = '*';

interface Props {
  summary: QueueSummaryResponse;
  typeName: (uid: string) => string;
  canNarrate: boolean;
}

/** The failures, filtered by type, locale and reason, with "retry the selected" and "retry all". */
export const FailuresCard = ({ summary, typeName, canNarrate }: Props) => {
  const t = useTranslator();
  const { formatMessage } = useIntl();
  const [filter, setFilter] = React.useState<QueueFilter>({});
  const [page, setPage] = React.useState(1);
  const [retrying, setRetrying] = React.useState<QueueSelection | null>(null);
  const entries = useGetSpeechQueueEntriesQuery({ list: 'failed', ...filter, page: String(page) }, { pollingInterval: POLL_MS });
  const { selected, toggle, clear } = useSelection(entries.data?.data);
  const types = [...new Set(summary.groups.map((group) => group.contentType))];
  const locales = [...new Set(summary.groups.flatMap((group) => (group.locale ? [group.locale] : [])))];
  const reasonName = (code: string | null) =>
    code && FAILURE_REASON_DEFAULTS[code]
      ? formatMessage({ id: getTranslation(`error.${code}`), defaultMessage: FAILURE_REASON_DEFAULTS[code] })
      : (code ?? t('queue.noReason', 'No reason given'));
  const choose = (key: keyof QueueFilter) => (value: string | number) => {
    setFilter((current) => ({ ...current, [key]: String(value) === ANY ? undefined : String(value) }));
    setPage(1);
    clear();
  };
  const select = (key: keyof QueueFilter, label: string, options: Array<[string, string]>) => (
    <SingleSelect size="S" aria-label={label} value={filter[key] ?? ANY} onChange={choose(key)} data-testid={`speech-queue-filter-${key}`}>
      <SingleSelectOption value={ANY}>{label}</SingleSelectOption>
      {options.map(([value, name]) => (
        <SingleSelectOption key={value} value={value}>
          {name}
        </SingleSelectOption>
      ))}
    </SingleSelect>
  );
  const rows = entries.data?.data ?? [];
  return (
    <Card
      testId="speech-queue-failures"
      title={t('queue.failures.title', 'Failed narrations')}
      subtitle={t('queue.failures.subtitle', 'Why each one failed, newest first. A retry sends the published version again.')}
      action={
        canNarrate ? (
          <Flex gap={2}>
            <Button
              variant="secondary"
              disabled={selected.size === 0}
              onClick={() => setRetrying({ articleIds: [...selected] })}
              data-testid="speech-queue-retry-selected"
            >
              {t('queue.retrySelected', 'Retry selected ({count})', { count: selected.size })}
            </Button>
            <Button
              variant="default"
              disabled={summary.counts.failed === 0}
              onClick={() => setRetrying({ all: true, filter })}
              data-testid="speech-queue-retry-all"
            >
              {t('queue.retryAll', 'Retry all failed')}
            </Button>
          </Flex>
        ) : null
      }
    >
      <Flex gap={2} wrap="wrap">
        {select(
          'contentType',
          t('queue.filter.type', 'Every type'),
          types.map((uid) => [uid, typeName(uid)])
        )}
        {select(
          'locale',
          t('queue.filter.locale', 'Every locale'),
          locales.map((code) => [code, code])
        )}
        {select(
          'reason',
          t('queue.filter.reason', 'Every reason'),
          summary.failureReasons.map((reason) => [reason.code ?? 'none', `${reasonName(reason.code)} (${reason.count})`])
        )}
      </Flex>
      <EntriesTable
        testId="speech-queue-failed"
        kind="failed"
        entries={rows}
        typeName={typeName}
        selected={selected}
        selectable={canNarrate ? () => true : null}
        onSelect={toggle}
        empty={t('queue.failures.empty', 'No failed narration.')}
      />
      <Pager pagination={entries.data?.pagination} onPage={setPage} />
      {retrying ? (
        <RetryDialog
          selection={retrying}
          onClose={(retried) => {
            setRetrying(null);
            if (retried) clear();
          }}
        />
      ) : null}
    </Card>
  );
};
