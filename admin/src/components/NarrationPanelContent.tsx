import * as React from 'react';
import { Button, Dialog, Field, Flex, Loader, SingleSelect, SingleSelectOption, Typography } from '@strapi/design-system';
import { ArrowClockwise, Cross, Play, WarningCircle } from '@strapi/icons';
import { useNotification, useRBAC } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { problemOf, toProblem } from '../api/errors';
import {
  speechApi,
  useSpeechCancelMutation,
  useGetSpeechEstimateQuery,
  useGetSpeechVoicesQuery,
  useSpeechNarrateMutation,
  useSpeechRegenerateMutation,
  useResumeSpeechQueueMutation,
  useSetSpeechVoiceMutation,
} from '../api/speechApi';
import type { DocumentTarget, EstimateResponse, NarrateResponse, NarrationView, QueueState, Voice } from '../api/types';
import { PERMISSIONS } from '../utils/permissions';
import { useTranslator } from '../utils/useTranslator';
import { partsProgressMessage, regenerateCostMessage } from '../utils/parts';
import { badgeKind, isHeldByBudget, isInProgress, rowForLocale } from '../utils/status';
import { BudgetHold } from './BudgetHold';
import { ConfirmFooter } from './ConfirmFooter';
import { useFailureReason } from './FailureReason';
import { VerificationCard } from './VerificationCard';
import { VersionsCard } from './VersionsCard';
import { NarrationBadge } from './NarrationBadge';
import { NarrationPlayer } from './NarrationPlayer';
import { PanelEstimate } from './PanelEstimate';
import { ParagraphListener } from './ParagraphListener';
import { PassagesCard } from './PassagesCard';
import { WarningNotice } from './WarningNotice';
import { textDirection } from '../utils/textDirection';

/** The listening figures: a chunk of their own, loaded only for a narration that has audio. */
const ListeningCard = React.lazy(() => import('./ListeningCard'));

const POLL_MS = 3_000;
/** After a save or publish, the server enqueues after its commit: look a few times before settling. */
const WATCH_MS = 10_000;
const DEFAULT_VOICE = '__default__';

interface Props {
  model: string;
  documentId: string;
  locale: string | null;
  /** Changes when the document is saved or published: the estimate follows the new text, and a narration may have started. */
  version: string | null;
}

type Action = 'narrate' | 'regenerate' | 'cancel' | 'voice' | 'resume';

/**
 * A spell of closer polling: `watching` is true for WATCH_MS after the last `startWatch()`. Each
 * start is a new watch with its own timer; a timer ends only its own watch, so a later start
 * (whose timer replaces it) always gets its full time.
 */
function useWatch() {
  const [watch, setWatch] = React.useState({ id: 0, active: false });
  React.useEffect(() => {
    if (!watch.active) return;
    const timer = setTimeout(() => setWatch((current) => (current.id === watch.id ? { ...current, active: false } : current)), WATCH_MS);
    return () => clearTimeout(timer);
  }, [watch]);
  const startWatch = React.useCallback(() => setWatch((current) => ({ id: current.id + 1, active: true })), []);
  return { watching: watch.active, startWatch };
}

