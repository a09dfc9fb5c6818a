#!/usr/bin/env node
/**
 * How the narration queue behaves with many rows (issue 15): the same figures at 1,000, 100,000
 * and 1,000,000 rows of `speech_narrations`, on SQLite and on PostgreSQL.
 *
 * For each database and size, on a fresh database:
 *  1. The emulator and the playground Strapi start once, so Strapi creates the schema (and its
 *     indexes); the bench registers an admin and creates 100 draft articles through the Content
 *     Manager, then stops Strapi and inserts N completed narrations straight into
 *     `speech_narrations` (better-sqlite3 prepared statements in transactions; PostgreSQL: one
 *     `INSERT ... SELECT FROM unnest($1::type[], ...)` per 10,000 rows), the first 100 of them for
 *     those 100 articles, and runs ANALYZE. Then Strapi starts again on that database
 *     (production mode, no admin panel, default worker tick: SPEECH_POLL_INTERVAL_MS unset = 2 s).
 *  2. Idle CPU: CPU time of the Strapi process's threads (/proc/<pid>/task/<tid>/schedstat) over 30 s
 *     after a 5 s settle, as % of one core, read in three 10 s parts: the figure is the median
 *     part (V8 may shrink the heap once, on its helper threads, at a random moment of the first
 *     minute), printed with the whole window and its main thread's share. On PostgreSQL the
 *     cluster's own processes are sampled as well (the queries a tick runs cost CPU there).
 *  3. Statuses: `POST /speech/narrations/statuses` for the 100 articles (100 rows answered),
 *     3 warm-ups then 20 timed requests, wall time seen by the bench; p50/p95.
 *  4. Publish -> submission: 5 articles created and published through the Content Manager one after
 *     another (each narration completed before the next publish, so the queue has room); time from
 *     the publish response to the emulator's arrival time of `POST /process-text` for that article.
 *  5. Claim: a queued row (next_attempt_at = now) inserted directly; a trigger the bench adds to
 *     `speech_narrations` records the moment the worker's claim (queued -> submitting) is written.
 *     The claim writes lease_expires_at = tick start + leaseMs, so
 *     claim ms = claim write - tick start = the worker tick's work up to and including that claim
 *     (lease recovery, callback time-outs, results to store, the claimable query, the dispatcher
 *     lease, the in-flight count, the conditional update). 5 claims; p50/max.
 *
 *   node scripts/bench-scale.mjs [--sizes 1000,100000,1000000] [--db sqlite,postgres]
 *                                [--idle-seconds 30] [--build]
 *
 * Needs a built plugin and playground (`--build` builds both first), Linux (/proc), and for
 * PostgreSQL Debian's `postgresql` package (initdb/pg_ctl from /usr/lib/postgresql/<v>/bin, PG_BIN
 * or PATH). As root the cluster runs as the `postgres` user (created as `benchpg` if missing).
 */
import {
  adminToken,
  benchArticle,
  contentManager,
  ensureBuilt,
  json,
  memoryOf,
  narrationStatuses,
  numberOption,
  optionOf,
  playgroundAround,
  playgroundWorkDir,
  runBench,
  sayAs,
  sleep,
  waitFor,
} from './bench-support.mjs';
import { stats, timed, timedRuns } from './bench/figures.mjs';
import { idleCpu } from './bench/process-cpu.mjs';
import { postgresDatabase, sqliteDatabase } from './bench/scale/databases.mjs';
import { explain, table } from './bench/scale/report.mjs';
import { CONTENT_TYPE, articleDocumentId, hex, insertColumns, narrationRow, queuedRow } from './bench/scale/rows.mjs';

