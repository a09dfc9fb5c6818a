import * as React from 'react';
import { Button, Flex, Grid, Status, Typography } from '@strapi/design-system';
import { ArrowClockwise, Lightning } from '@strapi/icons';
import { useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { toProblem } from '../../api/errors';
import { useResumeSpeechQueueMutation, useTestSpeechConnectionMutation } from '../../api/speechApi';
import type { ConnectionInfo, QueueState, TestConnectionResponse } from '../../api/types';
import { useTranslator } from '../../utils/useTranslator';
import { Card, Fact } from '../../components/Card';

interface Props {
  connection: ConnectionInfo;
  queue: QueueState;
  canNarrate: boolean;
}

/** The queue shown here follows a resume by itself: the mutation updates the cached settings. */
export const ConnectionCard = ({ connection, queue, canNarrate }: Props) => {
  const { formatNumber, formatDate } = useIntl();
  const { toggleNotification } = useNotification();
  const [testConnection, { isLoading: testing }] = useTestSpeechConnectionMutation();
  const [resumeQueue, { isLoading: resuming }] = useResumeSpeechQueueMutation();
  const [result, setResult] = React.useState<TestConnectionResponse | null>(null);
  const t = useTranslator();

  const test = async () => {
    setResult(null);
    try {
      setResult(await testConnection().unwrap());
    } catch (error) {
      const problem = toProblem(error);
      setResult({ ok: false, code: problem.code ?? String(problem.status ?? ''), message: problem.message });
    }
  };

  const resume = async () => {
    try {
      await resumeQueue().unwrap();
      toggleNotification({ type: 'success', message: t('connection.resumed', 'The queue will resume.') });
    } catch (error) {
      toggleNotification({ type: 'danger', message: toProblem(error).message });
    }
  };

  return (
    <Card
      testId="speech-connection"
      title={t('connection.title', 'Connection')}
      subtitle={t('connection.subtitle', 'Set in the server configuration (config/plugins); the API key is never shown.')}
      action={
        <Button
          variant="secondary"
          startIcon={<Lightning />}
          loading={testing}
          onClick={() => void test()}
          data-testid="speech-test-connection"
        >
          {t('connection.test', 'Test connection')}
        </Button>
      }
    >
      <Grid.Root gap={5}>
        <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
          <Fact label={t('connection.apiKey', 'API key')} testId="speech-api-key">
            <Status variant={connection.apiKeyConfigured ? 'success' : 'danger'} size="S" maxWidth="min-content">
              <Typography tag="span" variant="omega" fontWeight="bold" style={{ whiteSpace: 'nowrap' }}>
                {connection.apiKeyConfigured ? t('connection.keyConfigured', 'Configured') : t('connection.keyMissing', 'Not configured')}
              </Typography>
            </Status>
          </Fact>
        </Grid.Item>
        <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
          <Fact label={t('connection.credits', 'Last known credit balance')} testId="speech-credits">
            {queue.creditsRemaining !== null
              ? t('connection.creditsValue', '{credits} credits ({date})', {
                  credits: formatNumber(queue.creditsRemaining),
                  date: queue.creditsSeenAt ? formatDate(queue.creditsSeenAt, { dateStyle: 'medium', timeStyle: 'short' }) : '-',
                })
              : t('connection.creditsUnknown', 'Not known yet: the service reports it with its errors.')}
          </Fact>
        </Grid.Item>
        <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
          <Fact label={t('connection.voiceSource', 'Voices from')}>
            {connection.voiceSource === 'config'
              ? t('connection.voiceSourceConfig', 'The plugin configuration')
              : t('connection.voiceSourceService', 'The speech service')}
          </Fact>
        </Grid.Item>
        <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
          <Fact label={t('connection.baseUrl', 'Narration host')}>
            <bdi dir="ltr">{connection.baseUrl}</bdi>
          </Fact>
        </Grid.Item>
        <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
          <Fact label={t('connection.webUrl', 'Transcription and speech host')}>
            <bdi dir="ltr">{connection.webUrl}</bdi>
          </Fact>
        </Grid.Item>
        <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
          <Fact label={t('connection.callbackUrl', 'Callback URL')} testId="speech-callback-url">
            <bdi dir="ltr">{connection.callbackUrl}</bdi>
          </Fact>
        </Grid.Item>
      </Grid.Root>

      {result ? (
        <Flex
          background={result.ok ? 'success100' : 'danger100'}
          padding={3}
          hasRadius
          data-testid="speech-connection-result"
          data-ok={String(result.ok)}
        >
          <Typography textColor={result.ok ? 'success700' : 'danger700'}>
            {result.ok
              ? t('connection.ok', 'Connected: {count, plural, one {# voice} other {# voices}} available.', { count: result.voices })
              : t('connection.failed', 'Connection failed ({code}): {message}', { code: result.code, message: result.message })}
          </Typography>
        </Flex>
      ) : null}

      {queue.paused ? (
        <Flex
          direction="column"
          alignItems="stretch"
          gap={2}
          background="warning100"
          padding={3}
          hasRadius
          data-testid="speech-queue-paused"
        >
          <Typography textColor="warning700">
            {queue.pauseCode === 'INSUFFICIENT_CREDITS'
              ? t('connection.pausedCredits', 'Narrations are paused for credits: {required} needed, {remaining} left.', {
                  required: queue.creditsRequired ?? '?',
                  remaining: queue.creditsRemaining ?? '?',
                })
              : t('connection.paused', 'Narrations are paused: {reason}', { reason: queue.pauseReason ?? queue.pauseCode ?? '' })}
          </Typography>
          {canNarrate ? (
            <Flex>
              <Button variant="secondary" size="S" startIcon={<ArrowClockwise />} loading={resuming} onClick={() => void resume()}>
                {t('connection.resume', 'Resume now')}
              </Button>
            </Flex>
          ) : null}
        </Flex>
      ) : null}
    </Card>
  );
};
