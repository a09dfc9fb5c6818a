#!/usr/bin/env node
/**
 * Builds the `<speech-narration>` player (player/src) into one minified ES module for modern
 * browsers, dist/player/speech-narration.mjs: what GET /api/speech/player.js serves and what
 * `import 'strapi-plugin-speech/player'` resolves to. Run by `npm run build`, `npm test`, the demo
 * and `npm run bench -- --build`, after the plugin build (which empties dist/server and dist/admin only).
 *
 *   node scripts/build-player.cjs    # writes the file, prints its size and gzip size
 */
const { build } = require('esbuild');
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { gzipSync } = require('node:zlib');

const root = path.resolve(__dirname, '..');
/** Relative to the package root; the server's player route reads the same path (server/src/player/asset.ts). */
const PLAYER_OUTPUT = 'dist/player/speech-narration.mjs';
/** The budget of issue 13: under 8 KB once gzipped. */
const PLAYER_GZIP_BUDGET = 8 * 1024;

/** The bundle's bytes, built in memory. */
async function bundlePlayer() {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['player/src/index.ts'],
    bundle: true,
    format: 'esm',
    minify: true,
    // Private class fields, color-mix() in the styles: browsers of 2023 on.
    target: ['chrome111', 'edge111', 'firefox113', 'safari16.4'],
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    logLevel: 'silent',
  });
  return Buffer.from(result.outputFiles[0].contents);
}

/** Sizes as a server would send them: raw, and gzip at zlib's default level. */
function sizesOf(bytes) {
  return { bytes: bytes.length, gzipBytes: gzipSync(bytes).length, budget: PLAYER_GZIP_BUDGET };
}

/** Builds and writes the player; returns its sizes. */
async function buildPlayer() {
  const bytes = await bundlePlayer();
  const file = path.join(root, PLAYER_OUTPUT);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  return { file: PLAYER_OUTPUT, ...sizesOf(bytes) };
}

/** The sizes of the built file, or null when it has not been built. */
function builtPlayerSizes() {
  try {
    return sizesOf(readFileSync(path.join(root, PLAYER_OUTPUT)));
  } catch {
    return null;
  }
}

module.exports = { PLAYER_OUTPUT, PLAYER_GZIP_BUDGET, bundlePlayer, sizesOf, buildPlayer, builtPlayerSizes };

if (require.main === module) {
  buildPlayer().then(
    ({ file, bytes, gzipBytes, budget }) =>
      console.log(`player: ${file}, ${bytes} bytes, ${gzipBytes} bytes gzip (budget ${budget}${gzipBytes < budget ? '' : ', OVER'})`),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    }
  );
}
