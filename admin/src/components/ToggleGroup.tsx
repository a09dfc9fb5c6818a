import { Button, Flex, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { useTranslator } from '../utils/useTranslator';

interface Props<T extends string | number> {
  label: string;
  value: T;
  options: Array<{ value: T; label: string }>;
  onChange: (value: T) => void;
  testId: string;
}

/** A few mutually exclusive choices as buttons (the pressed one says so to assistive technology). */
export function ToggleGroup<T extends string | number>({ label, value, options, onChange, testId }: Props<T>) {
  return (
    <Flex gap={2} alignItems="center" role="group" aria-label={label} data-testid={testId}>
      <Typography variant="pi" textColor="neutral600" aria-hidden>
        {label}
      </Typography>
      {options.map((option) => (
        <Button
          key={option.value}
          size="S"
          variant={option.value === value ? 'secondary' : 'tertiary'}
          aria-pressed={option.value === value}
          data-value={option.value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </Button>
      ))}
    </Flex>
  );
}

/** The period of a page of figures, in days (`30 days`, `٣٠ يومًا`). */
export function PeriodToggle<T extends number>({
  periods,
  value,
  onChange,
  testId,
}: {
  periods: readonly T[];
  value: T;
  onChange: (value: T) => void;
  testId: string;
}) {
  const t = useTranslator();
  const { formatNumber } = useIntl();
  return (
    <ToggleGroup
      label={t('usage.period.label', 'Period')}
      value={value}
      onChange={onChange}
      testId={testId}
      options={periods.map((period) => ({ value: period, label: t('usage.period.days', '{days} days', { days: formatNumber(period) }) }))}
    />
  );
}
