import * as React from 'react';
import { Link, Table, Tbody, Td, Th, Thead, Tr, Typography } from '@strapi/design-system';
import { NavLink } from 'react-router-dom';
import { editViewPath } from '../utils/paths';

export interface FiguresRow {
  key: string;
  /** The row's first cell (a name, a link), then its figures, as many as the columns after the first. */
  cells: React.ReactNode[];
}

/**
 * A table of figures by article or locale (the usage page's most expensive articles, the listening
 * page's most listened ones and its locales): a header row of labels, a row an item, the figures
 * already formatted in the admin's language. The first cell may wrap; `bold` says which column
 * carries the figure the rows are ordered by.
 */
export const FiguresTable = ({ columns, rows, bold, testId }: { columns: string[]; rows: FiguresRow[]; bold?: number; testId?: string }) => (
  <Table colCount={columns.length} rowCount={rows.length + 1} data-testid={testId}>
    <Thead>
      <Tr>
        {columns.map((label) => (
          <Th key={label}>
            <Typography variant="sigma">{label}</Typography>
          </Th>
        ))}
      </Tr>
    </Thead>
    <Tbody>
      {rows.map((row) => (
        <Tr key={row.key}>
          {row.cells.map((cell, index) => (
            <Td key={index} style={index === 0 ? { whiteSpace: 'normal' } : undefined}>
              {index === 0 ? cell : <Typography fontWeight={index === bold ? 'bold' : undefined}>{cell}</Typography>}
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
