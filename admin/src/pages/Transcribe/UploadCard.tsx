import * as React from 'react';
import { Box, Button, Combobox, ComboboxOption, Field, Flex, Grid, ProgressBar, Radio, Typography } from '@strapi/design-system';
import { Microphone, Upload } from '@strapi/icons';
import { useAuth } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { styled } from 'styled-components';
import { isAbort, toProblem } from '../../api/errors';
import { uploadAudio } from '../../api/transcriptionFiles';
import {
  DEFAULT_TRANSCRIPTION_LANGUAGE,
  MAX_TRANSCRIPTION_UPLOAD_BYTES,
  type TranscriptionOutputFormat,
  type TranscriptionView,
} from '../../api/types';
import { useComboboxText } from '../../components/comboboxText';
import { useTranslator } from '../../utils/useTranslator';
import { Card } from '../../components/Card';
import { LANGUAGES, checkAudioFile, formatBytes, languageLabel, uploadPercent, type FileProblem } from './utils';

/**
 * The design system's bar is white on dark grey (made for overlays); on a white card the upload
 * reads better in the primary colour. Mirrored in right-to-left layouts so it fills from the start.
 */
const UploadBar = styled(ProgressBar)`
  width: 100%;
  background-color: ${({ theme }) => theme.colors.neutral150};
  & > div {
    background-color: ${({ theme }) => theme.colors.primary600};
  }
  [dir='rtl'] & {
    transform: scaleX(-1) translateZ(0);
  }
`;

type Phase = 'idle' | 'uploading' | 'forwarding' | 'done' | 'error';

interface Props {
  disabled?: boolean;
  onSubmitted: (job: TranscriptionView) => void;
}