// ---------------------------------------------------------------------------------------------
// Options
const argv = process.argv.slice(2);
const option = (name) => optionOf(argv, name);
const SIZES = (option('sizes') ?? '1000,100000,1000000').split(',').map((s) => Number(s.replace(/[_\s]/g, '')));
const DATABASES = (option('db') ?? 'sqlite,postgres').split(',').map((s) => s.trim());
const IDLE_SECONDS = numberOption(argv, 'idle-seconds', 30);
const SETTLE_SECONDS = 5;
const IDLE_WINDOWS = 3;
const STATUS_WARMUPS = 3;
const STATUS_RUNS = 20;
const DOCUMENTS = 100;
const PUBLISHES = 5;
const CLAIMS = 5;
const LEASE_MS = 60_000; // the plugin's default (SPEECH_LEASE_MS unset)
const API_KEY = 'bench-key';
const credentials = { email: 'bench@example.com', password: 'Bench-Passw0rd!' };

if (SIZES.some((n) => !Number.isInteger(n) || n < DOCUMENTS)) throw new Error(`--sizes: whole numbers of at least ${DOCUMENTS}`);
if (DATABASES.some((db) => db !== 'sqlite' && db !== 'postgres')) throw new Error('--db: sqlite, postgres or sqlite,postgres');

const say = sayAs('bench-scale');

const article = (label) =>
  benchArticle(label, {
    summary: 'A short summary that the narration reads before the body.',
    firstParagraph: `Paragraph one of article ${label}. The queue has room, so this goes out at once.`,
  });

// ---------------------------------------------------------------------------------------------
// One database at one size

