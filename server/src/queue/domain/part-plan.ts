/**
 * A segmented version against the parts at hand (docs/segmented-narration.md): which parts are to
 * be asked for, which are ready, what the version pays, and in which order queued work is taken.
 * Pure: no Strapi, no I/O.
 */
import type { NarrationPartRow } from './narration-row';
import { storedKeys, type PlannedPart, type StoredPart } from './states/segment-map';

/** A part of the plan with the text it is asked for with, and its own voice when its passage has one. */
export interface PartToNarrate extends PlannedPart {
  text: string;
  voiceId?: string;
}

export interface PartsPlan {
  /** Parts no row holds and no stored audio has: new rows, in reading order. */
  create: PartToNarrate[];
  /** Rows of parts that failed or were cancelled: asked for again. */
  retry: NarrationPartRow[];
  /** Rows of parts the version no longer has. */
  remove: NarrationPartRow[];
  /** Every part is stored or its result is at the service: join at once. */
  allReady: boolean;
  /** What the version pays: the parts asked for now (each key once). */
  characters: number;
  credits: number;
}

/**
 * The parts of the stored audio a version may take as they are: all of them, but those a
 * verification's mismatch asked for afresh (`freshParts`, until the next store).
 */
export function partsAtHand(row: { segments?: readonly StoredPart[] | null; freshParts?: readonly string[] | null }): StoredPart[] | null {
  if (!row.segments) return null;
  const fresh = new Set(row.freshParts ?? []);
  return row.segments.filter((part) => !fresh.has(part.key));
}

/** A part row whose result is at the service, ready to be joined. */
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

/** Where a segmented article awaiting its parts stands: all ready, one failed for good, or waiting. */
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

/** Why an article failed with one of its parts. */
export function partFailureReason(progress: Extract<PartsProgress, { kind: 'failed' }>): string {
  const reason = progress.row.lastError ?? 'The speech service could not narrate it.';
  return `Part ${progress.index} of ${progress.total}: ${reason}`;
}

/** Queued work as the worker takes it: an article, or a part of a segmented one. */
export type QueuedWork<Article, Part> = { kind: 'article'; row: Article } | { kind: 'part'; row: Part };

/**
 * The fair order of queued work: fewest parts already taken from the same article first
 * (an article asks in one request: its turn is 0; a part's turn is its place among its article's
 * new parts), then the fewest parts left after it (an article asked whole, or a part that ends its
 * article, before the first of twenty), then the longest waiting. A short article published after
 * a long one, or with it, goes before the long one's parts, the first one included; two long ones
 * alternate. A long article waits behind short ones published meanwhile, as any article waits behind
 * a backlog; it is not passed by another long one.
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
