import { Box, Flex, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { useGetSpeechNarrationVersionsQuery } from '../api/speechApi';
import type { NarrationVersion } from '../api/types';
import { useTranslator } from '../utils/useTranslator';

interface Props {
  articleId: string;
  /** The shown narration's last store: a new one loads the list again. */
  completedAt: string | null;
  dir: 'ltr' | 'rtl';
}

/** The stored versions of the narration, newest first: when, why, what was read anew, what it cost, and its check. */
export const VersionsCard = ({ articleId, completedAt, dir }: Props) => {
  const { formatDate, formatNumber } = useIntl();
  const t = useTranslator();
  const { data } = useGetSpeechNarrationVersionsQuery({ articleId, completedAt });
  const versions = data?.data ?? [];
  if (versions.length === 0) return null;

  const cause = (version: NarrationVersion) =>
    ({
      first: t('versions.first', 'First narration'),
      edit: t('versions.edit', 'Edited'),
      regenerate: t('versions.regenerate', 'Regenerated'),
      verification: t('versions.verification', 'Regenerated after a failed check'),
    })[version.cause];
  const check = (version: NarrationVersion) => {
    const verification = version.verification;
    if (!verification) return null;
    const percent =
      verification.wordAccuracy === null ? '' : formatNumber(verification.wordAccuracy, { style: 'percent', maximumFractionDigits: 0 });
    return {
      pending: t('versions.checkPending', 'Being checked'),
      verified: t('versions.checkVerified', 'Verified ({percent})', { percent }),
      mismatch: t('versions.checkMismatch', 'Differs from the text ({percent})', { percent }),
      failed: t('versions.checkFailed', 'Could not be checked'),
    }[verification.status];
  };

  return (
    <Flex direction="column" alignItems="stretch" gap={1} dir={dir} data-testid="speech-versions">
      <Typography variant="sigma" textColor="neutral600">
        {t('versions.title', 'Versions')}
      </Typography>
      <Box tag="ol">
        {versions.map((version) => (
          <Box tag="li" key={version.at} paddingTop={1} paddingBottom={1} data-testid="speech-version" data-cause={version.cause}>
            <Flex direction="column" alignItems="flex-start" gap={0}>
              <Typography variant="omega" fontWeight="semiBold">
                {formatDate(version.at, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' })} ·{' '}
                {cause(version)}
              </Typography>
              <Typography variant="pi" textColor="neutral600">
                {version.passages > 0
                  ? t('versions.passages', '{count, plural, one {# passage read anew} other {# passages read anew}}', {
                      count: version.passages,
                    })
                  : t('versions.whole', 'The whole audio')}
                {' · '}
                {t('versions.credits', '{credits, plural, one {# credit} other {# credits}}', { credits: version.credits })}
                {check(version) ? ` · ${check(version)}` : ''}
              </Typography>
            </Flex>
          </Box>
        ))}
      </Box>
    </Flex>
  );
};
