import type { Core } from '@strapi/strapi';
import type { Origin } from '../credits';
import type { NarrationRow, Queue } from '../queue';
import type { SettingsService } from '../settings';
import type { CheckRows } from './check-rows';
import { OPEN_CHECK_STATUSES, type CheckRow } from './domain/check';

export interface RegeneratePolicyDeps {
  strapi: Core.Strapi;
  rows: CheckRows;
  narrations: Pick<Queue['reads'], 'findById'>;
  settings: Pick<SettingsService, 'get'>;
  /** What an editor's Regenerate does (narration/): the budget and the ledger apply; whether it was queued, and why not. */
  editor: {
    regenerate: (uid: string, documentId: string, locale: string | null, origin: Origin) => Promise<{ queued: boolean; reason?: string }>;
    regenerateParts: (narration: NarrationRow, keys: readonly string[], origin: Origin) => Promise<{ queued: boolean; reason?: string }>;
  };
}

const VERIFICATION: Origin = { cause: 'verification', causedBy: null };

export function createRegeneratePolicy(deps: RegeneratePolicyDeps) {
  const { strapi, rows, narrations } = deps;

  /**
   * A mismatch of a type that chose `onMismatch: 'regenerate'`: the article is narrated again, once;
   * for a segmented narration, the parts that mismatched, once the last check of its audio ended
   * (the others are kept, unpaid). Never when the audio checked was itself that regenerate (no
   * loop), nor when the article was edited since (its new version is on its way).
   */
  async function regenerateOnce(row: CheckRow) {
    const settings = await deps.settings.get();
    const narration = await narrations.findById(row.narrationId);
    if (!narration || settings.contentTypes[narration.contentType]?.verification?.onMismatch !== 'regenerate') return;
    let failing = [row];
    if (row.partKey !== null) {
      const checks = await rows.forNarrations([narration.id]);
      if (checks.some((check) => OPEN_CHECK_STATUSES.includes(check.status))) return;
      failing = checks.filter((check) => check.status === 'mismatch' && check.partKey !== null && !check.regenerated);
      if (failing.length === 0) return;
    }
    const why =
      narration.cause === 'verification'
        ? 'this audio is already the regenerate a mismatch asked for'
        : narration.status !== 'completed' || narration.narratedFingerprint !== narration.fingerprint
          ? 'a newer version is on its way'
          : null;
    if (why) {
      strapi.log.info(`[speech] ${row.articleId}: not regenerated after the mismatch: ${why}`);
      return;
    }
    const partKeys = row.partKey !== null ? failing.map((check) => check.partKey!) : undefined;
    const outcome = partKeys
      ? await deps.editor.regenerateParts(narration, partKeys, VERIFICATION)
      : await deps.editor.regenerate(narration.contentType, narration.targetDocumentId, narration.targetLocale, VERIFICATION);
    for (const check of failing) await rows.markRegenerated(check.id);
    const what = partKeys ? `${partKeys.length} part(s) regenerated` : 'regenerated';
    strapi.log.info(
      `[speech] ${row.articleId}: ${outcome.queued ? `${what} once after the mismatch` : `not regenerated after the mismatch: ${outcome.reason}`}`
    );
  }

  return { regenerateOnce };
}
