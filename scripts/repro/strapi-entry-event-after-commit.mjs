#!/usr/bin/env node
/**
 * A minimal reproduction, without the speech plugin, of a Strapi 5 crash seen when PostgreSQL
 * restarts: `node scripts/repro/strapi-entry-event-after-commit.mjs` (needs Debian's postgresql).
 *
 * The Document Service announces entry events once its transaction has committed
 * (@strapi/core dist/services/document-service/events.js: `onCommit(() => emitEvent(...))`), and
 * emitEvent first reads the entry back with everything populated (for a type with a media field,
 * `select distinct ... from files left join files_related_mph ...`). The database's transaction
 * context runs commit callbacks without awaiting or catching what they return
 * (@strapi/database dist/transaction-context.js: `store.commitCallbacks.forEach((cb) => cb())`),
 * so when that read fails because the database went away right after the commit, the rejection
 * is unhandled and Node ends the process.
 *
 * Here a bare app (one content type with a media field, no plugin of ours) creates an entry while
 * a commit callback registered before Strapi's stops PostgreSQL (a fast shutdown, as a restart
 * does). The script reports the unhandled rejection and where it came from.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';

const require = createRequire(import.meta.url);
/** Ends the process (bound, so the reproduction reads as the other scripts' leave()). */
const leave = process.exit.bind(process);
const { startCluster } = require('../postgres-cluster.cjs');
const { createStrapi } = require('@strapi/strapi');

const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = server.address();
    server.close(() => resolve(free));
  });
});
const cluster = startCluster({ port });
cluster.run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', 'CREATE DATABASE repro']);

const appDir = mkdtempSync(path.join(os.tmpdir(), 'strapi-repro-'));
const write = (file, text) => {
  mkdirSync(path.dirname(path.join(appDir, file)), { recursive: true });
  writeFileSync(path.join(appDir, file), text);
};
write('package.json', JSON.stringify({ name: 'strapi-repro', private: true, version: '0.0.0' }));
write(
  'config/database.js',
  `module.exports = { connection: { client: 'postgres', connection: { connectionString: '${cluster.url('repro')}' }, pool: { min: 0 } } };`
);
write('config/server.js', `module.exports = { host: '127.0.0.1', port: 0, app: { keys: ['a', 'b'] } };`);
write(
  'config/admin.js',
  `module.exports = { auth: { secret: 'x' }, apiToken: { salt: 'x' }, transfer: { token: { salt: 'x' } }, secrets: { encryptionKey: 'x' } };`
);
write('src/index.js', 'module.exports = { register() {}, bootstrap() {} };');
write(
  'src/api/thing/content-types/thing/schema.json',
  JSON.stringify({
    kind: 'collectionType',
    collectionName: 'things',
    info: { singularName: 'thing', pluralName: 'things', displayName: 'Thing' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' }, cover: { type: 'media', multiple: false, allowedTypes: ['images'] } },
  })
);
mkdirSync(path.join(appDir, 'public', 'uploads'), { recursive: true });

let finished = false;
const finish = (code, lines) => {
  if (finished) return;
  finished = true;
  console.log(lines.join('\n'));
  try {
    cluster.stop();
  } finally {
    rmSync(appDir, { recursive: true, force: true });
    leave(code);
  }
};
process.on('unhandledRejection', (reason) => {
  const error = reason instanceof Error ? reason : new Error(String(reason));
  finish(0, [
    'REPRODUCED: an unhandled rejection after the commit (Node ends a process on it unless a handler is installed):',
    `  ${error.message.split('\n')[0].slice(0, 300)}`,
    `  code: ${error.code ?? '(none)'}`,
  ]);
});

process.env.STRAPI_TELEMETRY_DISABLED = 'true';
const strapi = await createStrapi({ appDir, distDir: appDir, autoReload: false, serveAdminPanel: false }).load();
await strapi.db.transaction(async ({ onCommit }) => {
  // Registered first, so it runs first: the database stops between Strapi's commit and its event.
  onCommit(() => cluster.halt());
  await strapi.documents('api::thing.thing').create({ data: { title: 'Created just before a restart' } });
});
setTimeout(() => finish(1, ['NOT REPRODUCED: no unhandled rejection within 5 s of the commit.']), 5_000);