export default function NarrationPanelContent({ model, documentId, locale, version }: Props) {
  const { formatNumber, formatDate, locale: adminLocale } = useIntl();
  // The panel's own text runs in the admin's direction (Arabic right to left); Strapi's page does not change.
  const dir = textDirection(adminLocale);
  const { toggleNotification } = useNotification();
  const describeFailure = useFailureReason();
  const {
    allowedActions: { canNarrate },
  } = useRBAC(PERMISSIONS.narrate);
  const [busy, setBusy] = React.useState<Action | null>(null);
  const audioRef = React.useRef<HTMLAudioElement>(null);
  const playFrom = React.useCallback((seconds: number) => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.currentTime = seconds;
    void audio.play().catch(() => undefined);
  }, []);
  const [confirmOpen, setConfirmOpen] = React.useState(false);

  const target: DocumentTarget = React.useMemo(() => ({ contentType: model, documentId, locale }), [model, documentId, locale]);
  const { watching, startWatch } = useWatch();
  // A new version (a save or publish) may start a narration: watch for it. The version last seen
  // is kept in state and compared during render (no effect, no render with the old interval).
  const [seenVersion, setSeenVersion] = React.useState(version);
  if (version !== seenVersion) {
    setSeenVersion(version);
    startWatch();
  }
  const narrationArgs = { ...target, version };
  const narrationQuery = speechApi.endpoints.getSpeechDocumentNarrations.useQueryState(narrationArgs);
  const narration = {
    data: narrationQuery.data,
    loading: narrationQuery.isLoading || narrationQuery.isUninitialized,
    error: problemOf(narrationQuery.error),
  };
  // A check still listening to a stored narration is followed like a narration in progress.
  const anyInProgress = Boolean(
    narration.data?.data.some((candidate) => isInProgress(candidate) || candidate.verification?.status === 'pending')
  );
  // Polled while a narration is in progress, and for a while after a save, publish or action.
  const { refetch: reloadNarration } = speechApi.endpoints.getSpeechDocumentNarrations.useQuerySubscription(narrationArgs, {
    refetchOnMountOrArgChange: true,
    pollingInterval: anyInProgress ? POLL_MS : watching ? 1_500 : 0,
  });
  const row: NarrationView | null = narration.data ? rowForLocale(narration.data.data, locale) : null;
  const queue: QueueState | null = narration.data?.queue ?? null;
  const estimateQuery = useGetSpeechEstimateQuery(
    { ...target, version, status: row?.status ?? null, completedAt: row?.completedAt ?? null },
    { refetchOnMountOrArgChange: true }
  );
  const estimate = { data: estimateQuery.data, error: problemOf(estimateQuery.error), reload: estimateQuery.refetch };
  const voices = useGetSpeechVoicesQuery(undefined, { refetchOnMountOrArgChange: true });
  const [narrate] = useSpeechNarrateMutation();
  const [regenerate] = useSpeechRegenerateMutation();
  const [cancel] = useSpeechCancelMutation();
  const [setVoice] = useSetSpeechVoiceMutation();
  const [resumeQueue] = useResumeSpeechQueueMutation();

  const t = useTranslator();

  /** An action, then the panel's data again (the action invalidated it; this waits for the answers). */
  const run = async <T,>(action: Action, call: () => { unwrap: () => Promise<T> }, success?: (result: T) => void) => {
    setBusy(action);
    try {
      const result = await call().unwrap();
      success?.(result);
      startWatch();
      await Promise.all([reloadNarration(), estimate.reload()]);
    } catch (error) {
      toggleNotification({ type: 'danger', message: toProblem(error).message });
    } finally {
      setBusy(null);
    }
  };

  const reportQueued = (result: NarrateResponse) => {
    if (result.queued) toggleNotification({ type: 'success', message: t('panel.queued', 'Narration queued.') });
    else
      toggleNotification({
        type: 'info',
        message: t('panel.notQueued', 'Nothing was queued: {reason}.', { reason: result.reason ?? t('panel.noReason', 'no change') }),
      });
  };

  if (narration.loading && !narration.data) {
    return (
      <Flex justifyContent="center" padding={2} width="100%">
        <Loader small>{t('panel.loading', 'Loading narration')}</Loader>
      </Flex>
    );
  }
  if (narration.error && !narration.data) {
    return (
      <Flex direction="column" alignItems="stretch" gap={2} width="100%" data-testid="speech-panel" dir={dir}>
        <Typography variant="pi" textColor="danger600">
          {t('panel.loadError', 'The narration could not be loaded: {message}', { message: narration.error.message })}
        </Typography>
        <Button variant="tertiary" size="S" onClick={() => void reloadNarration()}>
          {t('common.retry', 'Try again')}
        </Button>
      </Flex>
    );
  }

  const kind = badgeKind(row, queue);
  const inProgress = isInProgress(row);
  // A waiting narration's last problem is shown, unless it is the queue-wide pause explained below.
  const pausedByQueue = Boolean(queue?.paused && row?.lastErrorCode && row.lastErrorCode === queue.pauseCode);
  // A narration the monthly budget holds is explained apart (BudgetHold), not as a problem being retried.
  const heldByBudget = Boolean(row && isHeldByBudget(row));
  const failure =
    row && (row.status === 'failed' || (inProgress && row.lastError && !pausedByQueue && !heldByBudget)) ? describeFailure(row) : null;
  const partsProgress = partsProgressMessage(row, formatNumber);
  const current: EstimateResponse | undefined = estimate.data;
  // Regenerating pays for every part, not the changed ones the panel's estimate counts.
  const regenerateCost = regenerateCostMessage(current, formatNumber);
  const canRegenerate = Boolean(row && (row.status === 'completed' || row.status === 'failed' || row.status === 'cancelled'));
  const canNarrateNow = !inProgress && !(row?.status === 'completed' && current?.unchanged);
  const voiceList: Voice[] = voices.data ?? [];
  const voiceName = (id: string | null | undefined) => (id ? (voiceList.find((voice) => voice.id === id)?.name ?? id) : '');
  const selectedVoice = current
    ? current.voiceOverride !== undefined
      ? (current.voiceOverride ?? DEFAULT_VOICE)
      : current.voiceId
    : undefined;

  return (
    <Flex direction="column" alignItems="stretch" gap={3} width="100%" data-testid="speech-panel" dir={dir}>
      <Flex gap={2} wrap="wrap" alignItems="center">
        <NarrationBadge row={row} queue={queue} />
        {row?.completedAt && kind === 'ready' ? (
          <Typography variant="pi" textColor="neutral600">
            {t('panel.completedAt', 'Narrated {date}', { date: formatDate(row.completedAt, { dateStyle: 'medium', timeStyle: 'short' }) })}
          </Typography>
        ) : null}
      </Flex>
      {partsProgress ? (
        <Typography variant="pi" textColor="neutral600" data-testid="speech-parts">
          {t(partsProgress.id, partsProgress.defaultMessage, partsProgress.values)}
        </Typography>
      ) : null}

      {failure ? (
        <WarningNotice
          testId="speech-failure"
          tone={row?.status === 'failed' ? 'danger' : 'warning'}
          detail={row?.creditsMayBeLost ? t('panel.creditsMayBeLost', 'Credits may have been charged for the failed attempt.') : null}
        >
          {row?.status === 'failed' ? failure : t('panel.retrying', 'Retrying after a problem: {reason}', { reason: failure })}
        </WarningNotice>
      ) : null}

      {row && heldByBudget ? <BudgetHold row={row} target={target} onReleased={startWatch} /> : null}

      {queue?.paused ? (
        <Flex
          direction="column"
          alignItems="stretch"
          gap={2}
          background="warning100"
          padding={2}
          hasRadius
          data-testid="speech-queue-paused"
        >
          <Typography variant="omega" textColor="warning700">
            {queue.pauseCode === 'INSUFFICIENT_CREDITS'
              ? t('panel.pausedCredits', 'Narrations are paused: the account needs {required} credits and has {remaining}.', {
                  required: queue.creditsRequired ?? '?',
                  remaining: queue.creditsRemaining ?? '?',
                })
              : t('panel.paused', 'Narrations are paused: {reason}', { reason: queue.pauseReason ?? queue.pauseCode ?? '' })}
          </Typography>
          {canNarrate ? (
            <Button variant="secondary" size="S" loading={busy === 'resume'} onClick={() => void run('resume', () => resumeQueue())}>
              {t('panel.resume', 'Resume the queue')}
            </Button>
          ) : null}
        </Flex>
      ) : null}

      {row?.audio ? (
        <NarrationPlayer audio={row.audio} subtitlesVtt={row.subtitlesVtt} subtitles={row.subtitles} locale={locale} audioRef={audioRef} />
      ) : null}
      {row?.audio && row.verification ? <VerificationCard verification={row.verification} onPlayFrom={playFrom} dir={dir} /> : null}
      {row?.audio ? <VersionsCard articleId={row.articleId} completedAt={row.completedAt} dir={dir} /> : null}
      {row?.audio ? (
        <React.Suspense fallback={null}>
          <ListeningCard target={target} />
        </React.Suspense>
      ) : null}

      <PanelEstimate estimate={current} error={estimate.error} status={row?.status ?? null} locale={locale} voiceName={voiceName} />

      {canNarrate && voices.data && current ? (
        <Field.Root name="speech-voice" hint={t('panel.voiceHint', 'Used for this entry only.')}>
          <Field.Label>{t('panel.voice', 'Voice')}</Field.Label>
          <SingleSelect
            size="S"
            value={selectedVoice}
            disabled={busy !== null}
            data-testid="speech-voice-select"
            onChange={(value) => {
              const voiceId = String(value) === DEFAULT_VOICE ? null : String(value);
              void run('voice', () => setVoice({ ...target, voiceId }));
            }}
          >
            <SingleSelectOption value={DEFAULT_VOICE}>{t('panel.defaultVoice', 'Default voice')}</SingleSelectOption>
            {voiceList.map((voice) => (
              <SingleSelectOption key={voice.id} value={voice.id}>
                {voice.language ? `${voice.name} (${voice.language})` : voice.name}
              </SingleSelectOption>
            ))}
          </SingleSelect>
          <Field.Hint />
        </Field.Root>
      ) : null}

      {canNarrate && current ? <ParagraphListener target={target} refreshKey={`${version ?? ''}|${current.voiceId}`} /> : null}

      {current ? (
        <PassagesCard
          target={target}
          refreshKey={`${version ?? ''}|${current.voiceId}`}
          voices={voiceList}
          canChoose={canNarrate}
          dir={dir}
        />
      ) : null}

      {canNarrate ? (
        <Flex direction="column" alignItems="stretch" gap={2}>
          {canNarrateNow ? (
            <Button
              fullWidth
              variant="secondary"
              startIcon={<Play />}
              loading={busy === 'narrate'}
              disabled={busy !== null}
              data-testid="speech-narrate"
              onClick={() => void run('narrate', () => narrate(target), reportQueued)}
            >
              {t('panel.narrate', 'Narrate now')}
            </Button>
          ) : null}
          {canRegenerate ? (
            <Button
              fullWidth
              variant="tertiary"
              startIcon={<ArrowClockwise />}
              loading={busy === 'regenerate'}
              disabled={busy !== null}
              data-testid="speech-regenerate"
              onClick={() => setConfirmOpen(true)}
            >
              {t('panel.regenerate', 'Regenerate')}
            </Button>
          ) : null}
          {inProgress ? (
            <Button
              fullWidth
              variant="danger-light"
              startIcon={<Cross />}
              loading={busy === 'cancel'}
              disabled={busy !== null}
              data-testid="speech-cancel"
              onClick={() =>
                void run(
                  'cancel',
                  () => cancel(target),
                  () => toggleNotification({ type: 'success', message: t('panel.cancelled', 'Narration cancelled.') })
                )
              }
            >
              {t('panel.cancel', 'Cancel narration')}
            </Button>
          ) : null}
        </Flex>
      ) : null}

      <Dialog.Root open={confirmOpen} onOpenChange={setConfirmOpen}>
        <Dialog.Content>
          <Dialog.Header>{t('regenerate.title', 'Regenerate the narration?')}</Dialog.Header>
          <Dialog.Body icon={<WarningCircle fill="warning600" />}>
            {/* The dialog is drawn outside the panel (a portal): its text takes the admin's direction here. */}
            <Flex direction="column" alignItems="stretch" gap={2} data-testid="speech-regenerate-dialog" dir={dir}>
              <Typography textAlign="center">
                {t('regenerate.body', 'A fresh narration is generated and charged again, even if the text did not change.')}
              </Typography>
              <Typography textAlign="center" fontWeight="bold" data-testid="speech-regenerate-cost">
                {t(regenerateCost.id, regenerateCost.defaultMessage, regenerateCost.values)}
              </Typography>
            </Flex>
          </Dialog.Body>
          <ConfirmFooter
            label={t('regenerate.confirm', 'Regenerate')}
            testId="speech-regenerate-confirm"
            onConfirm={() => void run('regenerate', () => regenerate(target), reportQueued)}
          />
        </Dialog.Content>
      </Dialog.Root>
    </Flex>
  );
}
