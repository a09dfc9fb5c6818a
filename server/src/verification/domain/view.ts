/**
 * Which audio a narration's checks are of, and what they say together as the admin shows it.
 *
 * A whole narration's audio is its stored file: a new store is new audio, checked again. A
 * segmented narration's audio is its parts, each known by its key and the length of its frames:
 * a part an edit re-generated is new audio, an unchanged part keeps its check wherever it now sits
 * in the joined file (its places are moved by the part's current start); a part regenerated after
 * its mismatch keeps its key, and is new audio once the narration is stored again (wasRetaken).
 *
 * Pure: no Strapi, no I/O.
 */
import type { VerificationPlace, VerificationView } from '../../../../shared/contracts/verification';
import type { StoredPart } from '../../queue';
import { overallStatus, type CheckRow, type CheckStatus, type CheckViewRow } from './check';
import { MAX_PLACES } from './compare';

/** The narration's fields a check is made of. */
export interface CheckedNarration {
  audio?: { id: number; hash?: string | null } | null;
  segments?: readonly StoredPart[] | null;
  completedAt?: string | null;
}

/** One audio to check: the article's whole file, or one part of it. */
export interface AudioToCheck {
  audioKey: string;
  part: StoredPart | null;
}

export const wholeAudioKey = (audio: { id: number; hash?: string | null }) => `file:${audio.hash || audio.id}`;
export const partAudioKey = (part: Pick<StoredPart, 'key' | 'audioLength'>) => `part:${part.key}:${part.audioLength}`;

/** The audio a stored narration is checked by; none before it has audio. */
export function audioToCheck(narration: CheckedNarration): AudioToCheck[] {
  if (!narration.audio) return [];
  if (narration.segments?.length) return narration.segments.map((part) => ({ audioKey: partAudioKey(part), part }));
  return [{ audioKey: wholeAudioKey(narration.audio), part: null }];
}

/**
 * A check whose mismatch asked for a fresh take, ended before the narration's latest store: the
 * audio under its key was taken again (a part keeps its key), and is checked anew.
 */
export function wasRetaken(check: Pick<CheckRow, 'regenerated' | 'completedAt'>, narration: { completedAt: string | null }): boolean {
  if (!check.regenerated || !check.completedAt || !narration.completedAt) return false;
  return Date.parse(check.completedAt) < Date.parse(narration.completedAt);
}

const DONE: readonly CheckStatus[] = ['verified', 'mismatch', 'failed'];

/** The view of a narration's checks: those of its current audio, an audio not yet given a check counting as pending. */
export function verificationView(narration: CheckedNarration, rows: readonly CheckViewRow[]): VerificationView {
  const byKey = new Map(
    rows.filter((row) => !wasRetaken(row, { completedAt: narration.completedAt ?? null })).map((row) => [row.audioKey, row])
  );
  return viewOf(audioToCheck(narration).map(({ audioKey, part }) => ({ part, row: byKey.get(audioKey) ?? null })));
}

/**
 * The view of a narration in a list, which reads neither its files nor its parts: its checks as
 * they are (the verifier removes those of audio a store replaced); pending while none was made.
 */
export function listedVerificationView(rows: readonly CheckViewRow[]): VerificationView {
  return rows.length > 0 ? viewOf(rows.map((row) => ({ part: null, row }))) : viewOf([{ part: null, row: null }]);
}

function viewOf(current: ReadonlyArray<{ part: StoredPart | null; row: CheckViewRow | null }>): VerificationView {
  const statuses = current.map(({ row }) => row?.status ?? 'pending');
  let heardRight = 0;
  let sent = 0;
  let accuracyKnown = true;
  let placeCount = 0;
  const places: VerificationPlace[] = [];
  let checkedAt: string | null = null;
  for (const { part, row } of current) {
    if (!row?.result || (row.status !== 'verified' && row.status !== 'mismatch')) continue;
    if (row.wordAccuracy === null) accuracyKnown = false;
    else heardRight += row.wordAccuracy * row.result.sentWords;
    sent += row.result.sentWords;
    placeCount += row.result.placeCount;
    const offset = (part?.offsetMs ?? 0) / 1000;
    for (const place of row.result.places) places.push({ ...place, atSeconds: Math.round((place.atSeconds + offset) * 1000) / 1000 });
  }
  for (const { row } of current) if (row?.completedAt && (!checkedAt || row.completedAt > checkedAt)) checkedAt = row.completedAt;
  const failed = current.find(({ row }) => row?.status === 'failed')?.row;
  const anyCompared = current.some(({ row }) => row?.status === 'verified' || row?.status === 'mismatch');
  return {
    status: overallStatus(statuses),
    // A check too far from its text to align has no accuracy, nor then has the narration.
    wordAccuracy: anyCompared && accuracyKnown ? (sent > 0 ? heardRight / sent : 1) : null,
    placeCount,
    places: places.sort((a, b) => a.atSeconds - b.atSeconds).slice(0, MAX_PLACES),
    checks: { total: current.length, done: statuses.filter((status) => DONE.includes(status)).length },
    reason: failed?.lastError ?? null,
    checkedAt,
  };
}
