import type { VerificationView } from '../../../shared/contracts/verification';
import type { NarrationListRow, NarrationRow } from '../queue';
import type { SettingsService } from '../settings';
import type { CheckRows } from './check-rows';
import type { CheckViewRow } from './domain/check';
import { listedVerificationView, verificationView } from './domain/view';

/**
 * What the admin reads of narrations' checks: each narration's `verification`, null for a type
 * that does not verify (and for a narration that never reached storing: nothing to check yet).
 */
export function createVerificationViews(deps: { settings: Pick<SettingsService, 'get'>; rows: Pick<CheckRows, 'viewsOf' | 'history'> }) {
  async function checksOf(narrations: ReadonlyArray<Pick<NarrationRow, 'id' | 'contentType'>>) {
    const settings = await deps.settings.get();
    const verifying = narrations.filter((row) => settings.contentTypes[row.contentType]?.verify);
    const checks = await deps.rows.viewsOf(verifying.map((row) => row.id));
    const byNarration = new Map<number, CheckViewRow[]>();
    for (const check of checks) byNarration.set(check.narrationId, [...(byNarration.get(check.narrationId) ?? []), check]);
    return { verifying: new Set(verifying.map((row) => row.id)), byNarration };
  }

  const wasStored = (row: Pick<NarrationRow, 'completedAt'>) => row.completedAt !== null;

  return {
    /** A narration's checks kept, of every version, for its list of versions; none for a type that does not verify. */
    async history(narration: Pick<NarrationRow, 'id' | 'contentType'>) {
      const settings = await deps.settings.get();
      return settings.contentTypes[narration.contentType]?.verify ? deps.rows.history(narration.id) : null;
    },

    /** Narrations with their files and parts (a document's panel): the checks of the audio they hold now. */
    async forNarrations(narrations: readonly NarrationRow[]): Promise<Map<number, VerificationView | null>> {
      const { verifying, byNarration } = await checksOf(narrations);
      return new Map(
        narrations.map((row) => [
          row.id,
          verifying.has(row.id) && wasStored(row) ? verificationView(row, byNarration.get(row.id) ?? []) : null,
        ])
      );
    },

    /** Narrations of a list page (no files read). */
    async forList(narrations: readonly NarrationListRow[]): Promise<Map<number, VerificationView | null>> {
      const { verifying, byNarration } = await checksOf(narrations);
      return new Map(
        narrations.map((row) => [
          row.id,
          verifying.has(row.id) && wasStored(row) ? listedVerificationView(byNarration.get(row.id) ?? []) : null,
        ])
      );
    },
  };
}

export type VerificationViews = ReturnType<typeof createVerificationViews>;
