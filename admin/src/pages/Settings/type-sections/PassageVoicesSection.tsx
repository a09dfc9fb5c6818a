import { useTranslator } from '../../../utils/useTranslator';
import { CheckboxField } from './CheckboxField';
import type { TypeSectionProps } from './section';

/** Passage voices (docs/passage-voices.md): each paragraph in the voice of its language. */
export function PassageVoicesSection({ type, form, disabled, update }: TypeSectionProps) {
  const t = useTranslator();
  return (
    <CheckboxField
      name={`${type.uid}.passageVoices`}
      label={t('types.passageVoices', 'Read each passage in the voice of its language')}
      hint={t(
        'types.passageVoicesHint',
        'A paragraph in another language is read by the voice of its language, a quote by the quote voice. Voice changes become parts: the cost stays the characters read.'
      )}
      checked={form.passageVoices}
      disabled={disabled}
      onChange={(passageVoices) => update({ passageVoices })}
      testId={`speech-type-passage-voices-${type.uid}`}
    />
  );
}
