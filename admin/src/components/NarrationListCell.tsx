import { Loader, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { useListStatus, useNarratedTypes } from '../api/hooks';
import { getTranslation } from '../utils/getTranslation';
import { rowForLocale } from '../utils/status';
import { NarrationBadge } from './NarrationBadge';

interface Props {
  model: string;
  documentId: string;
  locale: string | null;
}

const Dash = () => <Typography textColor="neutral500">-</Typography>;

const StatusCell = ({ model, documentId, locale }: Props) => {
  const { formatMessage } = useIntl();
  const { rows, queue, failed } = useListStatus(model, documentId);
  if (rows === undefined) {
    return <Loader small>{formatMessage({ id: getTranslation('list.loading'), defaultMessage: 'Loading narration status' })}</Loader>;
  }
  if (failed && rows.length === 0) {
    return (
      <Typography
        textColor="neutral500"
        title={formatMessage({ id: getTranslation('list.error'), defaultMessage: 'The narration status could not be loaded.' })}
      >
        ?
      </Typography>
    );
  }
  return <NarrationBadge row={rowForLocale(rows, locale)} queue={queue} />;
};

/** The "Narration" cell of the list view; nothing for types that turned out not to be narrated. */
export const NarrationListCell = (props: Props) => {
  const { status, isNarrated } = useNarratedTypes();
  if (status === 'ready' && !isNarrated(props.model)) return <Dash />;
  if (status === 'error') return <Dash />;
  if (!props.documentId) return <Dash />;
  return <StatusCell {...props} />;
};
