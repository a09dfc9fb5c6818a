import * as React from 'react';
import { Button, Flex, Link, Table, Tbody, Td, Th, Thead, Tr, Typography, VisuallyHidden } from '@strapi/design-system';
import { NavLink } from 'react-router-dom';
import { editViewPath } from '../utils/paths';
import { useTranslator } from '../utils/useTranslator';
import { Card } from './Card';

export interface FiguresRow {
  key: string;
  /** The row's cells, a column each: text (a name, a formatted figure) or an element (a link). */
  cells: React.ReactNode[];
}

/** A table's header: a label a column, after an optional leading cell (a selection's). */
export const HeaderRow = ({ columns, leading }: { columns: string[]; leading?: React.ReactNode }) => (
  <Thead>
    <Tr>
      {leading}
      {columns.map((label) => (
        <Th key={label}>
          <Typography variant="sigma">{label}</Typography>
        </Th>
      ))}
    </Tr>
  </Thead>
);

/**
 * A table of figures by article or locale (the usage page's most expensive articles, the listening
 * page's most listened ones, its days and its locales): a header row of labels, a row an item, the
 * figures already formatted in the admin's language. The first cell may wrap; `bold` says which
 * column carries the figure the rows are ordered by.
 */
export const FiguresTable = ({
  columns,
  rows,
  bold,
  testId,
}: {
  columns: string[];
  rows: FiguresRow[];
  bold?: number;
  testId?: string;
}) => (
  <Table colCount={columns.length} rowCount={rows.length + 1} data-testid={testId}>
    <HeaderRow columns={columns} />
    <Tbody>
      {rows.map((row) => (
        <Tr key={row.key}>
          {row.cells.map((cell, index) => (
            <Td key={index} style={index === 0 ? { whiteSpace: 'normal' } : undefined}>
              {typeof cell === 'string' ? <Typography fontWeight={index === bold ? 'bold' : undefined}>{cell}</Typography> : cell}
            </Td>
          ))}
        </Tr>
      ))}
    </Tbody>
  </Table>
);

/** An article's title as a link to its edit view, its locale beside it. */
export const ArticleLink = ({
  article,
}: {
  article: { contentType: string; documentId: string; locale?: string | null; title: string | null };
}) => (
  <>
    <Link tag={NavLink} to={editViewPath(article)}>
      {/* A title in another script keeps its own direction inside the row. */}
      <bdi>{article.title || article.documentId}</bdi>
    </Link>
    {article.locale ? (
      <Typography variant="pi" textColor="neutral600">
        {' '}
        ({article.locale})
      </Typography>
    ) : null}
  </>
);

/**
 * A chart's data table: always in the page for assistive technology (visually hidden), shown
 * on demand with its button.
 */
export const FiguresToggle = ({ testId, children }: { testId: string; children: React.ReactNode }) => {
  const t = useTranslator();
  const [shown, setShown] = React.useState(false);
  return (
    <>
      <Flex>
        <Button variant="tertiary" size="S" aria-expanded={shown} onClick={() => setShown(!shown)} data-testid={testId}>
          {shown ? t('usage.table.hide', 'Hide the figures') : t('usage.table.show', 'Show the figures as a table')}
        </Button>
      </Flex>
      {shown ? children : <VisuallyHidden>{children}</VisuallyHidden>}
    </>
  );
};

/** A card of one table, or a line saying it has no row. */
export const TableCard = ({
  title,
  subtitle,
  testId,
  empty,
  ...table
}: {
  title: string;
  subtitle?: string;
  testId: string;
  empty: string;
  columns: string[];
  rows: FiguresRow[];
  bold?: number;
}) => (
  <Card testId={testId} title={title} subtitle={subtitle}>
    {table.rows.length === 0 ? <Typography textColor="neutral600">{empty}</Typography> : <FiguresTable {...table} />}
  </Card>
);
