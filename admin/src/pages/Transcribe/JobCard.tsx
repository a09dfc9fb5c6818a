import * as React from 'react';
import { Box, Button, Flex, Link, Loader, Typography } from '@strapi/design-system';
import { Download, Folder } from '@strapi/icons';
import { useFetchClient, useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { problemOf, toProblem } from '../../api/errors';
import { speechApi, useSaveSpeechTranscriptionMutation } from '../../api/speechApi';
import { downloadTranscript, saveBlob } from '../../api/transcriptionFiles';
import { TRANSCRIPT_DOWNLOAD_FORMATS, type TranscriptDownloadFormat } from '../../api/types';
import { useTranslator } from '../../utils/useTranslator';
import { mediaUrl } from '../../utils/media';
import { Card, Fact } from '../../components/Card';
import { TranscriptionStatusBadge } from './StatusBadge';
import { detailPollMs, formatBytes, formatTimestamp, isTranscriptionInProgress } from './utils';

interface Props {
  id: number;
  serverPollMs?: number;
}

/** Failure codes of speech to text explained in the editor's language; the server's own text follows. */
function useFailureHeadline() {
  const t = useTranslator();
  return (code: string | null): string => {
    switch (code) {
      case 'TIMED_OUT':
        return t('transcribe.failure.TIMED_OUT', 'The speech service took too long and the transcription was given up.');
      case 'EMPTY_RESULT':
        return t('transcribe.failure.EMPTY_RESULT', 'The speech service finished but sent no transcript.');
      case 'JOB_NOT_FOUND':
        return t('transcribe.failure.JOB_NOT_FOUND', 'The speech service no longer knows this job.');
      case 'UPLOAD_INTERRUPTED':
        return t('transcribe.failure.UPLOAD_INTERRUPTED', 'The upload was interrupted. Submit the file again.');
      case 'PAYLOAD_TOO_LARGE':
        return t('transcribe.failure.PAYLOAD_TOO_LARGE', 'The file is larger than the 50 MB limit.');
      case 'INSUFFICIENT_CREDITS':
        return t('transcribe.failure.INSUFFICIENT_CREDITS', 'The account has run out of credits.');
      case 'UNAUTHORIZED':
      case 'AUTH_FAILED':
        return t('transcribe.failure.AUTH', 'The speech service rejected the API key.');
      default:
        return t('transcribe.failure.generic', 'The speech service could not transcribe this recording.');
    }
  };
}

/** One job's card; the page keys it by the job's id, so opening another job starts with fresh state. */
export const JobCard = ({ id, serverPollMs }: Props) => {
  const { formatDate } = useIntl();
  const { toggleNotification } = useNotification();
  const client = useFetchClient();
  const t = useTranslator();
  const failureHeadline = useFailureHeadline();
  const pollMs = detailPollMs(serverPollMs);
  const jobState = speechApi.endpoints.getSpeechTranscription.useQueryState(id);
  // Followed until it is done (and through failed answers, until there is one).
  const { refetch: reloadJob } = speechApi.endpoints.getSpeechTranscription.useQuerySubscription(id, {
    refetchOnMountOrArgChange: true,
    pollingInterval: jobState.data === undefined || isTranscriptionInProgress(jobState.data.status) ? pollMs : 0,
  });
  const job = { data: jobState.data, loading: jobState.isLoading || jobState.isUninitialized, error: problemOf(jobState.error) };
  const [saveTranscription, { isLoading: saving }] = useSaveSpeechTranscriptionMutation();
  const [downloading, setDownloading] = React.useState<TranscriptDownloadFormat | null>(null);

  if (job.loading && !job.data) {
    return (
      <Card testId="transcribe-job" title={t('transcribe.job.title', 'Transcription')}>
        <Loader small>{t('transcribe.job.loading', 'Loading the transcription')}</Loader>
      </Card>
    );
  }
  if (!job.data) {
    return (
      <Card testId="transcribe-job" title={t('transcribe.job.title', 'Transcription')}>
        <Flex gap={4} alignItems="center" wrap="wrap">
          <Typography textColor="danger600" data-testid="transcribe-job-error">
            {t('transcribe.job.error', 'The transcription could not be loaded: {message}', { message: job.error?.message ?? '' })}
          </Typography>
          <Button variant="secondary" onClick={() => void reloadJob()}>
            {t('common.retry', 'Try again')}
          </Button>
        </Flex>
      </Card>
    );
  }

  const data = job.data;
  const savedFile = data.savedFile;
  const result = data.result;

  const download = async (format: TranscriptDownloadFormat) => {
    setDownloading(format);
    try {
      const { blob, fileName } = await downloadTranscript(client, data.id, format);
      saveBlob(blob, fileName);
    } catch (error) {
      toggleNotification({
        type: 'danger',
        message: t('transcribe.download.failed', 'The download failed: {message}', { message: toProblem(error).message }),
      });
    } finally {
      setDownloading(null);
    }
  };

  const save = async () => {
    try {
      // The mutation updates this job (its saved file shows below) and its row in the recent list.
      const answer = await saveTranscription({ id: data.id }).unwrap();
      toggleNotification({
        type: 'success',
        message: answer.created
          ? t('transcribe.save.created', 'Saved to the Media Library as {name}.', { name: answer.file.name ?? '' })
          : t('transcribe.save.existing', 'Already in the Media Library as {name}.', { name: answer.file.name ?? '' }),
      });
    } catch (error) {
      toggleNotification({
        type: 'danger',
        message: t('transcribe.save.failed', 'Saving to the Media Library failed: {message}', { message: toProblem(error).message }),
      });
    }
  };

  const when = (value: string | null) => (value ? formatDate(value, { dateStyle: 'medium', timeStyle: 'short' }) : '—');

  return (
    <Card
      testId="transcribe-job"
      title={data.fileName}
      subtitle={[data.language, data.outputFormat.toUpperCase(), formatBytes(data.fileSize)].filter(Boolean).join(' · ')}
      action={<TranscriptionStatusBadge status={data.status} />}
    >
      <Flex gap={6} wrap="wrap" alignItems="flex-start">
        <Fact label={t('transcribe.job.submitted', 'Submitted')}>{when(data.submittedAt ?? data.createdAt)}</Fact>
        <Fact label={t('transcribe.job.completed', 'Completed')}>{when(data.completedAt)}</Fact>
        {data.jobId ? <Fact label={t('transcribe.job.jobId', 'Job')}>{data.jobId}</Fact> : null}
      </Flex>

      {isTranscriptionInProgress(data.status) ? (
        <Flex gap={2} alignItems="center" data-testid="transcribe-waiting">
          <Loader small>{t('transcribe.job.waiting', 'Waiting for the speech service')}</Loader>
          <Typography variant="omega" textColor="neutral700">
            {data.status === 'processing'
              ? t('transcribe.job.processing', 'The speech service is transcribing the recording…')
              : data.status === 'uploading'
                ? t('transcribe.job.uploading', 'The recording is being sent to the speech service…')
                : t('transcribe.job.queued', 'The recording is waiting in the speech service’s queue…')}
          </Typography>
        </Flex>
      ) : null}

      {data.pollWarning && isTranscriptionInProgress(data.status) ? (
        <Box background="warning100" padding={3} hasRadius data-testid="transcribe-poll-warning">
          <Typography variant="pi" textColor="warning700">
            {t('transcribe.job.pollWarning', 'Checking the job hit a problem; it is retried automatically: {message}', {
              message: data.pollWarning,
            })}
          </Typography>
        </Box>
      ) : null}

      {data.status === 'failed' ? (
        <Box background="danger100" padding={3} hasRadius data-testid="transcribe-failure" role="alert">
          <Flex direction="column" alignItems="stretch" gap={1}>
            <Typography variant="omega" fontWeight="bold" textColor="danger700">
              {failureHeadline(data.errorCode)}
            </Typography>
            {data.error ? (
              <Typography variant="pi" textColor="danger700">
                {data.error}
              </Typography>
            ) : null}
          </Flex>
        </Box>
      ) : null}

      {data.status === 'completed' && result ? (
        <Flex direction="column" alignItems="stretch" gap={4}>
          <Flex gap={2} wrap="wrap" data-testid="transcribe-downloads">
            {TRANSCRIPT_DOWNLOAD_FORMATS.map((format) => (
              <Button
                key={format}
                variant="secondary"
                startIcon={<Download />}
                loading={downloading === format}
                disabled={downloading !== null}
                onClick={() => void download(format)}
                data-testid={`transcribe-download-${format}`}
              >
                {format === 'srt'
                  ? t('transcribe.download.srt', 'Download SRT')
                  : format === 'vtt'
                    ? t('transcribe.download.vtt', 'Download WebVTT')
                    : t('transcribe.download.json', 'Download JSON')}
              </Button>
            ))}
            <Button variant="default" startIcon={<Folder />} loading={saving} onClick={() => void save()} data-testid="transcribe-save">
              {t('transcribe.save.button', 'Save to Media Library')}
            </Button>
          </Flex>

          {savedFile ? (
            <Typography variant="pi" textColor="success700" data-testid="transcribe-saved-file">
              {t('transcribe.save.savedAs', 'In the Media Library: ')}
              <Link href={mediaUrl(savedFile.url)} isExternal>
                {savedFile.name ?? savedFile.url}
              </Link>
            </Typography>
          ) : null}

          <Flex direction="column" alignItems="stretch" gap={2}>
            <Typography variant="sigma" textColor="neutral600" tag="h3">
              {t('transcribe.result.transcript', 'Transcript')}
            </Typography>
            {result.segments.length === 0 ? (
              <Typography textColor="neutral600">{t('transcribe.result.empty', 'No speech was recognised in this recording.')}</Typography>
            ) : (
              <Box tag="ol" data-testid="transcribe-transcript" style={{ listStyle: 'none', margin: 0, paddingInlineStart: 0 }}>
                {result.segments.map((segment, index) => (
                  <Box tag="li" key={index} paddingTop={1} paddingBottom={1}>
                    <Flex gap={3} alignItems="baseline">
                      <Typography
                        variant="pi"
                        textColor="neutral600"
                        dir="ltr"
                        style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', minInlineSize: '9ch' }}
                      >
                        {`${formatTimestamp(segment.start)} – ${formatTimestamp(segment.end)}`}
                      </Typography>
                      <Typography variant="omega" textColor="neutral800" dir="auto">
                        {segment.text}
                      </Typography>
                    </Flex>
                  </Box>
                ))}
              </Box>
            )}
          </Flex>

          {data.outputFormat === 'srt' && result.srt ? (
            <Flex direction="column" alignItems="stretch" gap={2}>
              <Typography variant="sigma" textColor="neutral600" tag="h3">
                {t('transcribe.result.srt', 'SRT')}
              </Typography>
              <Box background="neutral100" padding={4} hasRadius style={{ maxBlockSize: '24rem', overflow: 'auto' }}>
                <pre
                  data-testid="transcribe-srt"
                  dir="auto"
                  style={{ margin: 0, whiteSpace: 'pre-wrap', fontFamily: 'monospace', fontSize: '1.3rem' }}
                >
                  {result.srt}
                </pre>
              </Box>
            </Flex>
          ) : null}
        </Flex>
      ) : null}
    </Card>
  );
};
