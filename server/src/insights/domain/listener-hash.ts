import { createHash } from 'crypto';
import { listenerNetwork } from './network';

/**
 * What a listener or a download is counted by: a hash of the day's secret salt, the network
 * (listenerNetwork), the user agent and the narration. The salt is deleted once its day is over, so
 * the hash cannot be recomputed from an address afterwards nor linked to the next day's; the
 * narration in it keeps one listener's hashes of two articles apart. 128 bits: collisions among a
 * day's listeners are out of reach.
 */
export function listenerHash(input: { salt: string; address: string; userAgent: string; articleId: string; kind: string }): string {
  return createHash('sha256')
    .update([input.salt, input.kind, listenerNetwork(input.address), input.userAgent, input.articleId].join('\n'))
    .digest('hex')
    .slice(0, 32);
}

/** What a network's caps on a narration's day are kept by (network-caps.ts): a listener hash without the user agent. */
export function networkHash(input: { salt: string; address: string; articleId: string }): string {
  return listenerHash({ ...input, kind: 'network', userAgent: '' });
}
