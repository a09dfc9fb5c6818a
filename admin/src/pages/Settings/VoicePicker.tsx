import * as React from 'react';
import { Combobox, ComboboxOption, Field, Flex, IconButton } from '@strapi/design-system';
import { Play } from '@strapi/icons';
import type { ApiProblem } from '../../api/errors';
import { previewVoice } from '../../api/binary';
import { useSamplePlayer } from '../../api/hooks';
import type { Voice } from '../../api/types';
import { useComboboxText } from '../../components/comboboxText';
import { useTranslator } from '../../utils/useTranslator';

interface Props {
  value: string;
  voices: Voice[] | undefined;
  loading: boolean;
  error: ApiProblem | null;
  disabled: boolean;
  fieldError?: string;
  /** Announced by the server (features.voicePreview); without it there is no play button. */
  preview: boolean;
  onChange: (voiceId: string) => void;
  /** For a picker other than the default voice's (voices by language). */
  name?: string;
  label?: string;
  hint?: string;
  testId?: string;
  /** Offers "no voice of its own" (the value '') under this label. */
  emptyLabel?: string;
  /** Shown under the field (a voice of another language). */
  warning?: React.ReactNode;
}

/** Combobox values cannot be empty: the "no voice of its own" option goes by this one. */
const NO_VOICE = '__none__';

export function voiceLabel(voice: Voice): string {
  return voice.language ? `${voice.name} · ${voice.language}` : voice.name;
}

export const VoicePicker = ({
  value,
  voices,
  loading,
  error,
  disabled,
  fieldError,
  preview,
  onChange,
  name = 'defaultVoiceId',
  label,
  hint: ownHint,
  testId = 'speech-voice',
  emptyLabel,
  warning,
}: Props) => {
  const player = useSamplePlayer('SpeechVoicePicker');
  const previewState = player.stateOf(value);
  const t = useTranslator();

  // Keep the saved voice choosable even when the list failed or no longer has it.
  const options = React.useMemo(() => {
    const list = voices ?? [];
    return value && !list.some((voice) => voice.id === value) ? [{ id: value, name: value }, ...list] : list;
  }, [voices, value]);

  // The input shows the chosen voice's name, also when the list arrives after the value.
  const labelOf = React.useCallback(
    (id: string) => {
      if (!id && emptyLabel) return emptyLabel;
      const voice = options.find((candidate) => candidate.id === id);
      return voice ? voiceLabel(voice) : id;
    },
    [options, emptyLabel]
  );
  const [text, setText] = useComboboxText(labelOf(value));

  const play = () => {
    if (value) void player.play(value, (token) => previewVoice(value, token));
  };

  const hint = error
    ? t('voices.error', 'The voice list could not be loaded: {message}', { message: error.message })
    : (ownHint ?? t('voices.hint', 'Type to search by name or language. Used for every narration unless an entry has its own voice.'));

  return (
    <Field.Root name={name} error={fieldError} hint={hint} data-testid={`${testId}-field`}>
      <Field.Label>{label ?? t('voices.label', 'Default voice')}</Field.Label>
      <Flex gap={2} alignItems="flex-start">
        <div style={{ flex: 1, minWidth: 0 }}>
          <Combobox
            value={value || (emptyLabel ? NO_VOICE : undefined)}
            textValue={text}
            onTextValueChange={setText}
            onChange={(next) => {
              if (next === NO_VOICE) onChange('');
              else if (next) onChange(String(next));
              else setText(labelOf(value));
            }}
            loading={loading}
            disabled={disabled}
            placeholder={t('voices.placeholder', 'Choose a voice')}
            noOptionsMessage={() => t('voices.none', 'No voice matches')}
            loadingMessage={t('voices.loading', 'Loading voices')}
            autocomplete={{ type: 'list', filter: 'contains' }}
            data-testid={`${testId}-combobox`}
          >
            {emptyLabel ? (
              <ComboboxOption value={NO_VOICE} textValue={emptyLabel}>
                {emptyLabel}
              </ComboboxOption>
            ) : null}
            {options.map((voice) => (
              <ComboboxOption key={voice.id} value={voice.id} textValue={voiceLabel(voice)}>
                {voiceLabel(voice)}
              </ComboboxOption>
            ))}
          </Combobox>
        </div>
        {preview ? (
          <IconButton
            label={t('voices.preview', 'Play a sample')}
            onClick={play}
            disabled={!value || previewState === 'loading'}
            variant="secondary"
            data-testid={`${testId}-preview`}
            data-state={previewState}
          >
            <Play />
          </IconButton>
        ) : null}
      </Flex>
      {warning}
      <Field.Hint />
      <Field.Error />
    </Field.Root>
  );
};
