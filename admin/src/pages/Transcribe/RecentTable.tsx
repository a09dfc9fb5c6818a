import { Button, EmptyStateLayout, Flex, Loader, Table, Tbody, Td, Th, Thead, Tr, Typography } from '@strapi/design-system';
import { ArrowClockwise } from '@strapi/icons';
import { useIntl } from 'react-intl';
import type { ApiProblem } from '../../api/errors';
import type { TranscriptionView } from '../../api/types';
import { useTranslator } from '../../utils/useTranslator';
import { Card } from '../../components/Card';
import { TranscriptionStatusBadge } from './StatusBadge';
import { formatBytes } from './utils';

interface Props {
  rows: TranscriptionView[] | undefined;
  loading: boolean;
  error: ApiProblem | null;
  selectedId: number | null;
  onOpen: (id: number) => void;
  onReload: () => void;
}

export const RecentTable = ({ rows, loading, error, selectedId, onOpen, onReload }: Props) => {
  const { formatDate } = useIntl();
  const t = useTranslator();

  const reload = (
    <Button variant="tertiary" size="S" startIcon={<ArrowClockwise />} onClick={onReload} data-testid="transcribe-recent-reload">
      {t('transcribe.recent.reload', 'Refresh')}
    </Button>
  );

  let body: React.ReactNode;
  if (loading && !rows) {
    body = <Loader small>{t('transcribe.recent.loading', 'Loading recent transcriptions')}</Loader>;
  } else if (error && !rows) {
    body = (
      <Flex gap={4} alignItems="center" wrap="wrap">
        <Typography textColor="danger600" data-testid="transcribe-recent-error">
          {t('transcribe.recent.error', 'Recent transcriptions could not be loaded: {message}', { message: error.message })}
        </Typography>
        <Button variant="secondary" onClick={onReload}>
          {t('common.retry', 'Try again')}
        </Button>
      </Flex>
    );
  } else if (!rows || rows.length === 0) {
    body = (
      <div data-testid="transcribe-recent-empty">
        <EmptyStateLayout content={t('transcribe.recent.empty', 'No transcription yet. Upload a recording to start.')} />
      </div>
    );
  } else {
    body = (
      <Table colCount={5} rowCount={rows.length + 1} data-testid="transcribe-recent-table">
        <Thead>
          <Tr>
            <Th>
              <Typography variant="sigma">{t('transcribe.recent.file', 'File')}</Typography>
            </Th>
            <Th>
              <Typography variant="sigma">{t('transcribe.recent.language', 'Language')}</Typography>
            </Th>
            <Th>
              <Typography variant="sigma">{t('transcribe.recent.format', 'Format')}</Typography>
            </Th>
            <Th>
              <Typography variant="sigma">{t('transcribe.recent.status', 'Status')}</Typography>
            </Th>
            <Th>
              <Typography variant="sigma">{t('transcribe.recent.created', 'Created')}</Typography>
            </Th>
          </Tr>
        </Thead>
        <Tbody>
          {rows.map((row) => (
            <Tr
              key={row.id}
              onClick={() => onOpen(row.id)}
              style={{ cursor: 'pointer' }}
              aria-selected={row.id === selectedId}
              data-testid="transcribe-recent-row"
              data-id={row.id}
            >
              <Td>
                <Flex direction="column" alignItems="flex-start">
                  <Typography
                    tag="button"
                    type="button"
                    fontWeight={row.id === selectedId ? 'bold' : 'regular'}
                    textColor="primary600"
                    style={{ background: 'none', border: 0, padding: 0, cursor: 'pointer', textAlign: 'start' }}
                    onClick={(event: React.MouseEvent) => {
                      event.stopPropagation();
                      onOpen(row.id);
                    }}
                  >
                    {row.fileName}
                  </Typography>
                  <Typography variant="pi" textColor="neutral600">
                    {formatBytes(row.fileSize)}
                  </Typography>
                </Flex>
              </Td>
              <Td>
                <Typography textColor="neutral800">{row.language}</Typography>
              </Td>
              <Td>
                <Typography textColor="neutral800">{row.outputFormat.toUpperCase()}</Typography>
              </Td>
              <Td>
                <TranscriptionStatusBadge status={row.status} testId="transcribe-recent-status" />
              </Td>
              <Td>
                <Typography textColor="neutral800">{formatDate(row.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}</Typography>
              </Td>
            </Tr>
          ))}
        </Tbody>
      </Table>
    );
  }

  return (
    <Card
      testId="transcribe-recent"
      title={t('transcribe.recent.title', 'Recent transcriptions')}
      subtitle={t('transcribe.recent.subtitle', 'Your latest uploads, newest first. Open one to read its result.')}
      action={reload}
    >
      {body}
    </Card>
  );
};
