import { Checkbox, Status, Table, Tbody, Td, Th, Tr, Typography, VisuallyHidden } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { QueueEntry } from '../../api/types';
import { ArticleLink, HeaderRow } from '../../components/FiguresTable';
import { useFailureReason } from '../../components/FailureReason';
import { getTranslation } from '../../utils/getTranslation';
import { BADGE_LABEL, BADGE_VARIANT, badgeKind } from '../../utils/status';
import { useTranslator } from '../../utils/useTranslator';

interface Props {
  entries: QueueEntry[];
  /** The failures list says why; the waiting list says where each one is. */
  kind: 'failed' | 'waiting';
  typeName: (uid: string) => string;
  selected: ReadonlySet<string>;
  /** Which rows may be selected (null: none, the caller may not act). */
  selectable: ((entry: QueueEntry) => boolean) | null;
  onSelect: (articleId: string, selected: boolean) => void;
  testId: string;
  /** What the list says when it has no row. */
  empty: string;
}

/** The narrations of a list of the queue page, a row each: the article, its type, where it is or why it failed, since when. */
export const EntriesTable = ({ entries, kind, typeName, selected, selectable, onSelect, testId, empty }: Props) => {
  const t = useTranslator();
  const intl = useIntl();
  const describeFailure = useFailureReason();
  if (entries.length === 0) return <Typography textColor="neutral600">{empty}</Typography>;
  const columns = [
    t('queue.column.article', 'Article'),
    t('queue.column.type', 'Content type'),
    kind === 'failed' ? t('queue.column.reason', 'Reason') : t('queue.column.status', 'Status'),
    kind === 'failed' ? t('queue.column.attempts', 'Attempts') : t('queue.column.credits', 'Credits'),
    kind === 'failed' ? t('queue.column.lastTried', 'Last sent') : t('queue.column.since', 'Since'),
  ];
  return (
    <Table colCount={columns.length + (selectable ? 1 : 0)} rowCount={entries.length + 1} data-testid={testId}>
      <HeaderRow
        columns={columns}
        leading={
          selectable ? (
            <Th>
              <VisuallyHidden>{t('queue.column.select', 'Select')}</VisuallyHidden>
            </Th>
          ) : null
        }
      />
      <Tbody>
        {entries.map((entry) => {
          const badge = badgeKind(entry);
          return (
            <Tr key={entry.articleId} data-testid="speech-queue-row" data-article={entry.articleId} data-status={entry.status}>
              {selectable ? (
                <Td>
                  <Checkbox
                    aria-label={t('queue.selectRow', 'Select {title}', { title: entry.title ?? entry.documentId })}
                    disabled={!selectable(entry)}
                    checked={selected.has(entry.articleId)}
                    onCheckedChange={(checked) => onSelect(entry.articleId, checked === true)}
                  />
                </Td>
              ) : null}
              <Td style={{ whiteSpace: 'normal' }}>
                <ArticleLink article={entry} />
              </Td>
              <Td>
                <Typography>{typeName(entry.contentType)}</Typography>
              </Td>
              <Td style={{ whiteSpace: 'normal' }}>
                {kind === 'failed' ? (
                  <Typography data-testid="speech-queue-reason">
                    {describeFailure(entry) ?? t('queue.noReason', 'No reason given')}
                  </Typography>
                ) : (
                  <Status variant={BADGE_VARIANT[badge]} size="S" maxWidth="min-content">
                    <Typography tag="span" variant="omega" fontWeight="bold" style={{ whiteSpace: 'nowrap' }}>
                      {intl.formatMessage({ id: getTranslation(`badge.${badge}`), defaultMessage: BADGE_LABEL[badge] })}
                    </Typography>
                  </Status>
                )}
              </Td>
              <Td>
                <Typography>{intl.formatNumber(kind === 'failed' ? entry.attempts : (entry.credits ?? 0))}</Typography>
              </Td>
              <Td>
                <Typography>{entry.since ? intl.formatDate(entry.since, { dateStyle: 'medium', timeStyle: 'short' }) : '—'}</Typography>
              </Td>
            </Tr>
          );
        })}
      </Tbody>
    </Table>
  );
};
