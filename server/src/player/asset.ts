/** The built player, read once and kept; its content hash is its ETag and the `?v=` of its long-cached URL. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Also the package's "./player" export. */
export const PLAYER_FILE = 'dist/player/speech-narration.mjs';

/** A hashed URL never changes content: caches may keep it a year. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** The plain URL gets a new player when the plugin is updated: revalidated. */
export const REVALIDATED_CACHE = 'public, max-age=300, must-revalidate';

export interface PlayerAsset {
  body: Buffer;
  hash: string;
  etag: string;
}

export function playerAsset(body: Buffer): PlayerAsset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { body, hash, etag: `"${hash}"` };
}

export function playerCacheControl(asset: Pick<PlayerAsset, 'hash'>, version: unknown): string {
  return version === asset.hash ? IMMUTABLE_CACHE : REVALIDATED_CACHE;
}

/** The bundled server runs from dist/server, its sources from server/src/player. */
export function findPlayerFile(from: string): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, PLAYER_FILE);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

let loaded: PlayerAsset | null = null;

/** Null while not built: asked again next time. */
export function loadPlayerAsset(from: string = __dirname): PlayerAsset | null {
  if (loaded) return loaded;
  const file = findPlayerFile(from);
  if (file) loaded = playerAsset(readFileSync(file));
  return loaded;
}
