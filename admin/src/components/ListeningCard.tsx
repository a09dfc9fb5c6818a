import * as React from 'react';
import { Box, Flex, Loader, Typography, VisuallyHidden } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { DOCUMENT_INSIGHTS_DAYS } from '../api/endpoints';
import { problemOf } from '../api/errors';
import { useGetSpeechDocumentInsightsQuery } from '../api/speechApi';
import type { DocumentTarget } from '../api/types';
import { completionShare, curveGeometry, dropOffCurve, isSilent, PERCENT, type CurvePoint } from '../utils/insights';
import { textDirection } from '../utils/textDirection';
import { useTranslator } from '../utils/useTranslator';

const BOX = { width: 240, height: 72, padding: 4 };

/**
 * The edit view's listening card (a lazy chunk of the narration panel, shown only when the
 * narration has audio): plays, listeners and the share who finished over the last 30 days, and
 * where listeners stop as a small curve. One request, made when the card is first shown.
 */
export default function ListeningCard({ target }: { target: DocumentTarget }) {
  const t = useTranslator();
  const { formatNumber, locale } = useIntl();
  const dir = textDirection(locale);
  const { data, isLoading, error } = useGetSpeechDocumentInsightsQuery(
    { ...target, days: DOCUMENT_INSIGHTS_DAYS },
    { refetchOnMountOrArgChange: true }
  );
  const problem = problemOf(error);
  const percent = (share: number | null) => (share === null ? '-' : formatNumber(share, PERCENT));

  let body: React.ReactNode;
  if (isLoading) body = <Loader small>{t('listening.card.loading', 'Loading the listening figures')}</Loader>;
  else if (!data)
    body = (
      <Typography variant="pi" textColor="danger600">
        {t('listening.card.error', 'The listening figures could not be loaded: {message}', { message: problem?.message ?? '' })}
      </Typography>
    );
  else if (isSilent(data.totals))
    body = (
      <Typography variant="pi" textColor="neutral600" data-testid="speech-listening-card-empty">
        {t('listening.card.empty', 'No listening yet')}
      </Typography>
    );
  else {
    const { totals } = data;
    body = (
      <>
        <Flex gap={4} wrap="wrap" tag="dl">
          <Figure label={t('listening.plays', 'Plays')} value={formatNumber(totals.plays)} testId="speech-listening-card-plays" />
          <Figure
            label={t('listening.listeners', 'Listeners')}
            value={formatNumber(totals.listeners)}
            testId="speech-listening-card-listeners"
          />
          <Figure
            label={t('listening.finished', 'Finished')}
            value={percent(completionShare(totals))}
            testId="speech-listening-card-finished"
          />
        </Flex>
        {totals.downloads > 0 ? (
          <Typography variant="pi" textColor="neutral600" data-testid="speech-listening-card-downloads">
            {t('listening.card.downloads', 'Feed downloads: {downloads}', { downloads: formatNumber(totals.downloads) })}
          </Typography>
        ) : null}
        {totals.plays > 0 ? <DropOffCurve curve={dropOffCurve(totals)} rtl={dir === 'rtl'} percent={percent} /> : null}
      </>
    );
  }

  return (
    <Flex direction="column" alignItems="stretch" gap={2} dir={dir} data-testid="speech-listening-card" aria-busy={isLoading}>
      <Typography variant="sigma" textColor="neutral600" tag="h3">
        {t('listening.card.title', 'Listening, last {days} days', { days: formatNumber(DOCUMENT_INSIGHTS_DAYS) })}
      </Typography>
      {body}
    </Flex>
  );
}

const Figure = ({ label, value, testId }: { label: string; value: string; testId: string }) => (
  <Flex direction="column" alignItems="flex-start" gap={0}>
    <Typography variant="pi" textColor="neutral600" tag="dt">
      {label}
    </Typography>
    <Typography variant="omega" fontWeight="bold" textColor="neutral800" tag="dd" data-testid={testId}>
      {value}
    </Typography>
  </Flex>
);

/**
 * Where the plays stop, as the share still listening from the start (100 %) to the end. For
 * assistive technology one image with a summary, and every point in a visually hidden list.
 */
const DropOffCurve = ({ curve, rtl, percent }: { curve: CurvePoint[]; rtl: boolean; percent: (share: number) => string }) => {
  const t = useTranslator();
  const { formatNumber } = useIntl();
  const { path, area, baseline } = curveGeometry(curve, BOX, rtl);
  const at = (milestone: number) => curve.find((point) => point.milestone === milestone)?.share ?? 0;
  const place = (milestone: number) => formatNumber(milestone / 100, PERCENT);
  return (
    <Box data-testid="speech-listening-curve">
      <svg
        width="100%"
        height={BOX.height}
        viewBox={`0 0 ${BOX.width} ${BOX.height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={t(
          'listening.curve.label',
          'Where listeners stop: {half} of plays reached the middle, {end} the end. The list below gives every tenth.',
          { half: percent(at(50)), end: percent(at(100)) }
        )}
        style={{ display: 'block' }}
      >
        <path d={area} fill="#f0f0ff" aria-hidden />
        <line x1={BOX.padding} x2={BOX.width - BOX.padding} y1={baseline} y2={baseline} stroke="#c0c0cf" aria-hidden />
        <path d={path} fill="none" stroke="#4945ff" strokeWidth={2} vectorEffect="non-scaling-stroke" aria-hidden />
      </svg>
      <Flex justifyContent="space-between" aria-hidden>
        <Typography variant="pi" textColor="neutral600">
          {place(0)}
        </Typography>
        <Typography variant="pi" textColor="neutral600">
          {place(100)}
        </Typography>
      </Flex>
      <VisuallyHidden>
        <ul data-testid="speech-listening-curve-points">
          {curve
            .filter((point) => point.milestone > 0)
            .map((point) => (
              <li key={point.milestone}>
                {t('listening.curve.point', '{place} of the audio: {share} of plays', {
                  place: place(point.milestone),
                  share: percent(point.share),
                })}
              </li>
            ))}
        </ul>
      </VisuallyHidden>
    </Box>
  );
};
