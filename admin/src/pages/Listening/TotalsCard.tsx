import type * as React from 'react';
import { Grid } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { GetInsightsResponse } from '../../api/types';
import { Card, Fact } from '../../components/Card';
import { completionShare } from '../../utils/insights';
import { formatDay } from '../../utils/usageFormat';
import { useTranslator } from '../../utils/useTranslator';
import { useListeningFormat } from './useListeningFormat';

/** The period's totals: plays, daily listeners, the share who finished, time heard, and feed downloads apart. */
export const TotalsCard = ({ insights, periodControl }: { insights: GetInsightsResponse; periodControl: React.ReactNode }) => {
  const t = useTranslator();
  const { locale } = useIntl();
  const { percent, heard, formatNumber } = useListeningFormat();
  const { totals } = insights;
  const facts = [
    { id: 'plays', label: t('listening.plays', 'Plays'), value: formatNumber(totals.plays) },
    { id: 'listeners', label: t('listening.dailyListeners', 'Daily listeners'), value: formatNumber(totals.listeners) },
    { id: 'finished', label: t('listening.finishedShare', 'Finished (share of plays)'), value: percent(completionShare(totals)) },
    { id: 'heard', label: t('listening.heard', 'Time heard'), value: heard(totals.secondsHeard) },
    {
      id: 'downloads',
      label: t('listening.downloads', 'Feed downloads (IAB rules, as a redirecting server sees them)'),
      value: formatNumber(totals.downloads),
    },
  ];
  return (
    <Card
      testId="speech-listening-totals"
      title={t('listening.totals.title', 'Listening from {from} to {to}', {
        from: formatDay(insights.from, locale, { day: 'numeric', month: 'long' }),
        to: formatDay(insights.to, locale, { day: 'numeric', month: 'long' }),
      })}
      subtitle={t(
        'listening.totals.subtitle',
        'Plays in the site’s player, of the articles you may read. A listener is counted once per article and day (UTC); feed downloads are counted apart.'
      )}
      action={periodControl}
    >
      <Grid.Root gap={4}>
        {facts.map((fact) => (
          <Grid.Item key={fact.id} col={fact.id === 'downloads' ? 4 : 2} s={6} xs={12} direction="column" alignItems="stretch">
            <Fact label={fact.label} testId={`speech-listening-${fact.id}`}>
              {fact.value}
            </Fact>
          </Grid.Item>
        ))}
      </Grid.Root>
    </Card>
  );
};
