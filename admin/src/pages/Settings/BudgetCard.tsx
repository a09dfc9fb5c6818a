import * as React from 'react';
import { Field, Flex, Grid, NumberInput, TextInput, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { problemOf } from '../../api/errors';
import { useGetSpeechUsageQuery } from '../../api/speechApi';
import type { ContentTypeDescription } from '../../api/types';
import { BudgetMeter } from '../../components/BudgetMeter';
import { Card } from '../../components/Card';
import { useTranslator } from '../../utils/useTranslator';
import { knownTimeZones, type BudgetForm } from './budgetForm';

interface Props {
  value: BudgetForm;
  /** The narrated content types: each may have a monthly limit of its own. */
  types: ContentTypeDescription[];
  disabled: boolean;
  errorFor: (...path: string[]) => string | undefined;
  onChange: (next: BudgetForm) => void;
}

/**
 * The monthly credit budget: the site's limit, the time zone its months are counted in,
 * and limits of their own for some content types; with the month to date against the saved
 * budget and what waits for it (GET /speech/usage).
 */
export const BudgetCard = ({ value, types, disabled, errorFor, onChange }: Props) => {
  const t = useTranslator();
  const { formatNumber } = useIntl();
  const usageQuery = useGetSpeechUsageQuery(30, { refetchOnMountOrArgChange: true });
  const usageError = problemOf(usageQuery.error);
  const zonesId = React.useId();
  const zones = React.useMemo(() => knownTimeZones(), []);

  return (
    <Card
      testId="speech-budget"
      title={t('budget.title', 'Monthly budget')}
      subtitle={t(
        'budget.subtitle',
        'Narrations that would take the month over its budget wait until the next month, or until someone lets them through.'
      )}
    >
      {usageQuery.data ? (
        <BudgetMeter usage={usageQuery.data} compact />
      ) : usageError ? (
        <Typography variant="pi" textColor="danger600">
          {t('budget.usageError', 'The month’s usage could not be loaded: {message}', { message: usageError.message })}
        </Typography>
      ) : null}
      <Grid.Root gap={6}>
        <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
          <Field.Root
            name="budget.monthlyCredits"
            error={errorFor('monthlyCredits')}
            hint={t('budget.monthlyCreditsHint', 'Leave it empty for no limit.')}
          >
            <Field.Label>{t('budget.monthlyCredits', 'Credits per month')}</Field.Label>
            <NumberInput
              value={value.monthlyCredits ?? undefined}
              step={1000}
              disabled={disabled}
              placeholder={t('budget.noLimit', 'No limit')}
              onValueChange={(next) => onChange({ ...value, monthlyCredits: next ?? null })}
              data-testid="speech-budget-credits"
            />
            <Field.Hint />
            <Field.Error />
          </Field.Root>
        </Grid.Item>
        <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
          <Field.Root
            name="budget.timeZone"
            error={errorFor('timeZone')}
            hint={t('budget.timeZoneHint', 'Months and days are counted in this time zone (IANA name).')}
          >
            <Field.Label>{t('budget.timeZone', 'Time zone')}</Field.Label>
            {/* Latin names whatever the admin's language: keep them left to right. */}
            <TextInput
              value={value.timeZone}
              disabled={disabled}
              dir="ltr"
              list={zonesId}
              autoComplete="off"
              onChange={(event: React.ChangeEvent<HTMLInputElement>) => onChange({ ...value, timeZone: event.target.value })}
              data-testid="speech-budget-time-zone"
            />
            <datalist id={zonesId}>
              {zones.map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
            <Field.Hint />
            <Field.Error />
          </Field.Root>
        </Grid.Item>
      </Grid.Root>
      {types.length ? (
        <Flex direction="column" alignItems="stretch" gap={2}>
          <Typography variant="sigma" textColor="neutral600" tag="h3">
            {t('budget.typesTitle', 'Limits of their own, within the site’s')}
          </Typography>
          <Grid.Root gap={4}>
            {types.map((type) => {
              const spent = usageQuery.data?.budget.contentTypes[type.uid]?.spent;
              return (
                <Grid.Item key={type.uid} col={4} s={6} xs={12} direction="column" alignItems="stretch">
                  <Field.Root
                    name={`budget.contentTypes.${type.uid}`}
                    error={errorFor('contentTypes', type.uid)}
                    hint={
                      spent !== undefined
                        ? t('budget.typeSpent', '{spent} credits spent this month.', { spent: formatNumber(spent) })
                        : t('budget.typeHint', 'Empty: only the site’s budget applies.')
                    }
                  >
                    <Field.Label>{type.displayName}</Field.Label>
                    <NumberInput
                      value={value.contentTypes[type.uid] ?? undefined}
                      step={1000}
                      disabled={disabled}
                      placeholder={t('budget.noLimit', 'No limit')}
                      onValueChange={(next) => onChange({ ...value, contentTypes: { ...value.contentTypes, [type.uid]: next ?? null } })}
                      data-testid={`speech-budget-type-${type.uid}`}
                    />
                    <Field.Hint />
                    <Field.Error />
                  </Field.Root>
                </Grid.Item>
              );
            })}
          </Grid.Root>
        </Flex>
      ) : null}
    </Card>
  );
};
