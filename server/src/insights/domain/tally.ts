import { LRUCache } from 'lru-cache';
import { LISTENING_MILESTONES, type ListeningEvent } from '../../../../shared/contracts/insights';
import { NetworkCaps } from './network-caps';

/**
 * What one instance has counted since its last flush, kept in memory so that a thousand events a
 * second make one database write per article every few seconds (insights.service.ts flushes it).
 * Pure: no Strapi, no clock.
 *
 * A listener (one hash: network, user agent, narration, day) counts at most
 * PLAYS_PER_LISTENER_PER_DAY plays of a narration a day, each milestone at most once per play it
 * counted, and at most the narration's length in seconds heard per play: a client sending forged
 * events moves the figures of one listener, by a bounded amount, and nothing else. A network counts
 * at most LISTENERS_PER_NETWORK listeners and PLAYS_PER_NETWORK plays of a narration a day
 * (network-caps.ts), however many user agents it sends.
 */

export const PLAYS_PER_LISTENER_PER_DAY = 20;
/** Listeners remembered for the caps; the oldest are forgotten first. */
const LISTENERS_REMEMBERED = 100_000;
/** Seconds heard a play may add when the narration's length is unknown. */
const UNKNOWN_LENGTH_SECONDS = 3600;

/** The narration counted, as the public routes found it. */
export interface ListeningTarget {
  articleId: string;
  contentType: string | null;
  documentId: string | null;
  locale: string | null;
  durationSeconds: number | null;
}

/** What a flush adds to one narration's day. */
export interface DayDelta {
  day: string;
  target: ListeningTarget;
  plays: number;
  /** Per milestone (LISTENING_MILESTONES, in order). */
  reached: number[];
  deciseconds: number;
}

export type UniqueKind = 'listener' | 'download';

/** A listener or a download seen on a day (its hash); the flush inserts it once and counts them. */
export interface UniqueSighting {
  day: string;
  kind: UniqueKind;
  articleId: string;
  hash: string;
}

/** One narration's day, as the flush groups its totals and hashes. */
export const narrationDayKey = (day: string, articleId: string) => `${day}\n${articleId}`;

export interface TallyBatch {
  days: DayDelta[];
  uniques: UniqueSighting[];
}

interface ListenerState {
  plays: number;
  reached: number[];
  deciseconds: number;
  /** Milestones (indexes) and tenths of seconds that arrived before the listener's first play. */
  early: number[];
  earlyDeciseconds: number;
}

const zeros = () => LISTENING_MILESTONES.map(() => 0);

export class ListeningTally {
  #days = new Map<string, DayDelta>();
  #uniques = new Map<string, UniqueSighting>();
  #listeners = new LRUCache<string, ListenerState>({ max: LISTENERS_REMEMBERED });
  #networks = new NetworkCaps();

