#!/usr/bin/env node
/**
 * `npm run screenshots`: refreshes the README's screenshots (docs/screenshots/). Runs the browser
 * tests (`npm test -- --selectProjects e2e`: builds, real Strapi, headless Chromium), which leave
 * their screenshots in test-artifacts/e2e/, then copies the ones the README shows. The tests
 * themselves never write a tracked file.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const artifacts = path.join(root, 'test-artifacts', 'e2e');
const docs = path.join(root, 'docs', 'screenshots');
/** README image <- the browser test's screenshot. */
const README_SHOTS = {
  'settings.png': 'settings.png',
  'list-badges.png': 'list-badges.png',
  'edit-panel.png': 'edit-panel.png',
  'transcribe.png': 'transcribe-completed.png',
  // tests/e2e/usage.test.ts: Settings -> Speech usage, in English and in Arabic, and the home page widget.
  'usage.png': 'usage-en.png',
  'usage-ar.png': 'usage-ar-rtl.png',
  'home-widget.png': 'home-widget.png',
  // tests/e2e/listening.test.ts: Settings -> Speech listening, in English and in Arabic.
  'listening.png': 'listening-en.png',
  'listening-ar.png': 'listening-ar-rtl.png',
};

const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'test.mjs'), '--selectProjects', 'e2e'], {
  cwd: root,
  stdio: 'inherit',
});
if (run.status !== 0) {
  console.error('[screenshots] the browser tests failed; docs/screenshots is left as it was');
  process.exitCode = run.status ?? 1;
} else {
  mkdirSync(docs, { recursive: true });
  for (const [target, source] of Object.entries(README_SHOTS)) {
    const from = path.join(artifacts, source);
    if (!existsSync(from)) {
      console.error(`[screenshots] ${source} was not produced by the browser tests`);
      process.exitCode = 1;
      continue;
    }
    copyFileSync(from, path.join(docs, target));
    console.log(`[screenshots] docs/screenshots/${target} <- test-artifacts/e2e/${source}`);
  }
}
