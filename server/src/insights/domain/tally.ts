import { LRUCache } from 'lru-cache';
import { LISTENING_MILESTONES, type ListeningEvent } from '../../../../shared/contracts/insights';
import { NetworkCaps } from './network-caps';

/**
 * What one instance counted since its last flush, in memory, so a thousand events a second make one
 * write per article every few seconds. Per-listener and per-network daily caps bound what forged
 * events can move: one listener's figures, by a bounded amount.
 */

export const PLAYS_PER_LISTENER_PER_DAY = 20;
const LISTENERS_REMEMBERED = 100_000;
/** When the narration's length is unknown. */
const UNKNOWN_LENGTH_SECONDS = 3600;

export interface ListeningTarget {
  articleId: string;
  contentType: string | null;
  documentId: string | null;
  locale: string | null;
  durationSeconds: number | null;
}

export interface DayDelta {
  day: string;
  target: ListeningTarget;
  plays: number;
  /** Per milestone, in LISTENING_MILESTONES order. */
  reached: number[];
  deciseconds: number;
}

export type UniqueKind = 'listener' | 'download';

export interface UniqueSighting {
  day: string;
  kind: UniqueKind;
  articleId: string;
  hash: string;
}

export const narrationDayKey = (day: string, articleId: string) => `${day}\n${articleId}`;

export interface TallyBatch {
  days: DayDelta[];
  uniques: UniqueSighting[];
}

interface ListenerState {
  plays: number;
  reached: number[];
  deciseconds: number;
  /** Arrived before the listener's first play. */
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
   * Beacons may arrive out of order (one connection each), so a milestone or seconds heard before a
   * play wait for it, at most one listening's worth. A listener its network has no room for is not remembered.
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

  #secondsPerPlay(target: ListeningTarget): number {
    return Math.ceil((target.durationSeconds ?? UNKNOWN_LENGTH_SECONDS) + 5);
  }

  download(day: string, target: ListeningTarget, hash: string, network = hash): boolean {
    if (!this.#networks.admitDownload(day, network, hash)) return false;
    this.#delta(day, target);
    this.#sighting({ day, kind: 'download', articleId: target.articleId, hash });
    return true;
  }

  get empty(): boolean {
    return this.#days.size === 0 && this.#uniques.size === 0;
  }

  /** The listeners' caps stay. */
  drain(): TallyBatch {
    const batch = { days: [...this.#days.values()], uniques: [...this.#uniques.values()] };
    this.#days = new Map();
    this.#uniques = new Map();
    return batch;
  }

  restore(batch: TallyBatch) {
    for (const delta of batch.days) {
      const into = this.#delta(delta.day, delta.target);
      into.plays += delta.plays;
      into.deciseconds += delta.deciseconds;
      delta.reached.forEach((count, index) => (into.reached[index] += count));
    }
    for (const sighting of batch.uniques) this.#sighting(sighting);
  }

  forgetBefore(day: string) {
    for (const key of this.#listeners.keys()) if (key.slice(0, 10) < day) this.#listeners.delete(key);
    this.#networks.forgetBefore(day);
  }
}

export interface WriteLimits {
  days: number;
  /** Inserted a few hundred a statement. */
  uniques: number;
}

/**
 * One transaction each, so none holds SQLite's synchronous driver long. A narration's day stays
 * whole with all its hashes, counted in the transaction that writes them; sorted in lock order.
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
