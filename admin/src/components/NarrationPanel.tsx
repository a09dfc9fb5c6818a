import * as React from 'react';
import { useIntl } from 'react-intl';
import { useNarratedTypes } from '../api/hooks';
import type { PanelComponent } from '../utils/contentManagerTypes';
import { getTranslation } from '../utils/getTranslation';

const NarrationPanelContent = React.lazy(() => import('./NarrationPanelContent'));

/**
 * Edit view side panel (content-manager `addEditViewSidePanel`). The description itself is tiny;
 * its content is a lazily loaded chunk, fetched only when a narrated document is opened.
 */
export const NarrationPanel: PanelComponent = ({ model, documentId, document }) => {
  const { formatMessage } = useIntl();
  const { status, isNarrated } = useNarratedTypes();
  if (!documentId || status !== 'ready' || !isNarrated(model)) return null;
  const locale = typeof document?.locale === 'string' ? document.locale : null;
  // Saving changes updatedAt, publishing changes status: either may start a narration.
  const version = document ? [document.updatedAt, document.publishedAt, document.status].map((part) => String(part ?? '')).join('|') : null;
  return {
    title: formatMessage({ id: getTranslation('panel.title'), defaultMessage: 'Narration' }),
    content: (
      <React.Suspense fallback={null}>
        <NarrationPanelContent model={model} documentId={documentId} locale={locale} version={version} />
      </React.Suspense>
    ),
  };
};
