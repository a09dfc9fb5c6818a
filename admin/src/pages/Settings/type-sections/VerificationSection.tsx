import { Field, Grid, SingleSelect, SingleSelectOption } from '@strapi/design-system';
import { useTranslator, type Translator } from '../../../utils/useTranslator';
import { CheckboxField } from './CheckboxField';
import type { TypeSectionProps } from './section';

/** Verified narration (docs/verification.md): whether each narration is checked, and what a mismatch does. */
export function VerificationSection({ type, form, disabled, update, regenerateCredits }: TypeSectionProps) {
  const t = useTranslator();
  return (
    <>
      <CheckboxField
        name={`${type.uid}.verify`}
        label={t('types.verify', 'Check each narration by listening to it')}
        hint={t('types.verifyHint', 'Each stored narration is sent to speech to text and compared with the text that was read.')}
        checked={form.verify}
        disabled={disabled}
        onChange={(verify) => update({ verify })}
        testId={`speech-type-verify-${type.uid}`}
      />
      {form.verify ? (
        <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
          <Field.Root name={`${type.uid}.verification.onMismatch`} hint={mismatchHint(t, form, regenerateCredits)}>
            <Field.Label>{t('types.onMismatch', 'When a check finds a difference')}</Field.Label>
            <SingleSelect
              size="S"
              value={form.onMismatch}
              disabled={disabled}
              onChange={(next) => update({ onMismatch: next === 'regenerate' ? 'regenerate' : 'flag' })}
              data-testid={`speech-type-on-mismatch-${type.uid}`}
            >
              <SingleSelectOption value="flag">{t('types.onMismatch.flag', 'Only flag it')}</SingleSelectOption>
              <SingleSelectOption value="regenerate">
                {t('types.onMismatch.regenerate', 'Narrate the article again, once (paid)')}
              </SingleSelectOption>
            </SingleSelect>
            <Field.Hint />
          </Field.Root>
        </Grid.Item>
      ) : null}
    </>
  );
}

/** What the chosen answer to a mismatch costs: nothing, or a regenerate (of the parts that differed, in parts). */
function mismatchHint(t: Translator, form: TypeSectionProps['form'], regenerateCredits: number | null): string {
  if (form.onMismatch !== 'regenerate')
    return t('types.onMismatchFlag', 'The narration stays ready; the edit view and the list show the places.');
  if (regenerateCredits == null)
    return t('types.onMismatchCostUnknown', "Paid like a regenerate: the article's characters in credits, within the budget.");
  return form.narrationMode === 'segmented'
    ? t(
        'types.onMismatchCostParts',
        'Paid like a regenerate of the parts that differed, the others kept: at most about {credits} credits for an article of average length here, within the budget.',
        { credits: regenerateCredits }
      )
    : t(
        'types.onMismatchCost',
        'Paid like a regenerate: about {credits} credits for an article of average length here, within the budget.',
        {
          credits: regenerateCredits,
        }
      );
}
