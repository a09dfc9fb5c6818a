#!/usr/bin/env node
/**
 * `npm run build`: the plugin's dist, as it is packed and published. One list of steps, which
 * `npm test` (scripts/test.mjs) runs too, so the tests exercise exactly the package users get:
 * the sdk's build (server and admin bundles, their declarations), the contracts' declarations
 * (the sdk emits only server/src and admin/src, whose .d.ts import shared/contracts), the player.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** [label, node arguments]: each step runs as `node <arguments>` from the package root. */
export const PLUGIN_BUILD_STEPS = [
  ['plugin build', [path.join(root, 'node_modules/@strapi/sdk-plugin/bin/strapi-plugin.js'), 'build']],
  ['contract declarations', [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'shared/tsconfig.build.json')]],
  ['player build', [path.join(root, 'scripts/build-player.cjs')]],
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [label, args] of PLUGIN_BUILD_STEPS) {
    const { status } = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
    if (status !== 0) {
      console.error(`[build] ${label} failed`);
      process.exitCode = status ?? 1;
      break;
    }
  }
}
