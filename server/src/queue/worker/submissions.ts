import { AUTOMATIC, type NarratedTarget, type Origin } from '../../credits';
import { isPreprocessType } from '../../../../shared/contracts/settings';
import type { NarrationPartRow } from '../domain/narration-row';
import type { DescribeLive } from '../domain/live-version';
import { BUDGET_REACHED, type NarrationEvent } from '../domain/states';
import type { NarrationRow, NarrationRows } from '../rows/narration-rows';
import type { PartRows } from '../rows/part-rows';
import type { QueueConfig } from './config';
import type { PlanStep } from './plan-step';
import type { Send } from './send';

/** Claiming a queued article or part, then asking for it: what it needs. */
export interface SubmissionDeps {
  config: QueueConfig;
  repository: NarrationRows;
  parts: PartRows;
  planStep: PlanStep;
  describeLive: DescribeLive;
  send: Send;
  owner: string;
}

/** Rows without an origin are the plugin's own. */
function originOf(row: Pick<NarrationRow, 'cause' | 'causedBy'>): Origin {
  return row.cause ? { cause: row.cause, causedBy: row.causedBy ?? null } : AUTOMATIC;
}

/** True when a request went out; `mayAsk` false: only planned, and one narrated whole goes back to the queue. */
export async function submitArticle(deps: SubmissionDeps, row: NarrationRow, at: Date, mayAsk = true): Promise<boolean> {
  const { config, repository, parts, owner } = deps;
  const claimed = await repository.apply(row, { type: 'claimed', owner, leaseMs: config.leaseMs, now: at });
  if (!claimed.applied) return false;
  let narration = claimed.row;
  const version = await deps.describeLive(narration);
  if (!version) {
    await repository.apply(narration, {
      type: 'submitRejected',
      reason: 'The content is no longer published or no longer narrated.',
      code: 'NOT_PUBLISHED',
    });
    return false;
  }
  if (version.fingerprint !== narration.fingerprint || version.characters !== narration.characters) {
    await repository.setFigures(narration.id, {
      fingerprint: version.fingerprint,
      characters: version.characters,
      credits: version.credits,
      voiceId: version.voiceId,
      preprocessType: version.preprocessType,
      title: version.title.slice(0, 255),
    });
    narration = { ...narration, fingerprint: version.fingerprint };
  }
  if (version.text.trim() === '') {
    await repository.apply(narration, { type: 'submitRejected', reason: 'There is no text to narrate.', code: 'EMPTY_TEXT' });
    return false;
  }
  if (version.mode === 'segmented') {
    await deps.planStep.plan(narration, {
      title: version.title,
      voiceId: version.voiceId,
      preprocessType: version.preprocessType,
      parts: version.parts,
    });
    return false;
  }
  if (!mayAsk) {
    await repository.apply(narration, { type: 'claimReturned' });
    return false;
  }
  // Narrated whole from now on: parts a segmented version left on their way are of no use.
  if (narration.narrationMode === 'segmented') {
    await parts.removeForNarration(narration.id);
    await repository.setFigures(narration.id, { narrationMode: 'whole' });
  }
  const record = (event: NarrationEvent) => repository.apply(narration, event);
  const request = { text: version.text, name: version.title, voiceId: version.voiceId, preprocessType: version.preprocessType };
  const target: NarratedTarget = {
    articleId: narration.articleId,
    kind: 'narration',
    narrationId: narration.id,
    contentType: narration.contentType,
    targetDocumentId: narration.targetDocumentId,
    targetLocale: narration.targetLocale,
    title: version.title.slice(0, 255),
  };
  const sendable = { ...narration, record, target, origin: originOf(narration), letThroughMonth: narration.letThroughMonth ?? null };
  return deps.send(sendable, request, { characters: version.characters, credits: version.credits });
}

export async function submitPart(deps: SubmissionDeps, row: NarrationPartRow, at: Date): Promise<boolean> {
  const { config, repository, parts, owner } = deps;
  const claimed = await parts.apply(row, { type: 'claimed', owner, leaseMs: config.leaseMs, now: at });
  if (!claimed.applied) return false;
  const part = claimed.row;
  const article = await repository.findById(part.narrationId);
  const record = async (event: NarrationEvent) => {
    const outcome = await parts.apply(part, event);
    // A part that failed for good fails its article.
    if (outcome.applied && outcome.row.status === 'failed') await deps.planStep.settle(part.narrationId);
    // Its article says why it is not getting on.
    if (outcome.applied && event.type === 'budgetHeld') await repository.noteWaiting(part.narrationId, event.reason, BUDGET_REACHED);
  };
  const request = {
    text: part.text,
    name: part.title ?? part.articleId,
    voiceId: part.voiceId ?? '',
    preprocessType: isPreprocessType(part.preprocessType) ? part.preprocessType : '0',
  };
  const target: NarratedTarget = {
    articleId: part.articleId,
    kind: 'part',
    narrationId: part.narrationId,
    contentType: article?.contentType ?? '',
    targetDocumentId: article?.targetDocumentId ?? '',
    targetLocale: article?.targetLocale ?? null,
    title: article?.title ?? part.title,
  };
  const sendable = {
    ...part,
    record,
    target,
    origin: article ? originOf(article) : AUTOMATIC,
    letThroughMonth: article?.letThroughMonth ?? null,
  };
  return deps.send(sendable, request, { characters: part.characters, credits: part.credits, isPart: true });
}
