import type { Core } from '@strapi/strapi';
import type { NarrationRow } from '../domain/narration-row';
import { partFailureReason, partsAtHand, partsProgress, planParts, type PartToNarrate } from '../domain/part-plan';
import type { NarrationRows } from '../rows/narration-rows';
import type { PartRows } from '../rows/part-rows';

export interface PlanStepDeps {
  strapi: Core.Strapi;
  repository: Pick<NarrationRows, 'apply' | 'findById'>;
  parts: PartRows;
  owner: string;
  now: () => Date;
}

export interface SegmentedVersion {
  title: string;
  voiceId: string;
  preprocessType: string;
  parts: PartToNarrate[];
}

export function createPlanStep(deps: PlanStepDeps) {
  const { strapi, repository, parts, owner, now } = deps;
  const log = (message: string) => strapi.log.info(`[speech] ${message}`);

  async function settle(narrationId: number): Promise<void> {
    const article = await repository.findById(narrationId);
    if (!article || article.status !== 'awaiting_parts') return;
    const progress = partsProgress(article.segmentPlan ?? [], partsAtHand(article), await parts.forNarration(narrationId));
    if (progress.kind === 'ready') {
      const outcome = await repository.apply(article, { type: 'partsReady', now: now() });
      if (outcome.applied) log(`all ${progress.total} parts of ${article.articleId} are ready: joining them`);
    } else if (progress.kind === 'failed') {
      await repository.apply(article, {
        type: 'partFailed',
        reason: partFailureReason(progress),
        code: progress.row.lastErrorCode ?? 'PART_FAILED',
      });
    }
  }

  return {
    settle,

    /** Plans a claimed article (status `submitting`, our lease). */
    async plan(narration: NarrationRow, version: SegmentedVersion): Promise<void> {
      // The editor asked for a fresh take: every part generated again (paid), nothing reused. A
      // verification's mismatch asks it of some parts: those are not taken from the stored audio
      // (a row already asking for one, planned before, is kept: never paid twice).
      const fresh = Boolean(narration.freshWanted);
      const freshParts = new Set(fresh ? [] : (narration.freshParts ?? []));
      if (fresh) await parts.removeForNarration(narration.id);
      const rows = fresh ? [] : await parts.forNarration(narration.id);
      const plan = planParts(version.parts, fresh ? null : partsAtHand(narration), rows);
      await parts.remove(plan.remove.map((row) => row.id));
      const at = now();
      const total = version.parts.length;
      const positions = new Map(version.parts.map((part, index) => [part.key, index + 1]));
      await parts.create(
        plan.create.map((part, turn) => ({
          narrationId: narration.id,
          key: part.key,
          turn,
          partsAfter: plan.create.length - turn - 1,
          text: part.text,
          title: `${version.title} (${positions.get(part.key)}/${total})`.slice(0, 255),
          voiceId: part.voiceId ?? version.voiceId,
          preprocessType: version.preprocessType,
          characters: part.characters,
          credits: part.credits,
          regenerate: fresh || freshParts.has(part.key),
        })),
        at
      );
      for (const row of plan.retry)
        await parts.apply(row, { type: 'contentChanged', fingerprint: row.fingerprint ?? row.articleId, now: at });
      const outcome = await repository.apply(narration, {
        type: 'partsPlanned',
        owner,
        plan: version.parts.map(({ key, characters, credits }) => ({ key, characters, credits })),
        allReady: plan.allReady,
        characters: plan.characters,
        credits: plan.credits,
        fresh,
        now: at,
      });
      if (!outcome.applied) return;
      const asked = plan.create.length + plan.retry.length;
      log(
        `planned ${narration.articleId} in ${total} parts: ${asked} to narrate (${plan.credits} credits), ${plan.allReady ? 'all at hand' : 'the others at hand'}`
      );
    },
  };
}

export type PlanStep = ReturnType<typeof createPlanStep>;
