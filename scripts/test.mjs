#!/usr/bin/env node
/**
 * `npm test`: builds what the tests run against (the plugin's dist, the compiled playground and,
 * for the browser tests, its admin bundle), then runs every jest project. Extra arguments go to
 * jest, e.g. `npm test -- --selectProjects unit`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const selecting = args.includes('--selectProjects');
const onlyUnit = selecting && !args.some((a) => ['integration', 'e2e', 'emulator'].includes(a));
const withBrowser = !selecting || args.includes('e2e');

function run(label, command, commandArgs, options = {}) {
  const started = Date.now();
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, STRAPI_TELEMETRY_DISABLED: 'true' },
    ...options,
  });
  console.log(`[test] ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result.status ?? 1;
}

const sdkPlugin = path.join(root, 'node_modules/@strapi/sdk-plugin/bin/strapi-plugin.js');
const steps = onlyUnit
  ? []
  : [
      ['plugin build', [sdkPlugin, 'build']],
      ['plugin verify', [sdkPlugin, 'verify']],
      withBrowser
        ? // The browser tests need the playground's admin bundle; `strapi build` compiles the server too.
          [
            'playground build (server and admin)',
            [path.join(root, 'node_modules/@strapi/strapi/bin/strapi.js'), 'build'],
            { cwd: path.join(root, 'playground') },
          ]
        : ['playground compile', [path.join(root, 'scripts/playground.cjs'), 'compile']],
    ];

let status = 0;
for (const [label, commandArgs, options] of steps) {
  status = run(label, process.execPath, commandArgs, options);
  if (status !== 0) break;
}
if (status === 0) {
  status =
    spawnSync(process.execPath, [path.join(root, 'node_modules/jest/bin/jest.js'), '--runInBand', ...args], { cwd: root, stdio: 'inherit' })
      .status ?? 1;
}
process.exitCode = status;
