import * as React from 'react';
import { Box, Button, Flex, Loader, Modal, Typography } from '@strapi/design-system';
import { useNotification, useTable } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { problemOf, toProblem } from '../api/errors';
import { useGetSpeechEstimateManyQuery, useSpeechNarrateManyMutation } from '../api/speechApi';
import { partsChangedMessage } from '../utils/parts';
import { useTranslator } from '../utils/useTranslator';
import { LexiconAffected } from './LexiconAffected';
import { WarningNotice } from './WarningNotice';
import { textDirection } from '../utils/textDirection';

interface Props {
  model: string;
  documentIds: string[];
  locale: string | null;
  onClose: () => void;
}

export default function BulkNarrateBody({ model, documentIds, locale, onClose }: Props) {
  const { formatNumber, locale: adminLocale } = useIntl();
  const { toggleNotification } = useNotification();
  const selectRow = useTable('BulkNarrate', (state) => state.selectRow);
  const [narrateMany, { isLoading: submitting }] = useSpeechNarrateManyMutation();
  const [showAffected, setShowAffected] = React.useState(false);
  const target = React.useMemo(() => ({ contentType: model, documentIds, locale }), [model, documentIds, locale]);
  const estimateQuery = useGetSpeechEstimateManyQuery(target, { refetchOnMountOrArgChange: true });
  const estimate = { data: estimateQuery.data, loading: estimateQuery.isLoading, error: problemOf(estimateQuery.error) };
  const t = useTranslator();

  const refused = estimate.data?.refused?.length ?? 0;
  // What would be paid entry by entry: the submitted ones (the unchanged are skipped, and counted above).
  const toPay = estimate.data?.items.filter((item) => !item.unchanged) ?? [];
  const notEstimated = estimate.data ? documentIds.length - estimate.data.items.length - refused : 0;

  const narrate = async () => {
    try {
      const result = await narrateMany(target).unwrap();
      toggleNotification({
        type: result.queued > 0 ? 'success' : 'info',
        message: t('bulk.done', '{queued, plural, =0 {No narration queued} one {# narration queued} other {# narrations queued}}.', {
          queued: result.queued,
        }),
      });
      // The list's statuses refresh by themselves: the mutation invalidates them.
      selectRow([]);
      onClose();
    } catch (error) {
      toggleNotification({ type: 'danger', message: toProblem(error).message });
    }
  };

  return (
    <>
      <Modal.Body>
        <Flex direction="column" alignItems="stretch" gap={3} data-testid="speech-bulk-summary" dir={textDirection(adminLocale)}>
          {estimate.loading ? (
            <Flex justifyContent="center">
              <Loader small>{t('bulk.estimating', 'Estimating the selection')}</Loader>
            </Flex>
          ) : estimate.error ? (
            <Typography textColor="danger600">
              {t('bulk.error', 'The selection could not be estimated: {message}', { message: estimate.error.message })}
            </Typography>
          ) : estimate.data ? (
            <>
              <Typography data-testid="speech-bulk-submit">
                {t(
                  'bulk.toSubmit',
                  '{count, plural, =0 {No entry will be submitted} one {# entry will be submitted} other {# entries will be submitted}}.',
                  {
                    count: estimate.data.toSubmit,
                  }
                )}
              </Typography>
              <Typography data-testid="speech-bulk-skipped" textColor="neutral600">
                {t(
                  'bulk.skipped',
                  '{count, plural, =0 {None skipped} one {# skipped: unchanged since its last narration} other {# skipped: unchanged since their last narration}}.',
                  {
                    count: estimate.data.skipped,
                  }
                )}
              </Typography>
              {refused > 0 ? (
                <Typography textColor="danger600" data-testid="speech-bulk-refused">
                  {t(
                    'bulk.refused',
                    '{count, plural, one {# entry is left out: you may not narrate it} other {# entries are left out: you may not narrate them}}.',
                    { count: refused }
                  )}
                </Typography>
              ) : null}
              {notEstimated > 0 ? (
                <Typography textColor="neutral600">
                  {t('bulk.notNarrated', '{count, plural, one {# entry has} other {# entries have}} nothing to narrate.', {
                    count: notEstimated,
                  })}
                </Typography>
              ) : null}
              {estimate.data.voiceMismatches ? (
                <WarningNotice testId="speech-bulk-voice-mismatch">
                  {t(
                    'bulk.voiceMismatch',
                    '{count, plural, one {# entry would be read in a voice of another language than its own} other {# entries would be read in a voice of another language than their own}}.',
                    { count: estimate.data.voiceMismatches }
                  )}
                </WarningNotice>
              ) : null}
              {toPay.length > 0 ? (
                <Box tag="ul" paddingLeft={4} paddingRight={4} maxHeight="12rem" overflow="auto" data-testid="speech-bulk-items">
                  {toPay.map((item) => {
                    const parts = partsChangedMessage(item, formatNumber, { withCredits: false });
                    return (
                      <li key={item.articleId} data-testid="speech-bulk-item" data-document-id={item.documentId}>
                        <Typography variant="omega">
                          <bdi>{item.title}</bdi>
                          {' · '}
                          {parts ? (
                            <>
                              {t(parts.id, parts.defaultMessage, parts.values)}
                              {' · '}
                            </>
                          ) : null}
                          {t('bulk.itemCredits', '{credits} credits', { credits: formatNumber(item.credits) })}
                        </Typography>
                      </li>
                    );
                  })}
                </Box>
              ) : null}
              {toPay.some((item) => item.parts) ? (
                <Typography variant="pi" textColor="neutral600" data-testid="speech-bulk-parts-note">
                  {t('bulk.partsNote', 'An entry narrated in parts pays for its changed parts only.')}
                </Typography>
              ) : null}
              <Typography fontWeight="bold" data-testid="speech-bulk-credits">
                {t('bulk.credits', 'Total: {credits} credits.', { credits: formatNumber(estimate.data.totalCredits) })}
              </Typography>
            </>
          ) : null}
          {showAffected ? (
            <LexiconAffected contentType={model} locale={locale} />
          ) : (
            <Button variant="tertiary" size="S" onClick={() => setShowAffected(true)} data-testid="speech-lexicon-affected-open">
              {t('affected.open', 'What would the pronunciation rules change?')}
            </Button>
          )}
        </Flex>
      </Modal.Body>
      <Modal.Footer>
        <Modal.Close>
          <Button variant="tertiary">{t('common.cancel', 'Cancel')}</Button>
        </Modal.Close>
        <Button
          onClick={() => void narrate()}
          loading={submitting}
          disabled={!estimate.data || estimate.data.toSubmit === 0}
          data-testid="speech-bulk-confirm"
        >
          {t('bulk.confirm', 'Narrate {count}', { count: estimate.data?.toSubmit ?? 0 })}
        </Button>
      </Modal.Footer>
    </>
  );
}
