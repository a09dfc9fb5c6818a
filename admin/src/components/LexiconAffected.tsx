import * as React from 'react';
import { Box, Button, Flex, Loader, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { problemOf } from '../api/errors';
import { useGetSpeechLexiconAffectedQuery } from '../api/speechApi';
import { LEXICON_AFFECTED_PAGE_SIZE } from '../api/types';
import { useTranslator } from '../utils/useTranslator';
import { textDirection } from '../utils/textDirection';

/**
 * The bulk dialog's "what the lexicon would change": published entries of the list's type and
 * locale whose narration the saved pronunciation rules would change, with the cost of narrating
 * them again, a page of published entries at a time. Asked only when the editor opens it.
 */
export function LexiconAffected({ contentType, locale }: { contentType: string; locale: string | null }) {
  const { formatNumber, locale: adminLocale } = useIntl();
  const [page, setPage] = React.useState(1);
  const query = useGetSpeechLexiconAffectedQuery(
    { contentType, locale, page, pageSize: LEXICON_AFFECTED_PAGE_SIZE.default },
    { refetchOnMountOrArgChange: true }
  );
  const error = problemOf(query.error);
  const t = useTranslator();
  const data = query.data;

  return (
    <Flex direction="column" alignItems="stretch" gap={2} data-testid="speech-lexicon-affected" dir={textDirection(adminLocale)}>
      <Typography variant="sigma" textColor="neutral600">
        {t('affected.title', 'What the pronunciation rules would change')}
      </Typography>
      {query.isFetching && !data ? (
        <Loader small>{t('affected.loading', 'Looking through the published entries')}</Loader>
      ) : error ? (
        <Typography textColor="danger600">{t('affected.error', 'Not available: {message}', { message: error.message })}</Typography>
      ) : data ? (
        <>
          {data.items.length === 0 ? (
            <Typography textColor="neutral600" data-testid="speech-lexicon-affected-none">
              {t('affected.none', 'No published entry on this page would sound different.')}
            </Typography>
          ) : (
            <Box tag="ul" paddingLeft={4} paddingRight={4}>
              {data.items.map((item) => (
                <li key={item.articleId}>
                  <Typography variant="omega">
                    <bdi>{item.title ?? item.documentId}</bdi>
                    {' · '}
                    {t('affected.credits', '{credits} credits', { credits: formatNumber(item.credits) })}
                  </Typography>
                </li>
              ))}
            </Box>
          )}
          <Typography fontWeight="bold" data-testid="speech-lexicon-affected-total">
            {t(
              'affected.total',
              '{count, plural, =0 {Nothing to narrate again} one {# entry to narrate again: {credits} credits} other {# entries to narrate again: {credits} credits}}.',
              {
                count: data.items.length,
                credits: formatNumber(data.totalCredits),
              }
            )}
          </Typography>
          {data.pageCount > 1 ? (
            <Flex gap={2} alignItems="center">
              <Button variant="tertiary" size="S" disabled={page <= 1 || query.isFetching} onClick={() => setPage(page - 1)}>
                {t('affected.previous', 'Previous')}
              </Button>
              <Typography variant="pi" data-testid="speech-lexicon-affected-page">
                {t('affected.page', 'Page {page} of {pageCount} ({total} published entries)', {
                  page: data.page,
                  pageCount: data.pageCount,
                  total: data.total,
                })}
              </Typography>
              <Button variant="tertiary" size="S" disabled={page >= data.pageCount || query.isFetching} onClick={() => setPage(page + 1)}>
                {t('affected.next', 'Next')}
              </Button>
            </Flex>
          ) : null}
        </>
      ) : null}
    </Flex>
  );
}
