/**
 * Which stores the verifier looks at: per type that verifies, the stores from about the moment it
 * began to verify (`from`: a type turned on does not send the site's older audio to speech to
 * text), up to where they were seen. The verifier sees a type turned on at its next pass, at most
 * PASS_EVERY_MS later (or at once, woken by the store that follows): `from` is set that much before
 * the pass that first sees it. A store committed a little before one already seen (two instances) is
 * still found: each sweep looks back LOOK_BACK_MS, never before `from`. Kept in the plugin store,
 * so a restart carries on; a type no longer verifying is dropped, and begins anew if turned on again.
 *
 * Pure: no Strapi, no I/O.
 */

export const LOOK_BACK_MS = 5 * 60_000;
/** The longest a verifier waits between passes when nothing is under way (verifier.ts). */
export const PASS_EVERY_MS = 30_000;

export interface SweepState {
  types: Record<string, { from: string; seen: string }>;
}

const later = (a: string, b: string) => (Date.parse(a) >= Date.parse(b) ? a : b);

/**
 * The state for the types verifying now, and whether it changed. A new type begins PASS_EVERY_MS
 * before `now`, or when this verifier last read the settings without it (`lastRead`), if later:
 * it was turned on after that read.
 */
export function currentSweep(
  saved: SweepState | null | undefined,
  types: readonly string[],
  now: Date,
  lastRead?: { at: Date; types: readonly string[] }
): { state: SweepState; changed: boolean } {
  const before = saved?.types ?? {};
  const beginning = (uid: string) => {
    const earliest = now.getTime() - PASS_EVERY_MS;
    const readWithout = lastRead && !lastRead.types.includes(uid) ? lastRead.at.getTime() : earliest;
    return new Date(Math.max(earliest, readWithout)).toISOString();
  };
  const state: SweepState = {
    types: Object.fromEntries(types.map((uid) => [uid, before[uid] ?? { from: beginning(uid), seen: beginning(uid) }])),
  };
  const changed = types.some((uid) => !before[uid]) || Object.keys(before).some((uid) => !types.includes(uid));
  return { state, changed };
}

/** The earliest store time any type still looks at; null when no type verifies. */
export function sweepSince(state: SweepState): Date | null {
  const starts = Object.values(state.types).map(({ from, seen }) => Math.max(Date.parse(from), Date.parse(seen) - LOOK_BACK_MS));
  return starts.length > 0 ? new Date(Math.min(...starts)) : null;
}

/** Whether a stored narration is one its type checks: stored since the type began to verify. */
export function isChecked(state: SweepState, narration: { contentType: string; completedAt: string | null }): boolean {
  const type = state.types[narration.contentType];
  return Boolean(type && narration.completedAt && Date.parse(narration.completedAt) >= Date.parse(type.from));
}

/**
 * The state after a sweep read `stored` (earliest first): every store up to `now` was seen when
 * the read was not cut at its limit (`complete`), else up to the latest store read of each type.
 */
export function afterSweep(
  state: SweepState,
  stored: ReadonlyArray<{ contentType: string; completedAt: string | null }>,
  complete: boolean,
  now: Date
): SweepState {
  const types = { ...state.types };
  for (const [uid, type] of Object.entries(types)) {
    let seen = type.seen;
    if (complete) seen = later(now.toISOString(), seen);
    else for (const row of stored) if (row.contentType === uid && row.completedAt) seen = later(row.completedAt, seen);
    types[uid] = { ...type, seen };
  }
  return { types };
}