  #delta(day: string, target: ListeningTarget): DayDelta {
    const key = narrationDayKey(day, target.articleId);
    let delta = this.#days.get(key);
    if (!delta) {
      delta = { day, target, plays: 0, reached: zeros(), deciseconds: 0 };
      this.#days.set(key, delta);
    }
    return delta;
  }

  #sighting(sighting: UniqueSighting) {
    this.#uniques.set(`${sighting.day}\n${sighting.kind}\n${sighting.hash}`, sighting);
  }

  /**
   * Counts one event of the player; false when the listener's caps left it out (or it waits for
   * its play). A browser's beacons may arrive out of order (each on a connection of its own): a
   * milestone or seconds heard before any play of the listener waits for that play, at most one
   * listening's worth, and is counted with it. `network`: the hash of the listener's network and
   * the narration (a listener alone in its network when not given); a listener its network has no
   * room for is not counted at all, nor remembered.
   */
  listen(day: string, target: ListeningTarget, hash: string, event: ListeningEvent, network = hash): boolean {
    if (!this.#networks.admitListener(day, network, hash)) return false;
    const stateKey = `${day}\n${hash}`;
    const state = this.#listeners.get(stateKey) ?? { plays: 0, reached: zeros(), deciseconds: 0, early: [], earlyDeciseconds: 0 };
    this.#listeners.set(stateKey, state);
    const milestone = event.event === 'end' ? 100 : event.event === 'progress' ? event.percent : undefined;
    const index = milestone === undefined ? -1 : LISTENING_MILESTONES.indexOf(milestone as (typeof LISTENING_MILESTONES)[number]);
    const tenths = Math.round(event.heard * 10);
    let counted = false;
    if (event.event === 'play' && state.plays < PLAYS_PER_LISTENER_PER_DAY && this.#networks.takePlay(day, network)) {
      state.plays += 1;
      this.#delta(day, target).plays += 1;
      this.#sighting({ day, kind: 'listener', articleId: target.articleId, hash });
      counted = true;
    }
    const mayWait = state.plays < PLAYS_PER_LISTENER_PER_DAY;
    for (const reachedIndex of [...state.early.splice(0), ...(index >= 0 ? [index] : [])]) {
      if (state.reached[reachedIndex] < state.plays) {
        state.reached[reachedIndex] += 1;
        this.#delta(day, target).reached[reachedIndex] += 1;
        counted = true;
      } else if (mayWait && !state.early.includes(reachedIndex)) {
        state.early.push(reachedIndex);
      }
    }
    const perPlay = this.#secondsPerPlay(target) * 10;
    const arrived = tenths + state.earlyDeciseconds;
    const heard = Math.max(0, Math.min(arrived, state.plays * perPlay - state.deciseconds));
    state.earlyDeciseconds = mayWait ? Math.min(arrived - heard, perPlay) : 0;
    if (heard > 0) {
      state.deciseconds += heard;
      this.#delta(day, target).deciseconds += heard;
      counted = true;
    }
    return counted;
  }

  /** The most seconds one play may add: the narration's length and a little (or an hour, unknown). */
  #secondsPerPlay(target: ListeningTarget): number {
    return Math.ceil((target.durationSeconds ?? UNKNOWN_LENGTH_SECONDS) + 5);
  }

  /** Notes a feed download (its hash, of the same kind of key as a listener's); false when its network has no room for it. */
  download(day: string, target: ListeningTarget, hash: string, network = hash): boolean {
    if (!this.#networks.admitDownload(day, network, hash)) return false;
    this.#delta(day, target);
    this.#sighting({ day, kind: 'download', articleId: target.articleId, hash });
    return true;
  }

  get empty(): boolean {
    return this.#days.size === 0 && this.#uniques.size === 0;
  }

  /** Everything counted since the last drain, and a fresh start (the listeners' caps stay). */
  drain(): TallyBatch {
    const batch = { days: [...this.#days.values()], uniques: [...this.#uniques.values()] };
    this.#days = new Map();
    this.#uniques = new Map();
    return batch;
  }

  /** Puts back what a flush could not write, added to what came in meanwhile. */
  restore(batch: TallyBatch) {
    for (const delta of batch.days) {
      const into = this.#delta(delta.day, delta.target);
      into.plays += delta.plays;
      into.deciseconds += delta.deciseconds;
      delta.reached.forEach((count, index) => (into.reached[index] += count));
    }
    for (const sighting of batch.uniques) this.#sighting(sighting);
  }

  /** Forgets the caps of days before `day` (they can no longer be counted into). */
  forgetBefore(day: string) {
    for (const key of this.#listeners.keys()) if (key.slice(0, 10) < day) this.#listeners.delete(key);
    this.#networks.forgetBefore(day);
  }
}

/** How much one flush transaction writes at most (batchesToWrite). */
export interface WriteLimits {
  /** Narration days (each one upsert). */
  days: number;
  /** Hashes (inserted a few hundred a statement). */
  uniques: number;
}

/**
 * A drained batch cut into batches written one transaction each, so that no transaction holds
 * SQLite's synchronous driver (and with it every request) for long. A narration's day goes whole
 * into one batch with every hash of it: its listeners and downloads are counted from its hashes in
 * the transaction that writes them, so a count never misses a hash written later. Batches follow the
 * order (day, narration) in which the writes take their locks. A narration with more hashes than
 * `limits.uniques` gets a batch of its own rather than being split.
 */
export function batchesToWrite(batch: TallyBatch, limits: WriteLimits): TallyBatch[] {
  const groups = new Map<string, TallyBatch>();
  const groupOf = (key: string) => {
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { days: [], uniques: [] }));
    return group;
  };
  for (const delta of batch.days) groupOf(narrationDayKey(delta.day, delta.target.articleId)).days.push(delta);
  for (const sighting of batch.uniques) groupOf(narrationDayKey(sighting.day, sighting.articleId)).uniques.push(sighting);

  const batches: TallyBatch[] = [];
  let current: TallyBatch = { days: [], uniques: [] };
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!;
    const full = current.days.length + group.days.length > limits.days || current.uniques.length + group.uniques.length > limits.uniques;
    if (full && (current.days.length > 0 || current.uniques.length > 0)) {
      batches.push(current);
      current = { days: [], uniques: [] };
    }
    current.days.push(...group.days);
    current.uniques.push(...group.uniques);
  }
  if (current.days.length > 0 || current.uniques.length > 0) batches.push(current);
  return batches;
}
