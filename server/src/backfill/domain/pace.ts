import type { BackfillEstimateResponse, BackfillPace } from '../../../../shared/contracts/backfills';

/** Until the queue has stored a narration, a generation is taken to last this long. */
export const DEFAULT_GENERATION_SECONDS = 120;
const DAY_SECONDS = 86_400;

/**
 * The queue's pace: `maxInFlight` generations at once, each as long as the recent ones took, make
 * a day's drain; a backfill keeps about that much queued (or the backlog the site configured).
 */
export function paceOf({
  maxInFlight,
  generationSeconds,
  backlog,
}: {
  maxInFlight: number;
  generationSeconds: readonly number[];
  backlog?: number;
}): BackfillPace {
  const mean = generationSeconds.length
    ? generationSeconds.reduce((sum, s) => sum + s, 0) / generationSeconds.length
    : DEFAULT_GENERATION_SECONDS;
  const perDay = Math.max(1, Math.floor((maxInFlight * DAY_SECONDS) / Math.max(mean, 1)));
  return { perDay, backlog: backlog ?? perDay };
}

/** How many more a backfill may queue now, beside what all backfills keep queued. */
export const roomIn = (pace: BackfillPace, waiting: number) => Math.max(0, pace.backlog - waiting);

/**
 * The whole and a day of it, from the entries read: past the first `scanned`, the rest of the
 * archive is taken to be like them (as many already narrated, the same mean cost).
 */
export function estimateOf({
  total,
  scanned,
  pace,
  budgetRemaining,
}: {
  /** Live entries in the archive. */
  total: number;
  scanned: { entries: number; candidates: number; credits: number };
  pace: BackfillPace;
  budgetRemaining: number | null;
}): BackfillEstimateResponse {
  const extrapolated = scanned.entries < total;
  const share = scanned.entries === 0 ? 0 : scanned.candidates / scanned.entries;
  const documents = extrapolated ? Math.round(scanned.candidates + (total - scanned.entries) * share) : scanned.candidates;
  const mean = scanned.candidates === 0 ? 0 : scanned.credits / scanned.candidates;
  const credits = extrapolated ? Math.round(mean * documents) : scanned.credits;
  const perDayDocuments = Math.min(pace.perDay, documents);
  return {
    documents,
    credits,
    pace,
    perDay: { documents: perDayDocuments, credits: Math.round(mean * perDayDocuments) },
    days: documents === 0 ? 0 : Math.ceil(documents / pace.perDay),
    budgetRemaining,
    extrapolated,
  };
}
