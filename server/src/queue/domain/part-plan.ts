/** A segmented version against the parts at hand: what to ask for, what is ready, and the fair order. Pure. */
import type { NarrationPartRow } from './narration-row';
import { generatedBefore } from './states/content';
import { storedKeys, type PlannedPart, type StoredPart } from './states/segment-map';
import type { NarrationState } from './states/types';

export interface PartToNarrate extends PlannedPart {
  text: string;
  voiceId?: string;
}

export interface PartsPlan {
  create: PartToNarrate[];
  retry: NarrationPartRow[];
  remove: NarrationPartRow[];
  /** Every part is stored or its result is at the service: join at once. */
  allReady: boolean;
  /** What the version pays: the parts asked for now (each key once). */
  characters: number;
  credits: number;
}

/** All stored parts but those a verification's mismatch asked for afresh. */
export function partsAtHand(row: { segments?: readonly StoredPart[] | null; freshParts?: readonly string[] | null }): StoredPart[] | null {
  if (!row.segments) return null;
  const fresh = new Set(row.freshParts ?? []);
  return row.segments.filter((part) => !fresh.has(part.key));
}

export const isReadyPart = (row: Pick<NarrationPartRow, 'status'>) => row.status === 'storing';
const needsAsking = (row: Pick<NarrationPartRow, 'status'>) => row.status === 'failed' || row.status === 'cancelled';

export function planParts(
  parts: readonly PartToNarrate[],
  stored: readonly StoredPart[] | null | undefined,
  rows: readonly NarrationPartRow[]
): PartsPlan {
  const inStore = storedKeys(stored);
  const rowByKey = new Map(rows.map((row) => [row.articleId, row]));
  const wanted = new Set(parts.map((part) => part.key));
  const plan: PartsPlan = {
    create: [],
    retry: [],
    remove: rows.filter((row) => !wanted.has(row.articleId)),
    allReady: true,
    characters: 0,
    credits: 0,
  };
  const seen = new Set<string>();
  for (const part of parts) {
    // Two identical paragraphs make one part, generated once and heard twice.
    if (seen.has(part.key)) continue;
    seen.add(part.key);
    if (inStore.has(part.key)) continue;
    const row = rowByKey.get(part.key);
    if (row && isReadyPart(row)) continue;
    plan.allReady = false;
    if (row && !needsAsking(row)) continue; // on its way, paid for by the version that asked for it
    if (row) plan.retry.push(row);
    else plan.create.push(part);
    plan.characters += part.characters;
    plan.credits += part.credits;
  }
  return plan;
}

export type PartsProgress =
  | { kind: 'ready'; ready: number; total: number }
  | { kind: 'waiting'; ready: number; total: number }
  /** `index` is 1-based, for "Part 3 of 18". */
  | { kind: 'failed'; ready: number; total: number; index: number; row: NarrationPartRow };

export function partsProgress(
  plan: readonly PlannedPart[],
  stored: readonly StoredPart[] | null | undefined,
  rows: readonly NarrationPartRow[]
): PartsProgress {
  const inStore = storedKeys(stored);
  const rowByKey = new Map(rows.map((row) => [row.articleId, row]));
  let ready = 0;
  let failed: { index: number; row: NarrationPartRow } | null = null;
  for (const [position, part] of plan.entries()) {
    const row = rowByKey.get(part.key);
    if (inStore.has(part.key) || (row && isReadyPart(row))) ready += 1;
    else if (row && needsAsking(row)) failed ??= { index: position + 1, row };
  }
  const total = plan.length;
  if (failed) return { kind: 'failed', ready, total, ...failed };
  return { kind: ready === total ? 'ready' : 'waiting', ready, total };
}

export function partFailureReason(progress: Extract<PartsProgress, { kind: 'failed' }>): string {
  const reason = progress.row.lastError ?? 'The speech service could not narrate it.';
  return `Part ${progress.index} of ${progress.total}: ${reason}`;
}

export type QueuedWork<Article, Part> = { kind: 'article'; row: Article } | { kind: 'part'; row: Part };

/**
 * Fewest parts already taken from the same article first, then fewest parts left after it, then the
 * longest waiting: a short article goes before a long one's parts, and two long ones alternate.
 */
export function fairOrder<
  Article extends { id: number; nextAttemptAt: string | null },
  Part extends { id: number; turn: number; partsAfter: number; nextAttemptAt: string | null },
>(articles: readonly Article[], parts: readonly Part[]): Array<QueuedWork<Article, Part>> {
  const due = (value: string | null) => (value === null ? 0 : Date.parse(value));
  const keyed = [
    ...articles.map((row) => ({ work: { kind: 'article' as const, row }, turn: 0, after: 0, at: due(row.nextAttemptAt), id: row.id })),
    ...parts.map((row) => ({
      work: { kind: 'part' as const, row },
      turn: row.turn ?? 0,
      after: row.partsAfter ?? 0,
      at: due(row.nextAttemptAt),
      id: row.id,
    })),
  ];
  keyed.sort(
    (a, b) =>
      a.turn - b.turn ||
      a.after - b.after ||
      a.at - b.at ||
      (a.work.kind === b.work.kind ? a.id - b.id : a.work.kind === 'article' ? -1 : 1)
  );
  return keyed.map((entry) => entry.work);
}

/**
 * What a version's parts would ask of the service: `changed` on a publish (what is neither stored
 * nor on its way), `fresh` on a regenerate (nothing reused, each distinct part once).
 */
export function partsAsked(
  parts: readonly PartToNarrate[],
  row: (Pick<NarrationState, 'submissions' | 'narratedFingerprint'> & Parameters<typeof partsAtHand>[0]) | null | undefined,
  rows: readonly NarrationPartRow[]
): { changed: PartsPlan; fresh: PartsPlan } {
  const changed = planParts(parts, row ? partsAtHand(row) : null, row ? rows : []);
  return { changed, fresh: row && generatedBefore(row) ? planParts(parts, null, []) : changed };
}
