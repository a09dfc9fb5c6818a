/**
 * The player as shipped: the build's output, the package's "./player" export and the file the
 * server's route reads are one and the same path; the bundle stays under its budget and names no
 * other host; the route's hash, ETag and caching rule.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import {
  IMMUTABLE_CACHE,
  PLAYER_FILE,
  REVALIDATED_CACHE,
  findPlayerFile,
  playerAsset,
  playerCacheControl,
} from '../../../server/src/player/asset';
import { etagMatches } from '../../../server/src/http/etag';

const ROOT = path.resolve(__dirname, '../../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const buildScript = require('../../../scripts/build-player.cjs') as {
  PLAYER_OUTPUT: string;
  PLAYER_GZIP_BUDGET: number;
  bundlePlayer: () => Promise<Buffer>;
};

describe('player: the shipped file', () => {
  it('`strapi-plugin-speech/player` resolves (for bundlers, the import condition) to the file the build writes and the route serves', () => {
    // A child Node resolves the package by its own name, as an application's bundler would.
    const resolved = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "console.log(import.meta.resolve('strapi-plugin-speech/player'))"],
      {
        cwd: ROOT,
        encoding: 'utf8',
      }
    );
    expect(resolved.stderr).toBe('');
    const expected = pathToFileURL(path.join(ROOT, PLAYER_FILE)).href;
    expect(resolved.stdout.trim()).toBe(expected);
    expect(buildScript.PLAYER_OUTPUT).toBe(PLAYER_FILE);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.exports['./player']).toBe(`./${PLAYER_FILE}`);
    expect(pkg.files).toContain(PLAYER_FILE.split('/')[0]);
  });

  it('is one ES module under 8 KB gzip that requests nothing from another host', async () => {
    const bundle = await buildScript.bundlePlayer();
    const source = bundle.toString('utf8');
    expect(gzipSync(bundle).length).toBeLessThan(buildScript.PLAYER_GZIP_BUDGET);
    expect(buildScript.PLAYER_GZIP_BUDGET).toBe(8192);
    // Self-contained: no import of anything, no absolute URL (fonts, icons, analytics).
    expect(source).not.toMatch(/\bimport\s*[("'{*]|\bfrom\s*["']/);
    expect(source).not.toMatch(/https?:\/\/|url\(/);
    expect(source).toContain('customElements.define("speech-narration"');
  });
});

describe('player: hash, ETag and caching of GET /api/speech/player.js', () => {
  const asset = playerAsset(Buffer.from('export const a = 1;'));

  it('hashes the content: a strong ETag that changes with the file', () => {
    expect(asset.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(asset.etag).toBe(`"${asset.hash}"`);
    expect(playerAsset(Buffer.from('export const a = 1;')).hash).toBe(asset.hash);
    expect(playerAsset(Buffer.from('export const a = 2;')).hash).not.toBe(asset.hash);
  });

  it('If-None-Match: the ETag itself, in a list, weak or `*` match; another tag, a part of it or nothing do not', () => {
    for (const header of [asset.etag, `"0000000000000000", ${asset.etag}`, `W/${asset.etag}`, ' * '])
      expect([header, etagMatches(header, asset.etag)]).toEqual([header, true]);
    for (const header of [undefined, '', '"0000000000000000"', asset.hash, `"${asset.hash.slice(1)}"`, `${asset.etag}x`])
      expect([header, etagMatches(header, asset.etag)]).toEqual([header, false]);
  });

  it('caches a year (immutable) only the URL that names the current hash; otherwise briefly, then revalidates', () => {
    expect(playerCacheControl(asset, asset.hash)).toBe(IMMUTABLE_CACHE);
    expect(IMMUTABLE_CACHE).toMatch(/max-age=31536000.*immutable/);
    for (const version of [undefined, '', 'old0123456789ab', [asset.hash, asset.hash], asset.hash.toUpperCase()])
      expect(playerCacheControl(asset, version)).toBe(REVALIDATED_CACHE);
    expect(REVALIDATED_CACHE).toMatch(/max-age=\d{1,4},.*must-revalidate/);
  });

  it('finds the built file from the bundled server (dist/server) or its sources, and nothing where there is none', () => {
    const packageRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'speech-player-'));
    try {
      fs.mkdirSync(path.join(packageRoot, 'dist', 'server'), { recursive: true });
      fs.mkdirSync(path.join(packageRoot, 'server', 'src', 'player'), { recursive: true });
      expect(findPlayerFile(path.join(packageRoot, 'dist', 'server'))).toBeNull();
      fs.mkdirSync(path.join(packageRoot, path.dirname(PLAYER_FILE)), { recursive: true });
      fs.writeFileSync(path.join(packageRoot, PLAYER_FILE), 'export {};');
      expect(findPlayerFile(path.join(packageRoot, 'dist', 'server'))).toBe(path.join(packageRoot, PLAYER_FILE));
      expect(findPlayerFile(path.join(packageRoot, 'server', 'src', 'player'))).toBe(path.join(packageRoot, PLAYER_FILE));
    } finally {
      fs.rmSync(packageRoot, { recursive: true, force: true });
    }
  });
});
