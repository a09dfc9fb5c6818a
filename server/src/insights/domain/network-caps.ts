import { LRUCache } from 'lru-cache';

/**
 * What one network (an IPv4 address or an IPv6 /64, network.ts) may add to one narration's day,
 * whatever user agents it sends: a listener is a network and a user agent, so without this cap a
 * script that rotates its user agent was a new listener, with new plays and a new stored hash, at
 * every request. Pure: no Strapi, no clock. Kept in memory per instance (with k instances behind a
 * load balancer, a network can reach k times these caps at most).
 */

/**
 * Listeners (distinct user agents) a network may add to one narration's day, and so downloads
 * (one per listener a day): a household's phones, laptops and speakers, or a small office behind
 * one address. A larger office or a carrier's shared address is under-counted beyond it: the price
 * of figures a script cannot move by more than this.
 */
export const LISTENERS_PER_NETWORK = 10;
/** Plays a network may add to one narration's day: four a listener on average. */
export const PLAYS_PER_NETWORK = 40;
/** Networks remembered for the caps (per narration and day); the least recently seen are forgotten first. */
const NETWORKS_REMEMBERED = 100_000;

interface NetworkDay {
  listeners: Set<string>;
  downloads: Set<string>;
  plays: number;
}

export class NetworkCaps {
  #networks = new LRUCache<string, NetworkDay>({ max: NETWORKS_REMEMBERED });

  #of(day: string, network: string): NetworkDay {
    const key = `${day}\n${network}`;
    let state = this.#networks.get(key);
    if (!state) this.#networks.set(key, (state = { listeners: new Set(), downloads: new Set(), plays: 0 }));
    return state;
  }

  /** Whether this listener (hash) may count on this network's narration day: one already admitted, or one more while there is room. */
  admitListener(day: string, network: string, listener: string): boolean {
    return admit(this.#of(day, network).listeners, listener);
  }

  /** Whether this download (hash) may count, by the same rule as listeners. */
  admitDownload(day: string, network: string, download: string): boolean {
    return admit(this.#of(day, network).downloads, download);
  }

  /** Takes one of the network's plays of the day; false once they are all taken. */
  takePlay(day: string, network: string): boolean {
    const state = this.#of(day, network);
    if (state.plays >= PLAYS_PER_NETWORK) return false;
    state.plays += 1;
    return true;
  }

  /** Forgets the caps of days before `day`. */
  forgetBefore(day: string) {
    for (const key of this.#networks.keys()) if (key.slice(0, 10) < day) this.#networks.delete(key);
  }
}

function admit(admitted: Set<string>, hash: string): boolean {
  if (admitted.has(hash)) return true;
  if (admitted.size >= LISTENERS_PER_NETWORK) return false;
  admitted.add(hash);
  return true;
}
