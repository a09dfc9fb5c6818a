/**
 * The built player (scripts/build-player.cjs) as GET /api/speech/player.js serves it: read once,
 * kept in memory with its content hash, which is its strong ETag and the `?v=` of its
 * long-cached URL.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where the build writes the player, from the package root (also the package's "./player" export). */
export const PLAYER_FILE = 'dist/player/speech-narration.mjs';

/** A hashed URL (`?v=<hash>`) never changes content: caches may keep it a year without asking. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** The plain URL gets a new player when the plugin is updated: kept briefly, then revalidated (a 304 when unchanged). */
export const REVALIDATED_CACHE = 'public, max-age=300, must-revalidate';

export interface PlayerAsset {
  body: Buffer;
  /** 16 hex digits of the content's SHA-256. */
  hash: string;
  etag: string;
}

export function playerAsset(body: Buffer): PlayerAsset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { body, hash, etag: `"${hash}"` };
}

/** Cache-Control for a request whose `v` query parameter is `version`. Pure. */
export function playerCacheControl(asset: Pick<PlayerAsset, 'hash'>, version: unknown): string {
  return version === asset.hash ? IMMUTABLE_CACHE : REVALIDATED_CACHE;
}

/** The built file, looked for from `from` upwards: the bundled server runs from dist/server, its sources from server/src/player. */
export function findPlayerFile(from: string): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, PLAYER_FILE);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

let loaded: PlayerAsset | null = null;

/** The player, read on the first request and kept; null while it has not been built (asked again next time). */
export function loadPlayerAsset(from: string = __dirname): PlayerAsset | null {
  if (loaded) return loaded;
  const file = findPlayerFile(from);
  if (file) loaded = playerAsset(readFileSync(file));
  return loaded;
}