export const UploadCard = ({ disabled = false, onSubmitted }: Props) => {
  const { locale } = useIntl();
  const t = useTranslator();
  // The upload (XMLHttpRequest, for its progress) carries the admin token itself.
  const token = useAuth('SpeechUploadCard', (auth) => auth.token);
  const input = React.useRef<HTMLInputElement | null>(null);
  const abort = React.useRef<AbortController | null>(null);
  const [file, setFile] = React.useState<File | null>(null);
  const [fileProblem, setFileProblem] = React.useState<FileProblem>(null);
  const [dragging, setDragging] = React.useState(false);
  const [language, setLanguage] = React.useState<string>(DEFAULT_TRANSCRIPTION_LANGUAGE);
  const labelOf = React.useCallback((code: string) => languageLabel(code, locale), [locale]);
  const [languageText, setLanguageText] = useComboboxText(labelOf(language));
  const [outputFormat, setOutputFormat] = React.useState<TranscriptionOutputFormat>('json');
  const [phase, setPhase] = React.useState<Phase>('idle');
  const [progress, setProgress] = React.useState({ loaded: 0, total: 0 });
  const [uploadError, setUploadError] = React.useState<string | null>(null);

  React.useEffect(() => () => abort.current?.abort(), []);

  const busy = phase === 'uploading' || phase === 'forwarding';

  const choose = (chosen: File | null | undefined) => {
    if (!chosen || busy) return;
    setFile(chosen);
    setFileProblem(checkAudioFile(chosen));
    setUploadError(null);
    setPhase('idle');
    setProgress({ loaded: 0, total: chosen.size });
  };

  const problemText = (problem: FileProblem, chosen: File | null): string | null => {
    switch (problem) {
      case 'tooLarge':
        return t('transcribe.file.tooLarge', 'This file is {size}: the limit is {max}. Choose a shorter or more compressed recording.', {
          size: formatBytes(chosen?.size),
          max: formatBytes(MAX_TRANSCRIPTION_UPLOAD_BYTES),
        });
      case 'empty':
        return t('transcribe.file.empty', 'This file is empty.');
      case 'notAudio':
        return t('transcribe.file.notAudio', 'This is not an audio file. Choose an audio recording (MP3, WAV, M4A, OGG…).');
      default:
        return null;
    }
  };

  const upload = async () => {
    if (!file || fileProblem || busy) return;
    const controller = new AbortController();
    abort.current = controller;
    setUploadError(null);
    setPhase('uploading');
    setProgress({ loaded: 0, total: file.size });
    try {
      const job = await uploadAudio(
        {
          file,
          language,
          outputFormat,
          signal: controller.signal,
          onProgress: (next) => setProgress(next),
          onUploaded: () => {
            setProgress((current) => ({ loaded: current.total || file.size, total: current.total || file.size }));
            setPhase('forwarding');
          },
        },
        token
      );
      setProgress({ loaded: file.size, total: file.size });
      setPhase('done');
      onSubmitted(job);
    } catch (error) {
      if (isAbort(error)) {
        setPhase('idle');
        return;
      }
      const problem = toProblem(error);
      setPhase('error');
      if (problem.code === 'PAYLOAD_TOO_LARGE') {
        setUploadError(problemText('tooLarge', file));
      } else {
        setUploadError(t('transcribe.upload.failed', 'The upload failed: {message}', { message: problem.message }));
      }
    } finally {
      abort.current = null;
    }
  };

  const percent = uploadPercent(progress.loaded, progress.total);
  const fileMessage = problemText(fileProblem, file);
  const showProgress = phase !== 'idle' && !(phase === 'error' && progress.loaded === 0);

  return (
    <Card
      testId="transcribe-upload"
      title={t('transcribe.upload.title', 'New transcription')}
      subtitle={t('transcribe.upload.subtitle', 'An audio file of up to 50 MB. The speech service returns a timed transcript.')}
    >
      <Box
        data-testid="transcribe-dropzone"
        data-dragging={dragging}
        role="group"
        aria-label={t('transcribe.dropzone.label', 'Audio file')}
        background={dragging ? 'primary100' : 'neutral100'}
        hasRadius
        padding={6}
        style={{
          borderStyle: 'dashed',
          borderWidth: 2,
          borderColor: dragging ? 'var(--strapi-primary600, #4945ff)' : 'var(--strapi-neutral300, #dcdce4)',
          textAlign: 'center',
        }}
        onDragEnter={(event: React.DragEvent) => {
          event.preventDefault();
          if (!disabled && !busy) setDragging(true);
        }}
        onDragOver={(event: React.DragEvent) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = disabled || busy ? 'none' : 'copy';
        }}
        onDragLeave={(event: React.DragEvent) => {
          if (!(event.currentTarget as HTMLElement).contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={(event: React.DragEvent) => {
          event.preventDefault();
          setDragging(false);
          if (!disabled) choose(event.dataTransfer.files?.[0]);
        }}
      >
        <Flex direction="column" alignItems="center" gap={3}>
          <Microphone width="3.2rem" height="3.2rem" aria-hidden />
          <Typography variant="omega" textColor="neutral700">
            {t('transcribe.dropzone.hint', 'Drag and drop an audio file here, or')}
          </Typography>
          <Button
            variant="secondary"
            startIcon={<Upload />}
            onClick={() => input.current?.click()}
            disabled={disabled || busy}
            data-testid="transcribe-pick"
          >
            {t('transcribe.dropzone.pick', 'Choose a file')}
          </Button>
          <input
            ref={input}
            type="file"
            accept="audio/*"
            hidden
            data-testid="transcribe-file-input"
            onChange={(event) => {
              choose(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          {file ? (
            <Typography
              variant="pi"
              fontWeight="bold"
              textColor="neutral800"
              data-testid="transcribe-file-name"
              style={{ overflowWrap: 'anywhere' }}
            >
              {`${file.name} (${formatBytes(file.size)})`}
            </Typography>
          ) : null}
          {fileMessage ? (
            <Typography variant="pi" textColor="danger600" data-testid="transcribe-file-error" role="alert">
              {fileMessage}
            </Typography>
          ) : null}
        </Flex>
      </Box>

      <Grid.Root gap={6}>
        <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
          <Field.Root name="language" hint={t('transcribe.language.hint', 'The language spoken in the recording. Type to search.')}>
            <Field.Label>{t('transcribe.language.label', 'Language')}</Field.Label>
            <Combobox
              value={language}
              textValue={languageText}
              onTextValueChange={setLanguageText}
              onChange={(next) => {
                if (next) setLanguage(String(next));
                else setLanguageText(labelOf(language));
              }}
              disabled={disabled || busy}
              autocomplete={{ type: 'list', filter: 'contains' }}
              noOptionsMessage={() => t('transcribe.language.none', 'No language matches')}
              data-testid="transcribe-language"
            >
              {LANGUAGES.map((code) => (
                <ComboboxOption key={code} value={code} textValue={labelOf(code)}>
                  {labelOf(code)}
                </ComboboxOption>
              ))}
            </Combobox>
            <Field.Hint />
          </Field.Root>
        </Grid.Item>
        <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
          <Field.Root name="output_format" hint={t('transcribe.format.hint', 'Both can be downloaded as SRT, WebVTT or JSON afterwards.')}>
            <Field.Label>{t('transcribe.format.label', 'Output format')}</Field.Label>
            <Radio.Group
              value={outputFormat}
              onValueChange={(value) => setOutputFormat(value === 'srt' ? 'srt' : 'json')}
              disabled={disabled || busy}
              aria-label={t('transcribe.format.label', 'Output format')}
              data-testid="transcribe-format"
            >
              <Radio.Item value="json">{t('transcribe.format.json', 'JSON (timed segments)')}</Radio.Item>
              <Radio.Item value="srt">{t('transcribe.format.srt', 'SRT subtitles')}</Radio.Item>
            </Radio.Group>
            <Field.Hint />
          </Field.Root>
        </Grid.Item>
      </Grid.Root>

      <Flex gap={4} alignItems="center" wrap="wrap">
        <Button
          startIcon={<Upload />}
          onClick={() => void upload()}
          disabled={disabled || !file || Boolean(fileProblem) || busy}
          loading={busy}
          data-testid="transcribe-submit"
        >
          {t('transcribe.upload.button', 'Upload and transcribe')}
        </Button>
        {busy ? (
          <Button variant="tertiary" onClick={() => abort.current?.abort()} data-testid="transcribe-cancel">
            {t('common.cancel', 'Cancel')}
          </Button>
        ) : null}
      </Flex>

      {showProgress ? (
        <Flex direction="column" alignItems="stretch" gap={2} data-testid="transcribe-progress" data-phase={phase} data-percent={percent}>
          <UploadBar
            value={percent}
            aria-valuenow={percent}
            aria-valuetext={`${percent}%`}
            aria-label={t('transcribe.progress.label', 'Upload progress')}
            data-testid="transcribe-progress-bar"
          />
          <Typography variant="pi" textColor="neutral700" data-testid="transcribe-progress-text" aria-live="polite">
            {phase === 'uploading'
              ? t('transcribe.progress.uploading', 'Uploading: {percent}% ({loaded} of {total})', {
                  percent,
                  loaded: formatBytes(progress.loaded),
                  total: formatBytes(progress.total),
                })
              : phase === 'forwarding'
                ? t('transcribe.progress.forwarding', 'Uploaded. Sending to the speech service…')
                : phase === 'done'
                  ? t('transcribe.progress.done', 'Uploaded and accepted by the speech service.')
                  : t('transcribe.progress.stopped', 'The upload stopped at {percent}%.', { percent })}
          </Typography>
        </Flex>
      ) : null}

      {uploadError ? (
        <Typography variant="pi" textColor="danger600" data-testid="transcribe-upload-error" role="alert">
          {uploadError}
        </Typography>
      ) : null}
    </Card>
  );
};
