import { LRUCache } from 'lru-cache';

/**
 * Caps per network (IPv4 address, IPv6 /64) on one narration's day, whatever user agents it sends:
 * otherwise a script rotating its user agent is a new listener at every request.
 */

/** A household's devices or a small office; larger shared addresses are under-counted, the price of unmovable figures. */
export const LISTENERS_PER_NETWORK = 10;
export const PLAYS_PER_NETWORK = 40;
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

  /** An already-admitted listener, or one more while there is room. */
  admitListener(day: string, network: string, listener: string): boolean {
    return admit(this.#of(day, network).listeners, listener);
  }

  admitDownload(day: string, network: string, download: string): boolean {
    return admit(this.#of(day, network).downloads, download);
  }

  takePlay(day: string, network: string): boolean {
    const state = this.#of(day, network);
    if (state.plays >= PLAYS_PER_NETWORK) return false;
    state.plays += 1;
    return true;
  }

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
