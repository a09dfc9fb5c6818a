import * as React from 'react';
import { Button, Flex, Status, Table, Tbody, Td, Tr, Typography } from '@strapi/design-system';
import { useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { toProblem } from '../../api/errors';
import { useActOnSpeechBackfillMutation, useGetSpeechBackfillsQuery } from '../../api/speechApi';
import type { BackfillAction, BackfillResponse, BackfillStatus, GetSettingsResponse } from '../../api/types';
import { Card } from '../../components/Card';
import { HeaderRow } from '../../components/FiguresTable';
import { useTranslator } from '../../utils/useTranslator';
import { BackfillDialog } from './BackfillDialog';
import { POLL_MS } from './lists';

const STATUS_VARIANT: Record<BackfillStatus, 'primary' | 'secondary' | 'warning' | 'success' | 'neutral'> = {
  running: 'primary',
  paused: 'secondary',
  held: 'warning',
  done: 'success',
  cancelled: 'neutral',
};
const STATUS_LABEL: Record<BackfillStatus, string> = {
  running: 'Running',
  paused: 'Paused',
  held: 'Held by the budget',
  done: 'Done',
  cancelled: 'Cancelled',
};
const ACTIONS: Record<BackfillStatus, BackfillAction[]> = {
  running: ['pause', 'cancel'],
  held: ['pause', 'cancel'],
  paused: ['resume', 'cancel'],
  done: [],
  cancelled: [],
};
const ACTION_LABEL: Record<BackfillAction, string> = { pause: 'Pause', resume: 'Resume', cancel: 'Cancel' };

interface Props {
  settings: GetSettingsResponse | undefined;
  typeName: (uid: string) => string;
  canNarrate: boolean;
}

/** The archive's backfills, newest first, with their progress; who may narrate starts, pauses and cancels them. */
export const BackfillCard = ({ settings, typeName, canNarrate }: Props) => {
  const t = useTranslator();
  const { formatNumber } = useIntl();
  const { toggleNotification } = useNotification();
  const backfills = useGetSpeechBackfillsQuery(undefined, { pollingInterval: POLL_MS });
  const [act] = useActOnSpeechBackfillMutation();
  const [starting, setStarting] = React.useState(false);
  const rows = backfills.data?.data ?? [];

  const run = (backfill: BackfillResponse, action: BackfillAction) =>
    void act({ id: backfill.id, action })
      .unwrap()
      .catch((caught: unknown) => toggleNotification({ type: 'danger', message: toProblem(caught).message }));

  const columns = [
    t('queue.column.type', 'Content type'),
    t('queue.column.status', 'Status'),
    t('queue.backfill.column.progress', 'Narrated'),
    t('queue.backfill.column.queued', 'Queued'),
    t('queue.backfill.column.left', 'Left'),
    t('queue.column.credits', 'Credits'),
    ...(canNarrate ? [t('queue.backfill.column.actions', 'Actions')] : []),
  ];
  return (
    <Card
      testId="speech-backfills"
      title={t('queue.backfill.title', 'Narrating the archive')}
      subtitle={t(
        'queue.backfill.subtitle',
        'What was published before, newest first, at the queue’s pace: never more than {backlog} queued at once, within the budget.',
        { backlog: formatNumber(backfills.data?.pace.backlog ?? 0) }
      )}
      action={
        canNarrate ? (
          <Button variant="secondary" onClick={() => setStarting(true)} data-testid="speech-backfill-new">
            {t('queue.backfill.new', 'Narrate the archive')}
          </Button>
        ) : null
      }
    >
      {rows.length === 0 ? (
        <Typography textColor="neutral600">{t('queue.backfill.empty', 'No archive is being narrated.')}</Typography>
      ) : (
        <Table colCount={columns.length} rowCount={rows.length + 1} data-testid="speech-backfill-list">
          <HeaderRow columns={columns} />
          <Tbody>
            {rows.map((backfill) => (
              <Tr key={backfill.id} data-testid="speech-backfill-row" data-status={backfill.status}>
                <Td>
                  <Typography>
                    <bdi>{typeName(backfill.contentType)}</bdi>
                    {backfill.locale ? ` (${backfill.locale})` : ''}
                  </Typography>
                </Td>
                <Td>
                  <Status variant={STATUS_VARIANT[backfill.status]} size="S" maxWidth="min-content">
                    <Typography tag="span" variant="omega" fontWeight="bold" style={{ whiteSpace: 'nowrap' }}>
                      {t(`queue.backfill.status.${backfill.status}`, STATUS_LABEL[backfill.status])}
                    </Typography>
                  </Status>
                </Td>
                <Td>
                  <Typography>
                    {t('queue.backfill.progress', '{done} of {total} ({share})', {
                      done: formatNumber(backfill.done),
                      total: formatNumber(backfill.total),
                      // Isolated, so that "100%" keeps its order inside an Arabic sentence.
                      share: `\u2068${formatNumber(backfill.total === 0 ? 1 : backfill.done / backfill.total, { style: 'percent' })}\u2069`,
                    })}
                  </Typography>
                </Td>
                <Td>
                  <Typography>{formatNumber(backfill.queued)}</Typography>
                </Td>
                <Td>
                  <Typography>{formatNumber(backfill.left)}</Typography>
                </Td>
                <Td>
                  <Typography>{formatNumber(backfill.credits)}</Typography>
                </Td>
                {canNarrate ? (
                  <Td>
                    <Flex gap={2}>
                      {ACTIONS[backfill.status].map((action) => (
                        <Button
                          key={action}
                          size="S"
                          variant={action === 'cancel' ? 'danger-light' : 'tertiary'}
                          onClick={() => run(backfill, action)}
                          data-testid={`speech-backfill-${action}`}
                        >
                          {t(`queue.backfill.${action}`, ACTION_LABEL[action])}
                        </Button>
                      ))}
                    </Flex>
                  </Td>
                ) : null}
              </Tr>
            ))}
          </Tbody>
        </Table>
      )}
      {starting ? <BackfillDialog settings={settings} typeName={typeName} onClose={() => setStarting(false)} /> : null}
    </Card>
  );
};
