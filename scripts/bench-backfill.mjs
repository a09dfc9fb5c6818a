#!/usr/bin/env node
/**
 * Archive backfill at 10,000 published articles (SQLite), with the backlog cap in place:
 *  1. The playground Strapi starts once (the schema), an admin registers; Strapi stops and the
 *     bench writes N published English articles straight into `articles` (one transaction), then
 *     adds a trigger recording when the worker claims a queued narration (queued -> submitting).
 *  2. Strapi starts again (the type narrates nothing on its own, the backlog `--archive-backlog`, the
 *     emulator answering at once). The estimate (`POST /speech/backfills/estimate`, which reads the
 *     newest 5,000 entries and takes the rest to be like them) is timed, then the start.
 *  3. Enqueue: the time per entry the feeder takes to queue one (the spread of `created_at` of the
 *     backfill's first `--archive-backlog` rows, which one pass writes, over their count).
 *  4. Claim: for the first `--claims` narrations, the worker's tick up to its claim (the claim writes
 *     lease_expires_at = tick start + leaseMs; the trigger records when it is written); p50, p95.
 *  5. Across all of it, the most narrations of the backfill waiting at once (never past the backlog).
 *
 *   node scripts/bench-backfill.mjs [--archive 10000] [--archive-backlog 100] [--claims 300] [--build]
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  adminToken,
  ensureBuilt,
  json,
  numberOption,
  playgroundAround,
  playgroundWorkDir,
  runBench,
  sayAs,
  sleep,
  waitFor,
} from './bench-support.mjs';
import { stats, timed } from './bench/figures.mjs';
import { sqliteDatabase } from './bench/scale/databases.mjs';
import { CONTENT_TYPE, articleDocumentId } from './bench/scale/rows.mjs';

const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const say = sayAs('backfill');
const ARTICLES = numberOption(argv, 'archive', 10_000);
const BACKLOG = numberOption(argv, 'archive-backlog', 100);
const CLAIMS = numberOption(argv, 'claims', 300);
const LEASE_MS = 60_000;
const API_KEY = 'bench-backfill-key';
const credentials = { email: 'bench@example.com', password: 'BenchPassword1' };

function writeArticles(file, count) {
  const Database = require('better-sqlite3');
  const db = new Database(file);
  try {
    const columns = new Set(
      db
        .prepare('PRAGMA table_info(articles)')
        .all()
        .map((column) => column.name)
    );
    const row = (n, at) => ({
      document_id: articleDocumentId(n),
      title: `Archive article ${n}`,
      summary: `From the archive, number ${n}.`,
      body: JSON.stringify([
        { type: 'paragraph', children: [{ type: 'text', text: `${'Words of the archive, told again. '.repeat(8 + (n % 20))}${n}.` }] },
      ]),
      locale: 'en',
      published_at: at,
      created_at: at,
      updated_at: at,
    });
    const names = Object.keys(row(0, 0)).filter((name) => columns.has(name));
    const insert = db.prepare(`INSERT INTO articles (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`);
    const start = Date.now() - count * 60_000;
    db.transaction(() => {
      for (let n = 0; n < count; n += 1) {
        const values = row(n, start + n * 60_000);
        insert.run(names.map((name) => values[name]));
      }
    })();
  } finally {
    db.close();
  }
}

async function main() {
  ensureBuilt(argv, say);
  const { workDir } = playgroundWorkDir('speech-bench-backfill-');
  const db = await sqliteDatabase(workDir, { leaseMs: LEASE_MS });
  const playground = await playgroundAround({
    workDir,
    apiKey: API_KEY,
    emulatorArgs: ['--delay', '0', '--credits', '1000000000', '--rate-limit', '100000/60'],
    extra: {
      ...db.env,
      SPEECH_LEASE_MS: String(LEASE_MS),
      SPEECH_BACKFILL: JSON.stringify({ backlog: BACKLOG, intervalMs: 1_000 }),
      SPEECH_INSIGHTS: JSON.stringify({ enabled: false }),
      SPEECH_CONTENT_TYPES: JSON.stringify({ [CONTENT_TYPE]: { titleField: 'title', textFields: ['summary', 'body'], trigger: 'off' } }),
    },
  });
  const { url } = playground;

  let strapi = await playground.start();
  await adminToken(url, credentials);
  await strapi.stop();
  let started = Date.now();
  writeArticles(path.join(workDir, 'data.db'), ARTICLES);
  say(`${ARTICLES.toLocaleString('en-US')} published articles written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await db.installClaimProbe();
  await db.close();

  strapi = await playground.start();
  const token = await adminToken(url, credentials, { registered: true });
  const target = { contentType: CONTENT_TYPE, locale: 'en' };
  const estimate = await timed(() => json(`${url}/speech/backfills/estimate`, 'POST', target, token));
  if (estimate.value.status !== 200) throw new Error(`estimate: ${estimate.value.status} ${JSON.stringify(estimate.value.body)}`);
  const figures = estimate.value.body;
  say(
    `estimate of ${ARTICLES.toLocaleString('en-US')} entries: ${estimate.ms.toFixed(0)} ms (${figures.documents.toLocaleString('en-US')} entries, ` +
      `${figures.credits.toLocaleString('en-US')} credits, ${figures.perDay.documents.toLocaleString('en-US')} a day${figures.extrapolated ? ', extrapolated past 5,000' : ''})`
  );
  const start = await timed(() => json(`${url}/speech/backfills`, 'POST', target, token));
  if (start.value.status !== 201) throw new Error(`start: ${start.value.status} ${JSON.stringify(start.value.body)}`);
  const { id } = start.value.body;
  say(`start (the same count, then the row): ${start.ms.toFixed(0)} ms`);

  const sqlite = require('better-sqlite3');
  const reader = new sqlite(path.join(workDir, 'data.db'), { readonly: true });
  reader.pragma('busy_timeout = 5000');
  let mostWaiting = 0;
  const claimed = () => reader.prepare('SELECT count(*) AS n FROM bench_claims').get().n;
  await waitFor(
    async () => {
      const { n } = reader
        .prepare(`SELECT count(*) AS n FROM speech_narrations WHERE backfill = ? AND status NOT IN ('completed', 'failed', 'cancelled')`)
        .get(id);
      mostWaiting = Math.max(mostWaiting, n);
      return claimed() >= CLAIMS;
    },
    { timeoutMs: 30 * 60_000, intervalMs: 50, what: `${CLAIMS} claims` }
  );
  const firstRows = reader
    .prepare('SELECT created_at AS at FROM speech_narrations WHERE backfill = ? ORDER BY id LIMIT ?')
    .all(id, BACKLOG);
  const times = firstRows.map((row) => (typeof row.at === 'number' ? row.at : Date.parse(row.at)));
  const enqueueMs = (times.at(-1) - times[0]) / Math.max(1, times.length - 1);
  const claims = reader
    .prepare('SELECT lease_expires_at AS lease, claimed_at_ms AS at FROM bench_claims ORDER BY claimed_at_ms LIMIT ?')
    .all(CLAIMS)
    .map((row) => row.at - ((typeof row.lease === 'number' ? row.lease : Date.parse(row.lease)) - LEASE_MS));
  const claimStats = stats(claims, 'p50', 'p95');
  const view = await json(`${url}/speech/backfills/${id}`, 'GET', undefined, token);
  await json(`${url}/speech/backfills/${id}/cancel`, 'POST', {}, token);
  reader.close();
  await sleep(500);
  await strapi.stop();

  say(`enqueue: ${enqueueMs.toFixed(2)} ms an entry (the first ${times.length} rows one pass queued)`);
  say(
    `claim: p50 ${claimStats.p50.toFixed(1)} ms, p95 ${claimStats.p95.toFixed(1)} ms over ${claims.length} claims, the archive of ${ARTICLES.toLocaleString('en-US')} waiting behind`
  );
  say(`most of the backfill waiting at once: ${mostWaiting} (backlog ${BACKLOG}); ${view.body.done} stored when measured`);
  if (mostWaiting > BACKLOG) throw new Error(`the queue held ${mostWaiting} of the backfill, past the backlog of ${BACKLOG}`);
}

runBench('backfill', main, say);
