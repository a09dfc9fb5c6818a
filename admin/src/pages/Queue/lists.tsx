import * as React from 'react';
import { Button, Flex, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { QueueEntriesResponse, QueueEntry } from '../../api/types';
import { useTranslator } from '../../utils/useTranslator';

/** How often the open page asks again. */
export const POLL_MS = 5_000;

/** Rows chosen in a list; a row that left the list is no longer chosen. */
export function useSelection(rows: QueueEntry[] | undefined) {
  const [chosen, setSelected] = React.useState<ReadonlySet<string>>(new Set());
  const selected = React.useMemo(() => {
    const listed = new Set((rows ?? []).map((row) => row.articleId));
    return new Set([...chosen].filter((id) => listed.has(id)));
  }, [chosen, rows]);
  const toggle = React.useCallback((articleId: string, on: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(articleId);
      else next.delete(articleId);
      return next;
    });
  }, []);
  const clear = React.useCallback(() => setSelected(new Set()), []);
  return { selected, toggle, clear };
}

/** "Page 2 of 7" with its two buttons; nothing for one page. */
export const Pager = ({
  pagination,
  onPage,
}: {
  pagination: QueueEntriesResponse['pagination'] | undefined;
  onPage: (page: number) => void;
}) => {
  const t = useTranslator();
  const { formatNumber } = useIntl();
  if (!pagination) return null;
  const pages = Math.max(1, Math.ceil(pagination.total / pagination.pageSize));
  if (pages === 1) return null;
  return (
    <Flex gap={2} justifyContent="flex-end">
      <Button variant="tertiary" size="S" disabled={pagination.page <= 1} onClick={() => onPage(pagination.page - 1)}>
        {t('queue.previous', 'Previous')}
      </Button>
      <Typography>
        {t('queue.pageOf', 'Page {page} of {pages}', { page: formatNumber(pagination.page), pages: formatNumber(pages) })}
      </Typography>
      <Button variant="tertiary" size="S" disabled={pagination.page >= pages} onClick={() => onPage(pagination.page + 1)}>
        {t('queue.next', 'Next')}
      </Button>
    </Flex>
  );
};