async function runOne(kind, size) {
  const { workDir, remove: removeWorkDir } = playgroundWorkDir('speech-bench-scale-');
  const db = kind === 'sqlite' ? await sqliteDatabase(workDir, { leaseMs: LEASE_MS }) : await postgresDatabase({ leaseMs: LEASE_MS });
  const label = `${db.label} ${size.toLocaleString('en-US')}`;
  const result = { db: kind, rows: size };
  try {
    const playground = await playgroundAround({
      workDir,
      apiKey: API_KEY,
      emulatorArgs: ['--delay', '100', '--credits', '100000000', '--rate-limit', '1000/60'],
      extra: db.env,
    });
    const { emulator, url } = playground;
    const startStrapi = () => playground.start();
    const cm = (token) => contentManager(url, token, CONTENT_TYPE);

    // 1. Schema, an admin and 100 draft articles; then the rows, straight into the table.
    let started = Date.now();
    let strapi = await startStrapi();
    say(`${label}: schema created (first start ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    const firstToken = await adminToken(url, credentials);
    const drafts = [];
    for (let n = 0; n < DOCUMENTS; n += 1) drafts.push(await cm(firstToken).create(article(`draft-${n}`)));
    const locale = drafts[0].locale ?? 'en';
    await strapi.stop();

    const columns = insertColumns(await db.columns(), say);
    const now = Date.now();
    const fingerprintBase = hex(28);
    const targetOf = (i) => (i < DOCUMENTS ? drafts[i].documentId : articleDocumentId(i));
    started = Date.now();
    await db.insert(columns, size, (i) => ({
      ...narrationRow(i, size, targetOf(i), now, fingerprintBase),
      target_locale: locale,
      article_id: `${targetOf(i)}-${locale}`,
    }));
    result.insertSeconds = (Date.now() - started) / 1000;
    started = Date.now();
    await db.analyze();
    result.analyzeSeconds = (Date.now() - started) / 1000;
    const count = await db.count();
    if (count !== size) throw new Error(`expected ${size} rows, the table has ${count}`);
    say(
      `${label}: inserted ${size.toLocaleString('en-US')} rows in ${result.insertSeconds.toFixed(1)} s, ANALYZE ${result.analyzeSeconds.toFixed(1)} s`
    );
    if (kind === 'sqlite') await db.close(); // no second connection while Strapi starts and idles

    // 2. Idle CPU with the default worker tick.
    started = Date.now();
    strapi = await startStrapi();
    result.startSeconds = (Date.now() - started) / 1000;
    await sleep(SETTLE_SECONDS * 1000);
    // The window is read in IDLE_WINDOWS equal parts: V8 sometimes shrinks Strapi's heap (about
    // 150 MB, whatever the table holds) once in the first minute of quiet, a burst on its helper
    // threads of up to a second of CPU at a random moment. The median part is the steady cost of
    // the worker's ticks; the whole window and the split by thread are printed beside it.
    const idle = await idleCpu({ pid: strapi.pid, otherPids: db.cpuPids(), seconds: IDLE_SECONDS, parts: IDLE_WINDOWS });
    result.idleCpuWindowsPercent = idle.partsPercent.map((p) => Math.round(p * 100) / 100);
    result.idleCpuPercent = idle.medianPercent;
    result.idleCpuWholePercent = idle.wholePercent;
    result.idleCpuMainPercent = idle.mainPercent;
    result.dbIdleCpuPercent = idle.othersPercent;
    result.rssBytes = memoryOf(strapi.pid).rss;
    say(
      `${label}: idle CPU ${result.idleCpuPercent.toFixed(2)} % of a core (median of ${IDLE_WINDOWS} parts: ${idle.partsPercent.map((p) => p.toFixed(2)).join(', ')}); ` +
        `whole ${idle.seconds.toFixed(1)} s ${result.idleCpuWholePercent.toFixed(2)} %, of which main thread ${result.idleCpuMainPercent.toFixed(2)} % ` +
        `(Strapi start ${result.startSeconds.toFixed(1)} s, RSS ${(result.rssBytes / 1048576).toFixed(0)} MB)` +
        (result.dbIdleCpuPercent === null ? '' : `; PostgreSQL processes ${result.dbIdleCpuPercent.toFixed(2)} %`)
    );

    // 3. Statuses of 100 documents.
    const token = await adminToken(url, credentials, { registered: true });
    const documentIds = drafts.map((d) => d.documentId);
    // Interleaved with a control: the admin's own `GET /admin/users/me` passes the same
    // authentication (token, user, roles, the permission engine building the ability) and does
    // almost nothing else, so it is the floor any admin request pays on this machine.
    const runs = await timedRuns({ warmups: STATUS_WARMUPS, runs: STATUS_RUNS }, async () => {
      const me = await timed(() => json(`${url}/admin/users/me`, 'GET', undefined, token));
      if (me.value.status !== 200) throw new Error(`users/me failed: ${me.value.status} ${JSON.stringify(me.value.body)}`);
      const statuses = await timed(() => narrationStatuses({ url, token }, CONTENT_TYPE, documentIds));
      if (statuses.value.length !== DOCUMENTS) throw new Error(`statuses answered ${statuses.value.length} rows, expected ${DOCUMENTS}`);
      return { ms: statuses.ms, floorMs: me.ms };
    });
    const timings = runs.map((run) => run.ms);
    result.statusesMs = { ...stats(timings, 'p50', 'p95'), runs: timings.map((t) => Math.round(t * 10) / 10) };
    result.adminFloorMs = stats(
      runs.map((run) => run.floorMs),
      'p50',
      'p95'
    );
    say(
      `${label}: statuses of ${DOCUMENTS} documents p50 ${result.statusesMs.p50.toFixed(1)} ms, p95 ${result.statusesMs.p95.toFixed(1)} ms; ` +
        `the admin's own GET /admin/users/me (same authentication) p50 ${result.adminFloorMs.p50.toFixed(1)} ms, p95 ${result.adminFloorMs.p95.toFixed(1)} ms`
    );

    // 4. Publish -> submission, one article at a time, each narration completed before the next.
    const publishes = [];
    for (let n = 0; n < PUBLISHES; n += 1) {
      const draft = await cm(token).create(article(`publish-${n}`));
      const articleId = `${draft.documentId}-${draft.locale ?? locale}`;
      const sent = Date.now();
      await cm(token).publish(draft.documentId);
      const answered = Date.now();
      const request = await waitFor(
        async () => {
          const log = await json(`${emulator.info.url}/__control/requests?path=/process-text&method=POST`, 'GET');
          return (log.body.requests ?? []).find((entry) => entry.body?.postData?.articleId === articleId);
        },
        { timeoutMs: 60_000, intervalMs: 25, what: `the submission of ${articleId}` }
      );
      const arrived = Date.parse(request.at);
      publishes.push({ articleId, publishMs: answered - sent, fromResponseMs: arrived - answered, fromRequestMs: arrived - sent });
      await waitFor(async () => ['completed', 'failed'].includes(await db.status(articleId)), {
        timeoutMs: 60_000,
        intervalMs: 50,
        what: `the narration of ${articleId} to complete`,
      });
    }
    const fromResponse = publishes.map((p) => p.fromResponseMs);
    result.publishToSubmitMs = { ...stats(fromResponse, 'p50', 'max'), runs: publishes };
    say(
      `${label}: publish response -> POST /process-text p50 ${result.publishToSubmitMs.p50} ms, max ${result.publishToSubmitMs.max} ms (${fromResponse.join(', ')})`
    );

    // 5. Claims of a queued row inserted straight into the table.
    await db.installClaimProbe();
    const claims = [];
    for (let n = 0; n < CLAIMS; n += 1) {
      const inserted = Date.now();
      const id = await db.insertOne(columns, { ...queuedRow(n, inserted), target_locale: locale });
      const record = await waitFor(() => db.claimRecord(id), { timeoutMs: 30_000, intervalMs: 20, what: `the claim of queued row ${id}` });
      claims.push({ claimMs: record.claimedAt - record.tickStart, insertToClaimMs: record.claimedAt - inserted });
      // The worker rejects it (no such article) right after the claim; wait so the next one starts clean.
      await waitFor(async () => (await db.statusById(id)) !== 'submitting', {
        timeoutMs: 30_000,
        intervalMs: 20,
        what: `row ${id} to leave submitting`,
      });
    }
    const claimMs = claims.map((c) => c.claimMs);
    result.claimMs = {
      ...stats(claimMs, 'p50', 'max'),
      runs: claims.map((c) => ({ claimMs: Math.round(c.claimMs * 10) / 10, insertToClaimMs: Math.round(c.insertToClaimMs) })),
    };
    say(`${label}: claim (tick start -> claim written) p50 ${result.claimMs.p50.toFixed(1)} ms, max ${result.claimMs.max.toFixed(1)} ms`);

    await strapi.stop();
    await emulator.stop();
    return result;
  } finally {
    await db.close();
    await removeWorkDir();
  }
}

