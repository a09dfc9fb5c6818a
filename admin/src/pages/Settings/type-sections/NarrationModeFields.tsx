import { Field, Grid, NumberInput, SingleSelect, SingleSelectOption } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { DEFAULT_SEGMENT_CHARACTERS, MAX_SEGMENT_CHARACTERS, MIN_SEGMENT_CHARACTERS, type NarrationMode } from '../../../api/types';
import { useTranslator } from '../../../utils/useTranslator';
import type { TypeForm } from './type-form';

/** Steps of the part size's arrows: a sentence or two. */
const SIZE_STEP = 100;

/**
 * A narrated type's mode (whole, or in parts) and, in parts, its own longest part. The size field
 * left empty takes the global size, shown as its placeholder.
 */
export function NarrationModeFields({
  uid,
  form,
  globalSize,
  disabled,
  errors,
  onChange,
}: {
  uid: string;
  form: TypeForm;
  /** The size in effect for every type without its own (the global field as edited). */
  globalSize: number | null | undefined;
  disabled: boolean;
  errors: { narrationMode?: string; segmentCharacters?: string };
  onChange: (patch: Pick<Partial<TypeForm>, 'narrationMode' | 'segmentCharacters'>) => void;
}) {
  const { formatNumber } = useIntl();
  const t = useTranslator();
  return (
    <>
      <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
        <Field.Root
          name={`${uid}.narrationMode`}
          error={errors.narrationMode}
          hint={
            form.narrationMode === 'segmented'
              ? t('types.segmentedHint', 'Narrated part by part and joined into one file: an edit pays only for the parts it changes.')
              : t('types.wholeHint', 'Narrated in one request. Long articles are better narrated in parts.')
          }
        >
          <Field.Label>{t('types.narrationMode', 'Narration mode')}</Field.Label>
          <SingleSelect
            value={form.narrationMode}
            disabled={disabled}
            onChange={(next) => onChange({ narrationMode: (next === 'segmented' ? 'segmented' : 'whole') satisfies NarrationMode })}
            data-testid={`speech-type-mode-${uid}`}
          >
            <SingleSelectOption value="whole">{t('types.modeWhole', 'Whole article')}</SingleSelectOption>
            <SingleSelectOption value="segmented">{t('types.modeSegmented', 'In parts')}</SingleSelectOption>
          </SingleSelect>
          <Field.Hint />
          <Field.Error />
        </Field.Root>
      </Grid.Item>
      {form.narrationMode === 'segmented' ? (
        <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
          <Field.Root
            name={`${uid}.segmentCharacters`}
            error={errors.segmentCharacters}
            hint={t('types.segmentHint', 'Empty: the size for every type ({size} characters).', {
              size: formatNumber(globalSize ?? DEFAULT_SEGMENT_CHARACTERS),
            })}
          >
            <Field.Label>{t('types.segmentCharacters', 'Longest part (characters)')}</Field.Label>
            <NumberInput
              value={form.segmentCharacters ?? undefined}
              step={SIZE_STEP}
              disabled={disabled}
              placeholder={formatNumber(globalSize ?? DEFAULT_SEGMENT_CHARACTERS)}
              onValueChange={(value) => onChange({ segmentCharacters: value ?? null })}
              data-testid={`speech-type-segment-${uid}`}
            />
            <Field.Hint />
            <Field.Error />
          </Field.Root>
        </Grid.Item>
      ) : null}
    </>
  );
}

/** The longest part of every type narrated in parts without a size of its own. */
export function GlobalSegmentField({
  value,
  disabled,
  error,
  onChange,
}: {
  value: number | null;
  disabled: boolean;
  error?: string;
  onChange: (value: number | null) => void;
}) {
  const { formatNumber } = useIntl();
  const t = useTranslator();
  return (
    <Field.Root
      name="segmentCharacters"
      error={error}
      hint={t(
        'types.globalSegmentHint',
        'For every type narrated in parts without a size of its own, from {min} to {max}. Shorter parts make an edit cheaper; longer ones take fewer requests.',
        { min: formatNumber(MIN_SEGMENT_CHARACTERS), max: formatNumber(MAX_SEGMENT_CHARACTERS) }
      )}
    >
      <Field.Label>{t('types.globalSegmentCharacters', 'Longest part of a narration in parts (characters)')}</Field.Label>
      <NumberInput
        value={value ?? undefined}
        step={SIZE_STEP}
        disabled={disabled}
        placeholder={formatNumber(DEFAULT_SEGMENT_CHARACTERS)}
        onValueChange={(next) => onChange(next ?? null)}
        data-testid="speech-segment-characters"
      />
      <Field.Hint />
      <Field.Error />
    </Field.Root>
  );
}
