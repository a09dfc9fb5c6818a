import * as React from 'react';
import { Button } from '@strapi/design-system';
import { useNotification } from '@strapi/strapi/admin';
import { toProblem } from '../../api/errors';
import { useGetSpeechQueueEntriesQuery, useSpeechCancelQueuedMutation } from '../../api/speechApi';
import type { QueueEntry } from '../../api/types';
import { Card } from '../../components/Card';
import { useTranslator } from '../../utils/useTranslator';
import { EntriesTable } from './EntriesTable';
import { Pager, POLL_MS, useSelection } from './lists';

interface Props {
  typeName: (uid: string) => string;
  canNarrate: boolean;
  /** The narrations listed now: the page says when one turns ready or failed. */
  onListed: (entries: QueueEntry[]) => void;
}

const cancellable = (entry: QueueEntry) => entry.status === 'queued';

/** What is in the queue now, the article waiting longest first; queued ones may be cancelled. */
export const WaitingCard = ({ typeName, canNarrate, onListed }: Props) => {
  const t = useTranslator();
  const { toggleNotification } = useNotification();
  const [page, setPage] = React.useState(1);
  const entries = useGetSpeechQueueEntriesQuery({ list: 'waiting', page: String(page) }, { pollingInterval: POLL_MS });
  const rows = React.useMemo(() => entries.data?.data ?? [], [entries.data]);
  const { selected, toggle, clear } = useSelection(rows);
  const [cancel, cancelling] = useSpeechCancelQueuedMutation();
  React.useEffect(() => onListed(rows), [rows, onListed]);

  const cancelSelected = async () => {
    try {
      const result = await cancel({ articleIds: [...selected] }).unwrap();
      toggleNotification({
        type: 'success',
        message: t('queue.cancelled', '{count, plural, one {# narration} other {# narrations}} cancelled.', { count: result.cancelled }),
      });
      clear();
    } catch (caught) {
      toggleNotification({ type: 'danger', message: toProblem(caught).message });
    }
  };

  return (
    <Card
      testId="speech-queue-waiting"
      title={t('queue.waiting.title', 'In the queue')}
      subtitle={t('queue.waiting.subtitle', 'Queued, sent and being stored; the one waiting longest first.')}
      action={
        canNarrate ? (
          <Button
            variant="danger-light"
            disabled={selected.size === 0}
            loading={cancelling.isLoading}
            onClick={() => void cancelSelected()}
            data-testid="speech-queue-cancel-selected"
          >
            {t('queue.cancelSelected', 'Cancel selected ({count})', { count: selected.size })}
          </Button>
        ) : null
      }
    >
      <EntriesTable
        testId="speech-queue-waiting-list"
        kind="waiting"
        entries={rows}
        typeName={typeName}
        selected={selected}
        selectable={canNarrate ? cancellable : null}
        onSelect={toggle}
        empty={t('queue.waiting.empty', 'Nothing is in the queue.')}
      />
      <Pager pagination={entries.data?.pagination} onPage={setPage} />
    </Card>
  );
};
