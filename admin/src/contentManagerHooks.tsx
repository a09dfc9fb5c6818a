import * as React from 'react';
import { isNarratedType, lastNarratedTypes } from './api/narratedTypes';
import type { InjectedListColumn } from './utils/contentManagerTypes';
import { getTranslation } from './utils/getTranslation';
import { modelFromPath } from './utils/paths';

/**
 * `Admin/CM/pages/ListView/inject-column-in-table`: adds the "Narration" column to the list view
 * of narrated collection types. The hook receives the list layout but not the model, so the
 * model comes from the list view's URL (/content-manager/collection-types/<uid>).
 */

export const NARRATION_COLUMN = 'speech-narration';

/** The cell (badge, status board) is its own chunk, fetched when a narrated list is shown. */
const NarrationListCell = React.lazy(() =>
  import('./components/NarrationListCell').then((module) => ({ default: module.NarrationListCell }))
);

/** The list view's columns (its ListFieldLayout, passed through untouched) and layout. */
interface HookArgs<Column, Layout> {
  displayedHeaders: Column[];
  layout: Layout;
}

export function addNarrationColumn<Column, Layout>({
  displayedHeaders,
  layout,
}: HookArgs<Column, Layout>): HookArgs<Column | InjectedListColumn, Layout> {
  const model = typeof window === 'undefined' ? null : modelFromPath(window.location.pathname);
  // The hook cannot use the query cache (no hooks, no store here): the endpoint's last answer.
  const snapshot = lastNarratedTypes();
  if (!model || snapshot.status === 'error' || (snapshot.status === 'ready' && !isNarratedType(snapshot.contentTypes, model))) {
    return { displayedHeaders, layout };
  }
  const column: InjectedListColumn = {
    attribute: { type: 'string' },
    label: { id: getTranslation('list.column'), defaultMessage: 'Narration' },
    searchable: false,
    sortable: false,
    name: NARRATION_COLUMN,
    cellFormatter: (row, _header, meta) => (
      <React.Suspense fallback={null}>
        <NarrationListCell model={meta.model} documentId={row.documentId} locale={row.locale ?? null} />
      </React.Suspense>
    ),
  };
  return { displayedHeaders: [...displayedHeaders, column], layout };
}
