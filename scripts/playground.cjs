#!/usr/bin/env node
/**
 * Compiles and starts the playground Strapi app (used by `npm run demo` and the integration
 * tests). Holding Strapi in this process, not behind npx, keeps the real PID for clean stops.
 *
 *   node scripts/playground.cjs compile   # TypeScript app -> playground/dist
 *   node scripts/playground.cjs start     # load + listen (HOST/PORT from the environment)
 */
const path = require('node:path');

const appDir = path.resolve(__dirname, '..', 'playground');

async function compile() {
  const { compileStrapi } = require('@strapi/strapi');
  return compileStrapi({ appDir, ignoreDiagnostics: false });
}

async function start() {
  const { createStrapi } = require('@strapi/strapi');
  process.env.STRAPI_TELEMETRY_DISABLED = 'true';
  const app = createStrapi({ appDir, distDir: path.join(appDir, 'dist'), autoReload: false });
  // Strapi installs its own SIGTERM/SIGINT handlers (destroy, then exit); a second handler here
  // would run destroy twice at once and close the database under the plugins' shutdown.
  await app.start();
  // One machine-readable line for the parent process (tests, demo).
  process.stdout.write(`${JSON.stringify({ event: 'strapi-ready', url: app.config.get('server.url') })}\n`);
}

const command = process.argv[2];
const run = command === 'compile' ? compile : command === 'start' ? start : null;
if (!run) {
  console.error('usage: node scripts/playground.cjs compile|start');
  process.exitCode = 2;
} else {
  run().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
