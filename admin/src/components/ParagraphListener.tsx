import * as React from 'react';
import { Box, Button, Field, Flex, Loader, SingleSelect, SingleSelectOption, Typography } from '@strapi/design-system';
import { Play, VolumeUp } from '@strapi/icons';
import { useAuth, useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { listenParagraph } from '../api/binary';
import { problemOf, toProblem } from '../api/errors';
import { useGetSpeechParagraphsQuery } from '../api/speechApi';
import type { DocumentTarget } from '../api/types';
import { useTranslator, type Translator } from '../utils/useTranslator';

const LABEL_CHARS = 60;

/** "1. The first words of the paragraph…" */
export function paragraphLabel(index: number, text: string): string {
  const oneLine = text.replace(/\s+/gu, ' ').trim();
  const chars = [...oneLine];
  return `${index + 1}. ${
    chars.length > LABEL_CHARS
      ? `${chars
          .slice(0, LABEL_CHARS - 1)
          .join('')
          .trimEnd()}…`
      : oneLine
  }`;
}

interface Props {
  target: DocumentTarget;
  /** Changes when the document is saved or its voice changes: the paragraphs and voice are read again. */
  refreshKey: string;
}

/**
 * "Listen to a paragraph" in the edit view: hear how one paragraph of the current draft sounds in
 * the entry's voice before paying for the whole narration. Closed by default, so opening the edit
 * view costs nothing; the server reads the text itself and caches each (voice, paragraph) answer.
 */
export function ParagraphListener({ target, refreshKey }: Props) {
  const t = useTranslator();
  const [open, setOpen] = React.useState(false);

  if (!open) {
    return (
      <Button fullWidth variant="tertiary" startIcon={<VolumeUp />} data-testid="speech-listen-open" onClick={() => setOpen(true)}>
        {t('listen.open', 'Listen to a paragraph')}
      </Button>
    );
  }
  return <OpenListener target={target} refreshKey={refreshKey} t={t} />;
}

function OpenListener({ target, refreshKey, t }: Props & { t: Translator }) {
  const token = useAuth('SpeechParagraphListener', (auth) => auth.token);
  const { formatNumber } = useIntl();
  const { toggleNotification } = useNotification();
  const paragraphsQuery = useGetSpeechParagraphsQuery({ ...target, refreshKey }, { refetchOnMountOrArgChange: true });
  const draft = { data: paragraphsQuery.data, loading: paragraphsQuery.isLoading, error: problemOf(paragraphsQuery.error) };
  const [index, setIndex] = React.useState(0);
  const [loadingAudio, setLoadingAudio] = React.useState(false);
  const [audioUrl, setAudioUrl] = React.useState<string | null>(null);

  // Object URLs hold the audio in memory until revoked.
  React.useEffect(
    () => () => {
      if (audioUrl) URL.revokeObjectURL(audioUrl);
    },
    [audioUrl]
  );

  const paragraphs = draft.data?.paragraphs ?? [];
  const chosen = paragraphs[index] ?? paragraphs[0];

  const listen = async () => {
    if (!chosen) return;
    setLoadingAudio(true);
    try {
      const blob = await listenParagraph({ ...target, index: chosen.index }, token);
      setAudioUrl(URL.createObjectURL(blob));
    } catch (error) {
      toggleNotification({ type: 'danger', message: toProblem(error).message });
    } finally {
      setLoadingAudio(false);
    }
  };

  if (draft.loading && !draft.data) return <Loader small>{t('listen.loading', 'Reading the paragraphs')}</Loader>;
  if (draft.error && !draft.data) {
    return (
      <Typography variant="pi" textColor="danger600">
        {draft.error.message}
      </Typography>
    );
  }
  if (paragraphs.length === 0) {
    return (
      <Typography variant="pi" textColor="neutral600" data-testid="speech-listen-empty">
        {t('listen.empty', 'There is no text to listen to yet.')}
      </Typography>
    );
  }

  return (
    <Flex direction="column" alignItems="stretch" gap={2} data-testid="speech-listen">
      <Field.Root
        name="speech-listen-paragraph"
        hint={t('listen.hint', '{characters} characters. Speech generation uses credits; each paragraph is paid once per voice.', {
          characters: formatNumber(chosen?.characters ?? 0),
        })}
      >
        <Field.Label>{t('listen.paragraph', 'Paragraph')}</Field.Label>
        <SingleSelect
          size="S"
          value={String(chosen?.index ?? 0)}
          data-testid="speech-listen-select"
          onChange={(value) => {
            setIndex(Number(value));
            setAudioUrl(null);
          }}
        >
          {paragraphs.map((paragraph) => (
            <SingleSelectOption key={paragraph.index} value={String(paragraph.index)}>
              {paragraphLabel(paragraph.index, paragraph.text)}
            </SingleSelectOption>
          ))}
        </SingleSelect>
        <Field.Hint />
      </Field.Root>
      <Button
        variant="secondary"
        size="S"
        startIcon={<Play />}
        loading={loadingAudio}
        onClick={() => void listen()}
        data-testid="speech-listen-play"
      >
        {t('listen.play', 'Listen')}
      </Button>
      {audioUrl ? (
        <Box>
          <audio src={audioUrl} controls autoPlay data-testid="speech-listen-audio" style={{ width: '100%' }} />
        </Box>
      ) : null}
    </Flex>
  );
}
