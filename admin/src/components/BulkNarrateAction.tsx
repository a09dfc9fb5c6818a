import * as React from 'react';
import { Modal } from '@strapi/design-system';
import { Play } from '@strapi/icons';
import { useQueryParams, useRBAC } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { useNarratedTypes } from '../api/hooks';
import type { BulkActionComponent } from '../utils/contentManagerTypes';
import { PERMISSIONS } from '../utils/permissions';
import { getTranslation } from '../utils/getTranslation';

const BulkNarrateBody = React.lazy(() => import('./BulkNarrateBody'));

/**
 * List view bulk action "Narrate": a modal that first estimates the selection (how many will be
 * submitted, how many are skipped as unchanged, total credits) and then narrates.
 */
export const BulkNarrateAction: BulkActionComponent = ({ documents, model }) => {
  const { formatMessage } = useIntl();
  const { status, isNarrated } = useNarratedTypes();
  const {
    allowedActions: { canNarrate },
  } = useRBAC(PERMISSIONS.narrate);
  const [{ query }] = useQueryParams<{ plugins?: { i18n?: { locale?: string } } }>();
  const locale = (documents[0]?.locale as string | undefined) ?? query.plugins?.i18n?.locale ?? null;
  const idsKey = documents.map((document) => document.documentId).join(',');

  const Content = React.useMemo(() => {
    const documentIds = idsKey ? idsKey.split(',') : [];
    const Body = ({ onClose }: { onClose: () => void }) => (
      <React.Suspense fallback={<Modal.Body>…</Modal.Body>}>
        <BulkNarrateBody model={model} documentIds={documentIds} locale={locale} onClose={onClose} />
      </React.Suspense>
    );
    return Body;
  }, [model, idsKey, locale]);

  if (status !== 'ready' || !isNarrated(model) || !canNarrate || documents.length === 0) return null;
  return {
    label: formatMessage({ id: getTranslation('bulk.label'), defaultMessage: 'Narrate' }),
    icon: <Play />,
    variant: 'tertiary',
    dialog: {
      type: 'modal',
      title: formatMessage({ id: getTranslation('bulk.title'), defaultMessage: 'Narrate the selected entries' }),
      content: Content,
    },
  };
};