async function main() {
  if (process.platform !== 'linux') throw new Error('this benchmark reads /proc and runs on Linux only');
  ensureBuilt(argv, say);
  say(
    `sizes ${SIZES.map((n) => n.toLocaleString('en-US')).join(', ')} on ${DATABASES.join(', ')}; idle window ${IDLE_SECONDS} s after ${SETTLE_SECONDS} s`
  );
  const results = [];
  const benchStarted = Date.now();
  for (const kind of DATABASES) {
    for (const size of SIZES) {
      const started = Date.now();
      results.push(await runOne(kind, size));
      say(`${kind} ${size.toLocaleString('en-US')} done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  console.log('');
  console.log(JSON.stringify({ event: 'bench-scale', idleSeconds: IDLE_SECONDS, results }));
  explain({
    idleParts: IDLE_WINDOWS,
    documents: DOCUMENTS,
    statusRuns: STATUS_RUNS,
    statusWarmups: STATUS_WARMUPS,
    publishes: PUBLISHES,
    claims: CLAIMS,
  });
  let ok = true;
  for (const kind of DATABASES) ok = table(kind, results) && ok;
  console.log('');
  say(`total ${((Date.now() - benchStarted) / 60000).toFixed(1)} min`);
  if (!ok) process.exitCode = 1;
}

runBench('bench-scale', main, say);
