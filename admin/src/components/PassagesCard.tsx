import * as React from 'react';
import { Box, Flex, SingleSelect, SingleSelectOption, Typography } from '@strapi/design-system';
import { useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { toProblem } from '../api/errors';
import { useGetSpeechPassagesQuery, useSetSpeechPassageVoiceMutation } from '../api/speechApi';
import type { DocumentTarget, PassageView, PassagesResponse, Voice } from '../api/types';
import { useTranslator, type Translator } from '../utils/useTranslator';

interface Props {
  target: DocumentTarget;
  /** Changes when the document is saved or its voice changes: the passages are read again. */
  refreshKey: string;
  voices: Voice[];
  /** The caller may narrate: then each passage's voice can be chosen. */
  canChoose: boolean;
  dir: 'ltr' | 'rtl';
}

/** Automatic: the rules choose (docs/passage-voices.md). */
const AUTOMATIC = '__automatic__';
const EXCERPT_CHARACTERS = 90;

/** "Arabic", in the editor's language; the code when Intl cannot name it. */
function languageName(code: string, displayLocale: string): string {
  try {
    return new Intl.DisplayNames([displayLocale, 'en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

const excerpt = (text: string) => {
  const characters = [...text.replace(/\s+/gu, ' ').trim()];
  return characters.length > EXCERPT_CHARACTERS ? `${characters.slice(0, EXCERPT_CHARACTERS - 1).join('')}…` : characters.join('');
};

/** "3 voices: Arabic (v-ar), English (v-en) for 2 passages": the article's voice first, the others with their passages. */
function summaryOf(data: PassagesResponse, t: Translator, displayLocale: string): string {
  const languageOf = new Map<string, string>();
  for (const passage of data.passages) if (!languageOf.has(passage.voiceId)) languageOf.set(passage.voiceId, passage.language);
  const voices = data.voices.map(({ voiceId, passages }) => {
    const named = `${languageName(languageOf.get(voiceId) ?? '', displayLocale)} (${voiceId})`;
    return voiceId === data.voiceId
      ? named
      : t('passages.voiceFor', '{voice} for {count, plural, one {# passage} other {# passages}}', { voice: named, count: passages });
  });
  return t('passages.summary', '{count, plural, one {# voice} other {# voices}}: {voices}', {
    count: data.voices.length,
    // The list in the editor's language ("A, B" in English, "A، وB" in Arabic).
    voices: new Intl.ListFormat(displayLocale, { type: 'unit', style: 'short' }).format(voices),
  });
}

/**
 * Passage voices in the edit view: which voice reads each paragraph of the draft, in which
 * language, and why; an editor may choose another voice for one passage (narrated at the next
 * publish: that passage's part alone is paid). Nothing shows for a type without passage voices.
 */
export function PassagesCard({ target, refreshKey, voices, canChoose, dir }: Props) {
  const t = useTranslator();
  const { locale: displayLocale } = useIntl();
  const { toggleNotification } = useNotification();
  const passages = useGetSpeechPassagesQuery({ ...target, refreshKey }, { refetchOnMountOrArgChange: true });
  const [setPassageVoice, { isLoading: saving }] = useSetSpeechPassageVoiceMutation();
  const data = passages.data;
  if (!data?.passageVoices || data.passages.length === 0) return null;

  const choose = async (passage: PassageView, value: string) => {
    const voiceId = value === AUTOMATIC ? null : value;
    try {
      await setPassageVoice({ ...target, passageKey: passage.key, voiceId }).unwrap();
      toggleNotification({ type: 'success', message: t('passages.saved', 'Voice saved: it is narrated at the next publish.') });
    } catch (error) {
      toggleNotification({ type: 'danger', message: toProblem(error).message });
    }
  };

  const reason = (passage: PassageView) =>
    ({
      article: t('passages.reason.article', 'the article voice'),
      language: t('passages.reason.language', 'its language'),
      quote: t('passages.reason.quote', 'a quote'),
      editor: t('passages.reason.editor', 'chosen by an editor'),
      surrounding: t('passages.reason.surrounding', 'too short: the voice around it'),
      'no-voice': t('passages.reason.noVoice', 'no voice for its language'),
    })[passage.reason];

  return (
    <Flex direction="column" alignItems="stretch" gap={2} data-testid="speech-passages" dir={dir}>
      <Typography variant="sigma" textColor="neutral600">
        {t('passages.title', 'Voices of the passages')}
      </Typography>
      <Typography variant="pi" data-testid="speech-passages-summary">
        {summaryOf(data, t, displayLocale)}
      </Typography>
      {data.unvoicedLanguages.length > 0 ? (
        <Typography variant="pi" textColor="warning600" data-testid="speech-passages-unvoiced">
          {t('passages.unvoiced', 'No voice is set for {languages}: those passages are read by the article voice.', {
            languages: data.unvoicedLanguages.map((code) => languageName(code, displayLocale)).join(', '),
          })}
        </Typography>
      ) : null}
      {data.passages.map((passage, index) => (
        <Box key={`${passage.key}-${index}`} padding={2} hasRadius background="neutral100" data-testid={`speech-passage-${index}`}>
          <Flex direction="column" alignItems="stretch" gap={1}>
            <Typography variant="omega" dir="auto" data-testid="speech-passage-text">
              {excerpt(passage.text)}
            </Typography>
            <Typography variant="pi" textColor="neutral600" data-testid="speech-passage-voice">
              {t('passages.readBy', '{language} · read by {voice} ({reason})', {
                language: languageName(passage.language, displayLocale),
                voice: passage.voiceId,
                reason: reason(passage),
              })}
            </Typography>
            {canChoose ? (
              <SingleSelect
                size="S"
                aria-label={t('passages.choose', 'Voice of this passage')}
                value={passage.reason === 'editor' ? passage.voiceId : AUTOMATIC}
                disabled={saving}
                data-testid={`speech-passage-select-${index}`}
                onChange={(value) => void choose(passage, String(value))}
              >
                <SingleSelectOption value={AUTOMATIC}>{t('passages.automatic', 'Automatic')}</SingleSelectOption>
                {voices.map((voice) => (
                  <SingleSelectOption key={voice.id} value={voice.id}>
                    {voice.language ? `${voice.name} (${voice.language})` : voice.name}
                  </SingleSelectOption>
                ))}
              </SingleSelect>
            ) : null}
          </Flex>
        </Box>
      ))}
    </Flex>
  );
}
