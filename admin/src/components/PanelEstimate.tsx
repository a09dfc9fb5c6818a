import { Box, Flex, Loader, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { ApiProblem } from '../api/errors';
import type { EstimateResponse, NarrationStatus } from '../api/types';
import { partsChangedMessage } from '../utils/parts';
import { useTranslator } from '../utils/useTranslator';
import { WarningNotice } from './WarningNotice';

interface Props {
  estimate: EstimateResponse | undefined;
  error: ApiProblem | null;
  /** The status of the entry's narration, if any ("unchanged" is said of a completed one). */
  status: NarrationStatus | null;
  locale: string | null;
  voiceName: (id: string | null | undefined) => string;
}

/**
 * The edit view panel's cost of the current text: what narrating it would pay. A type narrated in
 * parts pays for its changed parts only, and says so ("2 of 18 parts changed: 640 credits").
 */
export function PanelEstimate({ estimate, error, status, locale, voiceName }: Props) {
  const { formatNumber } = useIntl();
  const t = useTranslator();
  if (!estimate) {
    return (
      <Box data-testid="speech-estimate">
        {error ? (
          <Typography variant="pi" textColor="neutral600">
            {t('panel.estimateError', 'No estimate: {message}', { message: error.message })}
          </Typography>
        ) : (
          <Loader small>{t('panel.estimating', 'Estimating the cost')}</Loader>
        )}
      </Box>
    );
  }
  const multiplier = estimate.preprocessType === '2' ? 2 : 1;
  const parts = partsChangedMessage(estimate, formatNumber, { withCredits: true });
  return (
    <Box data-testid="speech-estimate" data-credits={estimate.credits}>
      <Flex direction="column" alignItems="stretch" gap={1}>
        <Typography variant="sigma" textColor="neutral600">
          {t('panel.currentText', 'Current text')}
        </Typography>
        {parts ? (
          <>
            <Typography variant="omega" data-testid="speech-estimate-parts">
              {t(parts.id, parts.defaultMessage, { ...parts.values, credits: <strong key="credits">{parts.values.credits}</strong> })}
            </Typography>
            <Typography variant="pi" textColor="neutral600">
              {t('panel.partsCharacters', 'The changed parts: {characters} characters × {multiplier}', {
                characters: formatNumber(estimate.characters),
                multiplier,
              })}
            </Typography>
          </>
        ) : (
          <Typography variant="omega">
            {t('panel.estimate', '{characters} characters × {multiplier} = {credits} credits', {
              characters: formatNumber(estimate.characters),
              multiplier,
              credits: <strong key="credits">{formatNumber(estimate.credits)}</strong>,
            })}
          </Typography>
        )}
        <Typography variant="pi" textColor="neutral600">
          {multiplier === 2 ? t('mode.preprocessed', 'AI preprocessing') : t('mode.verbatim', 'Verbatim')}
          {' · '}
          {voiceName(estimate.voiceId)}
        </Typography>
        {estimate.voice?.mismatch ? (
          <WarningNotice testId="speech-voice-mismatch">
            {t('panel.voiceMismatch', '{voice} speaks {language}, but this entry is in {locale}: it would be read in that voice anyway.', {
              voice: <bdi key="voice">{voiceName(estimate.voice.id)}</bdi>,
              language: <bdi key="language">{estimate.voice.language}</bdi>,
              locale: <bdi key="locale">{locale ?? ''}</bdi>,
            })}
          </WarningNotice>
        ) : null}
        {estimate.unchanged && status === 'completed' ? (
          <Typography variant="pi" textColor="neutral600">
            {t('panel.unchanged', 'Unchanged since the last narration.')}
          </Typography>
        ) : null}
      </Flex>
    </Box>
  );
}
