import * as React from 'react';
import { DatePicker, Field, SingleSelect, SingleSelectOption, Typography } from '@strapi/design-system';
import { ClockCounterClockwise } from '@strapi/icons';
import { useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { toProblem } from '../../api/errors';
import { useGetSpeechBackfillEstimateQuery, useStartSpeechBackfillMutation } from '../../api/speechApi';
import type { BackfillTarget, GetSettingsResponse } from '../../api/types';
import { CostDialog } from './CostDialog';
import { useTranslator } from '../../utils/useTranslator';

interface Props {
  settings: GetSettingsResponse | undefined;
  typeName: (uid: string) => string;
  onClose: () => void;
}

/** Which archive to narrate; its cost, in all and a day, is shown before anything is queued. */
export const BackfillDialog = ({ settings, typeName, onClose }: Props) => {
  const t = useTranslator();
  const { formatNumber, formatDate, locale: adminLocale } = useIntl();
  const { toggleNotification } = useNotification();
  const narrated = Object.keys(settings?.settings.contentTypes ?? {});
  const [contentType, setContentType] = React.useState(narrated[0] ?? '');
  const localized = settings?.contentTypes.find((type) => type.uid === contentType)?.localized ?? false;
  const [locale, setLocale] = React.useState(settings?.locales[0] ?? '');
  const [before, setBefore] = React.useState<Date | undefined>(undefined);
  const target: BackfillTarget = {
    contentType,
    ...(localized ? { locale } : {}),
    ...(before ? { publishedBefore: before.toISOString() } : {}),
  };
  const estimate = useGetSpeechBackfillEstimateQuery(target, { skip: !contentType || (localized && !locale) });
  const [start, starting] = useStartSpeechBackfillMutation();
  const figures = estimate.data;

  const confirm = async () => {
    try {
      await start(target).unwrap();
      toggleNotification({ type: 'success', message: t('queue.backfill.started', 'The archive is being narrated, newest first.') });
      onClose();
    } catch (caught) {
      toggleNotification({ type: 'danger', message: toProblem(caught).message });
    }
  };

  return (
    <CostDialog
      title={t('queue.backfill.dialogTitle', 'Narrate the archive?')}
      icon={<ClockCounterClockwise />}
      testId="speech-backfill-dialog"
      estimate={{ isFetching: estimate.isFetching, error: estimate.error, hasFigures: Boolean(figures) }}
      confirm={{
        label: t('queue.backfill.start', 'Start'),
        testId: 'speech-backfill-start',
        disabled: !figures || figures.documents === 0,
        loading: starting.isLoading,
        onConfirm: () => void confirm(),
      }}
      onClose={onClose}
    >
      <Field.Root name="speech-backfill-type">
        <Field.Label>{t('queue.column.type', 'Content type')}</Field.Label>
        <SingleSelect value={contentType} onChange={(value) => setContentType(String(value))} data-testid="speech-backfill-type">
          {narrated.map((uid) => (
            <SingleSelectOption key={uid} value={uid}>
              {typeName(uid)}
            </SingleSelectOption>
          ))}
        </SingleSelect>
      </Field.Root>
      {localized ? (
        <Field.Root name="speech-backfill-locale">
          <Field.Label>{t('queue.column.locale', 'Locale')}</Field.Label>
          <SingleSelect value={locale} onChange={(value) => setLocale(String(value))} data-testid="speech-backfill-locale">
            {(settings?.locales ?? []).map((code) => (
              <SingleSelectOption key={code} value={code}>
                {code}
              </SingleSelectOption>
            ))}
          </SingleSelect>
        </Field.Root>
      ) : null}
      <Field.Root name="speech-backfill-before" hint={t('queue.backfill.beforeHint', 'Left empty: everything published until now.')}>
        <Field.Label>{t('queue.backfill.before', 'Published before')}</Field.Label>
        <DatePicker value={before} onChange={setBefore} onClear={() => setBefore(undefined)} locale={adminLocale} />
        <Field.Hint />
      </Field.Root>
      {figures ? (
        <>
          <Typography textAlign="center" fontWeight="bold" data-testid="speech-backfill-cost">
            {t(
              'queue.backfill.cost',
              '{count, plural, =0 {Nothing to narrate: every entry has a narration.} one {# entry, about {credits} credits.} other {# entries, about {credits} credits.}}',
              { count: figures.documents, credits: formatNumber(figures.credits) }
            )}
          </Typography>
          {figures.documents > 0 ? (
            <Typography textAlign="center" textColor="neutral600" data-testid="speech-backfill-per-day">
              {figures.days <= 1
                ? t('queue.backfill.withinDay', 'At the queue’s pace, all of it within a day.')
                : t(
                    'queue.backfill.perDay',
                    'At the queue’s pace, about {documents} a day ({credits} credits a day), done in {days, plural, one {# day} other {# days}}.',
                    {
                      documents: formatNumber(figures.perDay.documents),
                      credits: formatNumber(figures.perDay.credits),
                      days: figures.days,
                    }
                  )}
            </Typography>
          ) : null}
          <Typography textAlign="center" textColor="neutral600">
            {figures.budgetRemaining === null
              ? t('queue.retryNoBudget', 'The site has no monthly budget.')
              : t(
                  'queue.backfill.budget',
                  '{credits} credits are left in this month’s budget; past it, the backfill waits for the next month.',
                  {
                    credits: formatNumber(figures.budgetRemaining),
                  }
                )}
          </Typography>
          {figures.extrapolated ? (
            <Typography textAlign="center" variant="pi" textColor="neutral600">
              {t('queue.backfill.extrapolated', 'Counted from the newest 5,000 entries; the rest are taken to be like them.')}
            </Typography>
          ) : null}
          {before ? (
            <Typography textAlign="center" variant="pi" textColor="neutral600">
              {t('queue.backfill.beforeShown', 'Published before {date}.', { date: formatDate(before, { dateStyle: 'long' }) })}
            </Typography>
          ) : null}
        </>
      ) : null}
    </CostDialog>
  );
};
