import * as React from 'react';
import { Combobox, ComboboxOption, Field, Flex, IconButton } from '@strapi/design-system';
import { Play } from '@strapi/icons';
import { useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { toProblem, type ApiProblem } from '../../api/errors';
import { previewVoice } from '../../api/binary';
import { useAdminToken } from '../../api/hooks';
import type { Voice } from '../../api/types';
import { useComboboxText } from '../../components/comboboxText';
import { getTranslation } from '../../utils/getTranslation';

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
}

export function voiceLabel(voice: Voice): string {
  return voice.language ? `${voice.name} · ${voice.language}` : voice.name;
}

export const VoicePicker = ({ value, voices, loading, error, disabled, fieldError, preview, onChange }: Props) => {
  const { formatMessage } = useIntl();
  const { toggleNotification } = useNotification();
  const tokens = useAdminToken('SpeechVoicePicker');
  const [previewState, setPreviewState] = React.useState<'idle' | 'loading' | 'playing' | 'error'>('idle');
  const audio = React.useRef<HTMLAudioElement | null>(null);
  const t = (id: string, defaultMessage: string, values?: Record<string, unknown>) =>
    formatMessage({ id: getTranslation(id), defaultMessage }, values as never) as string;

  // Keep the saved voice choosable even when the list failed or no longer has it.
  const options = React.useMemo(() => {
    const list = voices ?? [];
    return value && !list.some((voice) => voice.id === value) ? [{ id: value, name: value }, ...list] : list;
  }, [voices, value]);

  // The input shows the chosen voice's name, also when the list arrives after the value.
  const labelOf = React.useCallback(
    (id: string) => {
      const voice = options.find((candidate) => candidate.id === id);
      return voice ? voiceLabel(voice) : id;
    },
    [options]
  );
  const [text, setText] = useComboboxText(labelOf(value));

  React.useEffect(
    () => () => {
      audio.current?.pause();
      if (audio.current?.src.startsWith('blob:')) URL.revokeObjectURL(audio.current.src);
    },
    []
  );

  const play = async () => {
    if (!value) return;
    setPreviewState('loading');
    try {
      const blob = await previewVoice(value, tokens);
      audio.current?.pause();
      if (audio.current?.src.startsWith('blob:')) URL.revokeObjectURL(audio.current.src);
      const sample = new Audio(URL.createObjectURL(blob));
      audio.current = sample;
      sample.addEventListener('ended', () => setPreviewState('idle'));
      await sample.play();
      setPreviewState('playing');
    } catch (caught) {
      setPreviewState('error');
      toggleNotification({ type: 'danger', message: toProblem(caught).message });
    }
  };

  const hint = error
    ? t('voices.error', 'The voice list could not be loaded: {message}', { message: error.message })
    : t('voices.hint', 'Type to search by name or language. Used for every narration unless an entry has its own voice.');

  return (
    <Field.Root name="defaultVoiceId" error={fieldError} hint={hint} data-testid="speech-voice-field">
      <Field.Label>{t('voices.label', 'Default voice')}</Field.Label>
      <Flex gap={2} alignItems="flex-start">
        <div style={{ flex: 1, minWidth: 0 }}>
          <Combobox
            value={value || undefined}
            textValue={text}
            onTextValueChange={setText}
            onChange={(next) => {
              if (next) onChange(String(next));
              else setText(labelOf(value));
            }}
            loading={loading}
            disabled={disabled}
            placeholder={t('voices.placeholder', 'Choose a voice')}
            noOptionsMessage={() => t('voices.none', 'No voice matches')}
            loadingMessage={t('voices.loading', 'Loading voices')}
            autocomplete={{ type: 'list', filter: 'contains' }}
            data-testid="speech-voice-combobox"
          >
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
            onClick={() => void play()}
            disabled={!value || previewState === 'loading'}
            variant="secondary"
            data-testid="speech-voice-preview"
            data-state={previewState}
          >
            <Play />
          </IconButton>
        ) : null}
      </Flex>
      <Field.Hint />
      <Field.Error />
    </Field.Root>
  );
};
