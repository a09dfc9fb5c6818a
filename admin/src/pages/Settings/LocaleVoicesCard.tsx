import { Grid, Typography } from '@strapi/design-system';
import type { ApiProblem } from '../../api/errors';
import type { Voice, VoiceCheck } from '../../api/types';
import { WarningNotice } from '../../components/WarningNotice';
import { useTranslator } from '../../utils/useTranslator';
import { Card } from '../../components/Card';
import { localeVoiceCheck, voicesForLocale } from './localeVoices';
import { VoicePicker } from './VoicePicker';

interface Props {
  locales: string[];
  value: Record<string, string>;
  defaultVoiceId: string;
  voices: Voice[] | undefined;
  loading: boolean;
  error: ApiProblem | null;
  savedChecks: Record<string, VoiceCheck | null> | undefined;
  disabled: boolean;
  preview: boolean;
  onChange: (next: Record<string, string>) => void;
  /** The quote voice of each locale, shown while a type reads passages in their own voices (docs/passage-voices.md). */
  quoteVoices?: Record<string, string>;
  onQuoteVoicesChange?: (next: Record<string, string>) => void;
}

/** Settings -> Speech, "Voices by language": the voice each site locale's articles are read in. */
export const LocaleVoicesCard = ({
  locales,
  value,
  defaultVoiceId,
  voices,
  loading,
  error,
  savedChecks,
  disabled,
  preview,
  onChange,
  quoteVoices,
  onQuoteVoicesChange,
}: Props) => {
  const t = useTranslator();

  return (
    <Card
      testId="speech-locale-voices"
      title={t('localeVoices.title', 'Voices by language')}
      subtitle={t('localeVoices.subtitle', 'The voice each language is read in. An entry with its own voice keeps it.')}
    >
      {locales.length === 0 ? (
        <Typography textColor="neutral600">
          {t('localeVoices.none', 'This site has no locales: every article is read in the default voice.')}
        </Typography>
      ) : (
        <Grid.Root gap={6}>
          {locales.map((locale) => {
            const chosen = value[locale] ?? '';
            const check = localeVoiceCheck(locale, value, defaultVoiceId, voices, savedChecks);
            return (
              <Grid.Item key={locale} col={6} s={12} direction="column" alignItems="stretch" data-testid={`speech-locale-voice-${locale}`}>
                <VoicePicker
                  name={`localeVoices.${locale}`}
                  testId={`speech-locale-voice-${locale}`}
                  label={t('localeVoices.label', 'Voice for {locale}', { locale })}
                  hint={t(
                    'localeVoices.hint',
                    'Type to search. Voices of this language are listed when the voice list says their language.'
                  )}
                  emptyLabel={t('localeVoices.default', 'The default voice')}
                  value={chosen}
                  voices={voices ? voicesForLocale(voices, locale, chosen) : undefined}
                  loading={loading}
                  error={error}
                  disabled={disabled}
                  preview={preview}
                  onChange={(voiceId) => onChange({ ...value, [locale]: voiceId })}
                  warning={
                    check?.mismatch ? (
                      <WarningNotice testId={`speech-locale-voice-warning-${locale}`}>
                        {t('localeVoices.mismatch', 'This voice speaks {language}, not the language of {locale} articles.', {
                          language: <bdi key="language">{check.language}</bdi>,
                          locale: <bdi key="locale">{locale}</bdi>,
                        })}
                      </WarningNotice>
                    ) : null
                  }
                />
                {quoteVoices && onQuoteVoicesChange ? (
                  <VoicePicker
                    name={`quoteVoices.${locale}`}
                    testId={`speech-quote-voice-${locale}`}
                    label={t('localeVoices.quoteLabel', 'Quote voice for {locale}', { locale })}
                    hint={t('localeVoices.quoteHint', 'Reads the quotes of types that read each passage in its own voice.')}
                    emptyLabel={t('localeVoices.quoteDefault', 'The article voice')}
                    value={quoteVoices[locale] ?? ''}
                    voices={voices ? voicesForLocale(voices, locale, quoteVoices[locale] ?? '') : undefined}
                    loading={loading}
                    error={error}
                    disabled={disabled}
                    preview={preview}
                    onChange={(voiceId) => onQuoteVoicesChange({ ...quoteVoices, [locale]: voiceId })}
                  />
                ) : null}
              </Grid.Item>
            );
          })}
        </Grid.Root>
      )}
    </Card>
  );
};
