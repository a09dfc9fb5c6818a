import { Box, Button, Flex, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { VerificationView } from '../../../shared/contracts/verification';
import { clockTime } from '../utils/clockTime';
import { useTranslator } from '../utils/useTranslator';

interface Props {
  verification: VerificationView;
  /** Plays the stored audio from `seconds` (the panel's player). */
  onPlayFrom: (seconds: number) => void;
  dir: 'ltr' | 'rtl';
}

/**
 * A narration's check by speech to text: verified with the share of words heard, or the places
 * where the audio differs from the text sent, each with what was expected and heard and a button
 * that plays the audio from there.
 */
export const VerificationCard = ({ verification, onPlayFrom, dir }: Props) => {
  const { formatNumber } = useIntl();
  const t = useTranslator();
  const percent =
    verification.wordAccuracy === null ? '' : formatNumber(verification.wordAccuracy, { style: 'percent', maximumFractionDigits: 0 });
  const summary = {
    pending: t('verification.pending', 'Checking the narration: listening to it with speech to text…'),
    verified: t('verification.verified', 'Verified: {percent} of words heard', { percent }),
    mismatch:
      verification.wordAccuracy === null
        ? t('verification.mismatchUnaligned', 'Check: the audio is too far from the text sent to count the words heard')
        : t('verification.mismatch', 'Check: {count, plural, one {# place differs} other {# places differ}} ({percent} of words heard)', {
            count: verification.placeCount,
            percent,
          }),
    failed: t('verification.failed', 'The narration could not be checked: {reason}', { reason: verification.reason ?? '' }),
  }[verification.status];
  const tone = { pending: 'neutral600', verified: 'success600', mismatch: 'warning600', failed: 'danger600' }[verification.status];

  return (
    <Flex direction="column" alignItems="stretch" gap={2} data-testid="speech-verification" data-status={verification.status} dir={dir}>
      <Typography variant="omega" fontWeight="bold" textColor={tone} data-testid="speech-verification-summary">
        {summary}
      </Typography>
      {verification.places.length > 0 ? (
        <Box tag="ul" data-testid="speech-verification-places">
          {verification.places.map((place, index) => (
            <Box tag="li" key={index} paddingTop={1} paddingBottom={1} data-testid="speech-verification-place">
              <Flex gap={2} alignItems="center" justifyContent="space-between">
                <Flex direction="column" alignItems="flex-start" gap={0}>
                  <Typography variant="pi">
                    {t('verification.expected', 'Sent: {text}', { text: <bdi>{place.expected || '—'}</bdi> })}
                  </Typography>
                  <Typography variant="pi" textColor="neutral600">
                    {t('verification.heard', 'Heard: {text}', { text: <bdi>{place.heard || '—'}</bdi> })}
                  </Typography>
                </Flex>
                <Button variant="tertiary" size="S" onClick={() => onPlayFrom(place.atSeconds)} data-testid="speech-verification-play">
                  {t('verification.playFrom', 'Play from {time}', { time: <bdi>{clockTime(place.atSeconds)}</bdi> })}
                </Button>
              </Flex>
            </Box>
          ))}
        </Box>
      ) : null}
    </Flex>
  );
};
