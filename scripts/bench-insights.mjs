#!/usr/bin/env node
/**
 * Listening insights under load (issue 25): the player's events route, the database writes it
 * makes, nothing lost on a graceful stop, two instances on PostgreSQL, and the player's size.
 *
 *  1. SQLite, one instance (playground Strapi, production mode, `insights.flushSeconds` 5): --articles
 *     (20) articles published and narrated by the emulator; Strapi stops, the bench adds to the
 *     database file a table `bench_day_writes` and triggers AFTER INSERT and AFTER UPDATE on
 *     `speech_listening_days` writing a row into it (scripts/bench/insights/tables.mjs), and Strapi
 *     starts again. Then --warmup-seconds (5) and --seconds (30) of player events at
 *     --events-per-second (1,000), open-loop over keep-alive connections (scripts/bench/insights/load.mjs:
 *     each event due at a fixed time whatever the answers before it; latency from that time), from
 *     --listeners (3,000) browsers listening to the articles, a few hundred listenings interleaved
 *     (scripts/bench/insights/listenings.mjs). Figures of the --seconds after the warm-up: events
 *     sent and answered per second, latency p50/p95/p99/max, errors, Strapi's CPU (% of one core,
 *     /proc) and RSS. Target: p99 < 20 ms, every event answered 204, the rate held.
 *     Then, for comparison, Strapi's floor on the machine at that moment: `GET /_health` on the same
 *     timetable and connections for --floor-seconds (10).
 *     `--sqlite-wal` (a diagnosis, not the default) puts the database file in WAL mode before the load;
 *     `--stall-probe` (a diagnosis) loads scripts/bench/insights/stall-probe.cjs into each Strapi
 *     under load and adds its event loop's stalls over 40 ms to each load's figures.
 *     `--pin-cores` (a diagnosis) gives the main thread of the Strapi under a one-instance load core
 *     0 to itself, and the bench (the load generator), the emulator and PostgreSQL the other cores
 *     (`taskset`); in the two-instance part the first instance stays so, the second shares the others.
 *  2. The triggers' rows during the load: writes per article per flush interval, target <= 1.
 *  3. Strapi is stopped (SIGTERM), started again; the day totals in the database (plays, listeners
 *     and the listener hashes, each milestone, deciseconds heard), and the admin's document view of
 *     each article, equal per article what the server answered `counted`, exactly.
 *  4. PostgreSQL (a private cluster, scripts/bench/postgres-strapi.mjs): first one instance, started
 *     afresh after the narrations as on SQLite, under SQLite's load (--warmup-seconds, --seconds,
 *     target p99 < 20 ms; `--pg-settle`, a diagnosis: VACUUM ANALYZE, CHECKPOINT and 10 s at rest
 *     before it), and its `GET /_health` floor; then two playground instances on one
 *     database: the same kind of load, --pg-seconds (20) at --events-per-second in all, each
 *     listening's events to one instance, listenings alternating (both instances get every article
 *     and most listeners); both stopped, one started again: totals as in 3, a listener counted once
 *     whichever instances counted its plays.
 *  5. gzip -9 of dist/player/speech-narration.mjs < 8 KB.
 *
 *   node scripts/bench-insights.mjs [--events-per-second 1000] [--seconds 30] [--warmup-seconds 5]
 *        [--pg-seconds 20] [--floor-seconds 10] [--db sqlite,postgres] [--listeners 3000] [--articles 20] [--flush-seconds 5]
 *        [--connections 512] [--cpu-prof] [--stall-probe] [--sqlite-wal] [--pg-settle] [--pin-cores] [--build]
 *
 * Needs a built plugin, player and playground (`--build`), Linux (/proc), and for PostgreSQL Debian's
 * `postgresql` package. Exit code 1 when a figure misses its target.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  adminToken,
  benchArticle,
  contentManager,
  ensureBuilt,
  freePort,
  json,
  narrationStatuses,
  numberOption,
  onCleanup,
  optionOf,
  playgroundAround,
  playgroundEnv,
  playgroundWorkDir,
  root,
  runBench,
  sayAs,
  sleep,
  startPlayground,
  waitFor,
} from './bench-support.mjs';
import { printTable } from './bench/figures.mjs';
import { startStrapiPostgres } from './bench/postgres-strapi.mjs';
import { describeStalls, healthRequest, latencyAroundFlushes, requestLog, sendOpenLoop } from './bench/insights/load.mjs';
import { countedLedger, sumOf, timetable } from './bench/insights/listenings.mjs';
import { flushTimes, postgresTotals, sqliteTables, writesPerInterval } from './bench/insights/tables.mjs';

const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const NUMBERS = [
  ['events-per-second', 1000],
  ['seconds', 30],
  ['warmup-seconds', 5],
  ['pg-seconds', 20],
  ['floor-seconds', 10],
  ['listeners', 3000],
  ['articles', 20],
  ['flush-seconds', 5],
  ['connections', 512],
];
const [RATE, SECONDS, WARMUP, PG_SECONDS, FLOOR_SECONDS, LISTENERS, ARTICLES, FLUSH, CONNECTIONS] = NUMBERS.map(([name, fallback]) =>
  numberOption(argv, name, fallback)
);
const DATABASES = (optionOf(argv, 'db') ?? 'sqlite,postgres').split(',').map((s) => s.trim());
const TARGETS = { p99Ms: 20, writesPerInterval: 1, playerGzipBytes: 8192 };
const UID = 'api::article.article';
const API_KEY = 'bench-insights-key';
const credentials = { email: 'bench@example.com', password: 'Bench-Passw0rd!' };
const say = sayAs('bench-insights');
const verdict = (ok) => (ok ? 'PASS' : 'MISS');
const ms = (value) => `${value.toFixed(1)} ms`;
const mb = (bytes) => `${(bytes / 1048576).toFixed(0)} MB`;
const int = (n) => n.toLocaleString('en-US');
const PROFILES = path.join(os.tmpdir(), `speech-bench-insights-profiles-${Date.now()}`);
/**
 * Node's arguments for a Strapi under load: with --cpu-prof, a CPU profile each (written at its
 * stop); with --stall-probe, the event loop's stalls (scripts/bench/insights/stall-probe.cjs).
 */
const profiled = () => [
  ...(argv.includes('--cpu-prof') ? ['--cpu-prof', '--cpu-prof-dir', PROFILES] : []),
  ...(argv.includes('--stall-probe') ? ['--require', path.join(root, 'scripts/bench/insights/stall-probe.cjs')] : []),
];
const load1 = () => os.loadavg()[0].toFixed(2);

/**
 * --pin-cores (a diagnosis, needs two cores or more and `taskset`): the main thread of the Strapi
 * under the one-instance load gets core 0 to itself; its helper threads (the garbage collector's,
 * libuv's) may run on any core; the bench with its load generator, the emulator and PostgreSQL
 * (started by the bench, they inherit its affinity) keep to the other cores, as clients and a
 * database on other machines would. Without it, all share every core, as on a developer's machine.
 */
const PIN_CORES = argv.includes('--pin-cores');
const taskset = (...args) => execFileSync('taskset', args, { stdio: 'ignore' });
function pinBenchAway() {
  if (!PIN_CORES) return;
  const others = os.cpus().length > 2 ? `1-${os.cpus().length - 1}` : '1';
  taskset('-a', '-c', '-p', others, String(process.pid));
  say(
    `--pin-cores: the bench, its load generator, the emulator and PostgreSQL on core(s) ${others}; the main thread of a Strapi under the one-instance load on core 0`
  );
}
function pinToCoreZero(pid) {
  if (!PIN_CORES) return;
  // Its threads were started with the bench's affinity: all cores for them, core 0 for the main thread (its id is the process's).
  taskset('-a', '-c', '-p', `0-${os.cpus().length - 1}`, String(pid));
  taskset('-c', '-p', '0', String(pid));
}

if (
  ![SECONDS, WARMUP, PG_SECONDS, FLOOR_SECONDS, LISTENERS, ARTICLES, FLUSH, CONNECTIONS].every((n) => Number.isInteger(n) && n >= 0) ||
  !(RATE >= 1)
) {
  throw new Error(`${NUMBERS.map(([name]) => `--${name}`).join(', ')}: whole numbers (a rate of at least 1)`);
}
if (DATABASES.some((db) => db !== 'sqlite' && db !== 'postgres')) throw new Error('--db: sqlite, postgres or sqlite,postgres');

/** Publishes `count` articles and waits for their narrations; [{ documentId, articleId, durationSeconds }]. */
async function narratedArticles(server, count) {
  const cm = contentManager(server.url, server.token, UID);
  const documentIds = [];
  for (let i = 0; i < count; i += 1) {
    const draft = await cm.create(
      benchArticle(`insights ${i}`, {
        summary: `Article ${i}, listened to by the bench.`,
        firstParagraph: `Paragraph one of article ${i}. Its listeners play it, pause it and hear it to the end.`,
      })
    );
    await cm.publish(draft.documentId);
    documentIds.push(draft.documentId);
  }
  const rows = await waitFor(
    async () => {
      const found = await narrationStatuses(server, UID, documentIds);
      return found.length === count && found.every((row) => ['completed', 'failed'].includes(row.status)) ? found : null;
    },
    { timeoutMs: 180_000, intervalMs: 250, what: `${count} narrations to complete` }
  );
  const failed = rows.filter((row) => row.status !== 'completed');
  if (failed.length) throw new Error(`${failed.length} narrations failed: ${failed[0].error?.message ?? ''}`);
  const articles = [];
  for (const documentId of documentIds) {
    const articleId = `${documentId}-en`;
    const narration = await json(`${server.url}/api/speech/narrations/${articleId}`, 'GET');
    const durationSeconds = Number(narration.body?.durationSeconds);
    if (narration.status !== 200 || !(durationSeconds > 0))
      throw new Error(`${articleId}: ${narration.status} ${JSON.stringify(narration.body)}`);
    articles.push({ documentId, articleId, durationSeconds });
  }
  return articles;
}

/** The admin's document view of each article (7 days), as per-article totals in deciseconds. */
async function adminTotals(server, articles) {
  const totals = new Map();
  for (const { documentId, articleId } of articles) {
    const answer = await json(
      `${server.url}/speech/insights/document/${documentId}?contentType=${encodeURIComponent(UID)}&locale=en&days=7`,
      'GET',
      undefined,
      server.token
    );
    if (answer.status !== 200) throw new Error(`insights of ${documentId}: ${answer.status} ${JSON.stringify(answer.body)}`);
    const t = answer.body.totals;
    if (t.plays || t.secondsHeard) {
      totals.set(articleId, { plays: t.plays, listeners: t.listeners, reached: t.reached, deciseconds: Math.round(t.secondsHeard * 10) });
    }
  }
  return totals;
}

/** Differences between what was counted and what a source holds, per article and field ([] when equal). */
function differences(counted, held, source) {
  const out = [];
  const zero = { plays: 0, listeners: 0, reached: Array(10).fill(0), deciseconds: 0 };
  for (const articleId of new Set([...counted.keys(), ...held.keys()])) {
    const want = counted.get(articleId) ?? zero;
    const got = held.get(articleId) ?? zero;
    const fields = [
      ['plays', want.plays, got.plays],
      ['listeners', want.listeners, got.listeners],
      ['deciseconds', want.deciseconds, got.deciseconds],
      ...want.reached.map((n, i) => [`reached ${(i + 1) * 10}`, n, got.reached[i]]),
    ];
    if (got.hashes !== undefined) fields.push(['listener hashes', want.listeners, got.hashes]);
    for (const [field, expected, actual] of fields)
      if (expected !== actual) out.push(`${source} ${articleId} ${field}: ${actual}, counted ${expected}`);
  }
  return out;
}

/** Checks the database's and the admin's totals against the ledger; logs and returns the figures. */
async function checkTotals(label, ledger, stored, server, articles) {
  const counted = ledger.totals();
  const viaAdmin = await adminTotals(server, articles);
  const diff = [...differences(counted, stored, 'database'), ...differences(counted, viaAdmin, 'admin view')];
  const sum = sumOf(counted);
  const storedSum = sumOf(stored);
  const onBoth = [...counted.values()].reduce((n, t) => n + t.onBoth, 0);
  say(
    `${label}: counted ${int(sum.plays)} plays, ${int(sum.listeners)} listeners, reached ${sum.reached.map(int).join('/')}, ` +
      `${(sum.deciseconds / 10).toFixed(1)} s heard; database ${int(storedSum.plays)} plays, ${int(storedSum.listeners)} listeners, ` +
      `reached ${storedSum.reached.map(int).join('/')}, ${(storedSum.deciseconds / 10).toFixed(1)} s heard; ${diff.length ? `${diff.length} DIFFERENCES` : 'equal, article by article (and the admin view)'}`
  );
  for (const line of diff.slice(0, 20)) say(`  ${line}`);
  return { counted: sum, stored: storedSum, onBoth, differences: diff, ok: diff.length === 0 && sum.plays > 0 };
}

const describeLoad = (load) =>
  `sent ${load.sentRate.toFixed(0)}/s, answered ${load.answeredRate.toFixed(0)}/s; p50 ${ms(load.latency.p50)}, p95 ${ms(load.latency.p95)}, ` +
  `p99 ${ms(load.latency.p99)}, max ${ms(load.latency.max)} (${int(load.latency.n)} events); errors ${load.errorCount}` +
  `${load.errorCount ? ` ${JSON.stringify(load.errors)}` : ''}; Strapi CPU ${load.cpuPercent.map((c) => `${c.toFixed(0)} %`).join(' + ')}, ` +
  `RSS ${load.rss.map((r) => `${mb(r.first)} -> ${mb(r.peak)} peak`).join(', ')}; the bench's own CPU ${load.benchCpuPercent.toFixed(0)} %; send lag p99 ${ms(load.sendLag.p99)}` +
  (load.strapiLog ? `; Strapi's own log: p50 ${load.strapiLog.p50} ms, p99 ${load.strapiLog.p99} ms, max ${load.strapiLog.max} ms` : '') +
  (argv.includes('--stall-probe') && load.strapiLog ? `; ${describeStalls(load.strapiLog.stalls)}` : '');

/** The load, with the bench process's own CPU over it. */
async function runLoad(options) {
  const cpuBefore = process.cpuUsage();
  const started = Date.now();
  const load = await sendOpenLoop(options);
  const used = process.cpuUsage(cpuBefore);
  load.benchCpuPercent = ((used.user + used.system) / 1000 / (Date.now() - started)) * 100;
  load.loadAverage = load1();
  return load;
}

/** The events of a --warmup-seconds + --seconds timetable sent to one instance; figures of the --seconds. */
async function oneInstanceLoad(events, instance, ledger, log) {
  const load = await runLoad({
    events,
    rate: RATE,
    instances: [instance],
    ledger,
    measuredFrom: WARMUP * RATE,
    connections: CONNECTIONS,
    onWindowStart: log.start,
  });
  load.strapiLog = log.stop();
  return load;
}

/**
 * Strapi's floor on the machine at that moment: `GET /_health` (Strapi's, 204: the same global
 * middlewares, no plugin handler) on the start of the load's timetable and connections, 1 s then
 * --floor-seconds; null with --floor-seconds 0.
 */
async function strapiFloor(label, timetableEvents, instance, log) {
  if (FLOOR_SECONDS === 0) return null;
  const load = await runLoad({
    events: timetableEvents.slice(0, (1 + FLOOR_SECONDS) * RATE),
    rate: RATE,
    instances: [instance],
    ledger: countedLedger(),
    measuredFrom: RATE,
    connections: CONNECTIONS,
    onWindowStart: () => log.start('/_health'),
    requestOf: healthRequest,
  });
  load.strapiLog = log.stop();
  say(`${label}, Strapi's floor, GET /_health at ${int(RATE)}/s for ${FLOOR_SECONDS} s: ${describeLoad(load)}`);
  return load;
}

async function sqliteRun() {
  const { workDir } = playgroundWorkDir('speech-bench-insights-');
  const playground = await playgroundAround({
    workDir,
    apiKey: API_KEY,
    emulatorArgs: ['--delay', '0', '--credits', '1000000000', '--rate-limit', '100000/60'],
    extra: { SPEECH_INSIGHTS: JSON.stringify({ flushSeconds: FLUSH }) },
  });
  const { url, emulator } = playground;
  let strapi = await playground.start();
  const articles = await narratedArticles({ url, token: await adminToken(url, credentials) }, ARTICLES);
  await strapi.stop();
  const durations = articles.map((a) => a.durationSeconds);
  say(`SQLite: ${ARTICLES} articles narrated (${Math.min(...durations).toFixed(1)}-${Math.max(...durations).toFixed(1)} s of audio)`);

  const Database = require('better-sqlite3');
  const connection = new Database(path.join(workDir, 'data.db'));
  onCleanup('sqlite connection', () => connection.close());
  const tables = sqliteTables(connection);
  tables.addWriteTriggers();
  if (argv.includes('--sqlite-wal')) {
    const mode = connection.pragma('journal_mode = WAL', { simple: true });
    say(`SQLite: journal_mode ${mode} (--sqlite-wal, a diagnosis: Strapi's default is the rollback journal)`);
  }
  const log = requestLog();
  strapi = await playground.start({ nodeArgs: profiled(), onLine: log.onLine });
  pinToCoreZero(strapi.pid);
  const triggers = tables.triggerNames();
  if (triggers.length !== 2) throw new Error(`the write triggers are gone after Strapi's start: ${JSON.stringify(triggers)}`);

  const plan = timetable({ count: (WARMUP + SECONDS) * RATE, rate: RATE, articles, listeners: LISTENERS });
  say(
    `SQLite: ${int(plan.events.length)} events (${WARMUP} s warm-up + ${SECONDS} s at ${int(RATE)}/s), ${int(plan.listenings)} listenings ` +
      `of ${int(plan.pairs)} listener-article pairs; load average ${load1()}`
  );
  const ledger = countedLedger();
  const load = await oneInstanceLoad(plan.events, { url, pid: strapi.pid }, ledger, log);
  const loadWrites = tables.writes();
  load.aroundFlushes = latencyAroundFlushes(load.timeline, flushTimes(loadWrites));
  say(`SQLite: ${describeLoad(load)}; answers ${JSON.stringify(ledger.answers)}; load average ${load.loadAverage}`);
  const { near, others } = load.aroundFlushes;
  say(
    `SQLite: events due in the first second of a flush: p50 ${ms(near.p50)}, p99 ${ms(near.p99)}, max ${ms(near.max)} (${int(near.n)}); ` +
      `the others: p50 ${ms(others.p50)}, p99 ${ms(others.p99)}, max ${ms(others.max)} (${int(others.n)})`
  );

  const floor = await strapiFloor('SQLite', plan.events, { url, pid: strapi.pid }, log);

  const stopStarted = Date.now();
  await strapi.stop();
  const stopSeconds = (Date.now() - stopStarted) / 1000;
  const stopWrites = tables.writes().length - loadWrites.length;
  const writes = writesPerInterval(loadWrites, FLUSH);
  say(
    `SQLite: ${int(writes.writes)} writes to the day totals during the load (${writes.articles} articles, ${writes.intervals} intervals of ${FLUSH} s): ` +
      `at most ${writes.max} per article per interval, mean ${writes.mean.toFixed(2)}, shortest gap ${writes.minGapSeconds?.toFixed(2)} s; ` +
      `the stop (SIGTERM, ${stopSeconds.toFixed(1)} s) wrote ${stopWrites} more`
  );

  strapi = await playground.start();
  const token = await adminToken(url, credentials, { registered: true });
  const totals = await checkTotals('SQLite after a graceful stop', ledger, tables.totals(), { url, token }, articles);
  await strapi.stop();
  await emulator.stop();
  return {
    db: 'SQLite',
    events: plan.events.length,
    listenings: plan.listenings,
    answers: ledger.answers,
    load,
    floor,
    writes,
    stopWrites,
    stopSeconds,
    totals,
  };
}

async function postgresRun() {
  const { workDir } = playgroundWorkDir('speech-bench-insights-pg-');
  const pg = await startStrapiPostgres();
  const extra = { DATABASE_CLIENT: 'postgres', DATABASE_URL: pg.url('strapi'), SPEECH_INSIGHTS: JSON.stringify({ flushSeconds: FLUSH }) };
  const playground = await playgroundAround({
    workDir,
    apiKey: API_KEY,
    emulatorArgs: ['--delay', '0', '--credits', '1000000000', '--rate-limit', '100000/60'],
    extra,
  });
  const { url, emulator } = playground;
  const log = requestLog();
  const nodeArgs = profiled();
  let first = await playground.start({ nodeArgs, onLine: log.onLine });
  let token = await adminToken(url, credentials);
  const articles = await narratedArticles({ url, token }, ARTICLES);
  const ledger = countedLedger();
  // A fresh process under load, as SQLite's: not the one that narrated the articles.
  await first.stop();
  first = await playground.start({ nodeArgs, onLine: log.onLine });
  pinToCoreZero(first.pid);
  if (argv.includes('--pg-settle')) {
    // A diagnosis: the database's own background work after the narrations done before the load.
    const settling = await pg.connect();
    await settling.query('VACUUM ANALYZE');
    await settling.query('CHECKPOINT');
    await sleep(10_000);
    say('PostgreSQL: VACUUM ANALYZE, CHECKPOINT and 10 s at rest before the load (--pg-settle)');
  }

  // One instance first, under SQLite's load (the issue's target is one instance's, whatever its
  // database). The same ledger: the totals below count both loads.
  const single = timetable({ count: (WARMUP + SECONDS) * RATE, rate: RATE, articles, listeners: LISTENERS, seed: 26 });
  say(
    `PostgreSQL: one instance, ${int(single.events.length)} events (${WARMUP} s warm-up + ${SECONDS} s at ${int(RATE)}/s); load average ${load1()}`
  );
  const singleLoad = await oneInstanceLoad(single.events, { url, pid: first.pid }, ledger, log);
  say(
    `PostgreSQL, one instance: ${describeLoad(singleLoad)}; answers ${JSON.stringify(ledger.answers)}; load average ${singleLoad.loadAverage}`
  );
  const floor = await strapiFloor('PostgreSQL', single.events, { url, pid: first.pid }, log);

  const secondPort = await freePort();
  const secondEnv = playgroundEnv({ workDir, port: secondPort, apiKey: API_KEY, emulator, extra });
  const second = await startPlayground(workDir, secondEnv, { nodeArgs, onLine: log.onLine });
  const instances = [
    { url, pid: first.pid },
    { url: `http://127.0.0.1:${secondPort}`, pid: second.pid },
  ];
  const plan = timetable({ count: PG_SECONDS * RATE, rate: RATE, articles, listeners: LISTENERS, instances: 2, seed: 2025 });
  say(
    `PostgreSQL: two instances, ${int(plan.events.length)} events (${PG_SECONDS} s at ${int(RATE)}/s in all), ${int(plan.listenings)} listenings; load average ${load1()}`
  );
  const client = await pg.connect();
  // Transactions the database committed or rolled back (each autocommit query is one), to the
  // statistics' last report (PostgreSQL sends them at most once a second: read after 1.5 s).
  const transactions = async () => {
    await sleep(1500);
    const stat = await client.query(`select xact_commit + xact_rollback as n from pg_stat_database where datname = 'strapi'`);
    return Number(stat.rows[0].n);
  };
  // Reads of each table (sequential and index scans), from the same statistics.
  const scans = async () => {
    const stat = await client.query(`select relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as n from pg_stat_user_tables`);
    return new Map(stat.rows.map((row) => [row.relname, Number(row.n)]));
  };
  const before = await transactions();
  const scansBefore = await scans();
  const load = await runLoad({ events: plan.events, rate: RATE, instances, ledger, connections: CONNECTIONS, onWindowStart: log.start });
  load.strapiLog = log.stop();
  load.transactions = (await transactions()) - before - 2;
  load.tableReads = Object.fromEntries(
    [...(await scans())]
      .map(([table, n]) => [table, n - (scansBefore.get(table) ?? 0)])
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
  );
  say(
    `PostgreSQL: ${describeLoad(load)}; answers ${JSON.stringify(ledger.answers)}; ${int(load.transactions)} database transactions during the load ` +
      `(${(load.transactions / plan.events.length).toFixed(2)} an event), tables read most ${JSON.stringify(load.tableReads)}; load average ${load.loadAverage}`
  );
  await Promise.all([first.stop(), second.stop()]);

  first = await playground.start();
  token = await adminToken(url, credentials, { registered: true });
  const totals = await checkTotals(
    'PostgreSQL, two instances, after a graceful stop',
    ledger,
    await postgresTotals(await pg.connect()),
    { url, token },
    articles
  );
  say(`PostgreSQL: ${int(totals.onBoth)} listeners had plays counted on both instances`);
  await first.stop();
  await emulator.stop();
  return {
    db: 'PostgreSQL',
    events: single.events.length + plan.events.length,
    listenings: single.listenings + plan.listenings,
    answers: ledger.answers,
    singleLoad,
    floor,
    load,
    totals,
  };
}

function playerSize() {
  const file = path.join(root, 'dist/player/speech-narration.mjs');
  const bytes = readFileSync(file);
  return { bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/** The events route's target on one instance: the rate held, every event answered, p99 under 20 ms. */
const meetsTarget = (load) =>
  load.errorCount === 0 && load.sentRate >= 0.99 * RATE && load.answeredRate >= 0.99 * RATE && load.latency.p99 < TARGETS.p99Ms;

const oneInstanceRow = (db, load, more = '') => [
  `${db}, one instance: POST /api/speech/insights/events, ${int(RATE)}/s for ${SECONDS} s (after ${WARMUP} s), load average ${load.loadAverage}`,
  `${describeLoad(load)}${more}`,
  `p99 < ${TARGETS.p99Ms} ms, ${int(RATE)}/s held, no errors`,
  verdict(meetsTarget(load)),
];

const floorRow = (db, floor) => [
  `${db}, the same Strapi after the load: \`GET /_health\` (Strapi's floor: its middlewares, no plugin), ${int(RATE)}/s for ${FLOOR_SECONDS} s, load average ${floor.loadAverage}`,
  describeLoad(floor),
  '(for comparison)',
  '',
];

function report(results, player) {
  const rows = [];
  const totalsRow = (r, what) => [
    what,
    `${int(r.totals.counted.plays)} plays, ${int(r.totals.counted.listeners)} listeners, reached 10 % ${int(r.totals.counted.reached[0])} ... 100 % ${int(r.totals.counted.reached[9])}, ` +
      `${(r.totals.counted.deciseconds / 10).toFixed(1)} s heard counted; ${r.totals.differences.length} differences` +
      (r.db === 'PostgreSQL' ? `; ${int(r.totals.onBoth)} listeners counted by both instances` : ''),
    'equal, exactly',
    verdict(r.totals.ok),
  ];
  for (const r of results) {
    const { load } = r;
    if (r.db === 'SQLite') {
      r.ok = meetsTarget(load) && r.writes.max <= TARGETS.writesPerInterval && r.totals.ok;
      rows.push(
        oneInstanceRow(
          'SQLite',
          load,
          `; events due in a flush's first second p99 ${ms(load.aroundFlushes.near.p99)}, the others p99 ${ms(load.aroundFlushes.others.p99)}`
        )
      );
      if (r.floor) rows.push(floorRow('SQLite', r.floor));
      rows.push([
        `SQLite: writes to speech_listening_days per article per ${FLUSH} s flush interval (triggers)`,
        `max ${r.writes.max}, mean ${r.writes.mean.toFixed(2)} (${int(r.writes.writes)} writes, ${r.writes.articles} articles, ${r.writes.intervals} intervals; shortest gap ${r.writes.minGapSeconds?.toFixed(2)} s); the stop wrote ${r.stopWrites}`,
        `<= ${TARGETS.writesPerInterval}`,
        verdict(r.writes.max <= TARGETS.writesPerInterval),
      ]);
      rows.push(
        totalsRow(r, `SQLite: totals after SIGTERM (${r.stopSeconds.toFixed(1)} s) and a restart, against the answers \`counted\``)
      );
    } else {
      rows.push(oneInstanceRow('PostgreSQL', r.singleLoad));
      if (r.floor) rows.push(floorRow('PostgreSQL', r.floor));
      // The two instances' target is the totals; an event without an answer would leave them unknowable.
      r.ok = meetsTarget(r.singleLoad) && load.errorCount === 0 && r.totals.ok;
      rows.push([
        `PostgreSQL, two instances: ${int(RATE)}/s in all for ${PG_SECONDS} s, load average ${load.loadAverage}`,
        describeLoad(load),
        'no errors (the rate: for information)',
        verdict(load.errorCount === 0),
      ]);
      rows.push(totalsRow(r, 'PostgreSQL, both loads (one instance, then two): totals after SIGTERM of both and a restart'));
    }
  }
  const playerOk = player.gzip < TARGETS.playerGzipBytes;
  rows.push([
    'gzip -9 of dist/player/speech-narration.mjs',
    `${int(player.gzip)} bytes (${int(player.bytes)} raw)`,
    `< ${int(TARGETS.playerGzipBytes)} bytes`,
    verdict(playerOk),
  ]);
  console.log('');
  printTable(['figure', 'measured', 'target', 'verdict'], rows);
  return results.every((r) => r.ok) && playerOk;
}

async function main() {
  if (process.platform !== 'linux') throw new Error('this benchmark reads /proc and runs on Linux only');
  ensureBuilt(argv, say);
  pinBenchAway();
  const started = Date.now();
  const player = playerSize();
  if (argv.includes('--cpu-prof')) say(`CPU profiles of the Strapi processes under load go to ${PROFILES}`);
  say(`player: ${int(player.gzip)} bytes gzip -9 (${int(player.bytes)} raw)`);
  const results = [];
  if (DATABASES.includes('sqlite')) results.push(await sqliteRun());
  if (DATABASES.includes('postgres')) results.push(await postgresRun());
  const ok = report(results, player);
  for (const r of results) for (const load of [r.singleLoad, r.load, r.floor]) if (load) delete load.timeline;
  console.log(
    `\n${JSON.stringify({ event: 'bench-insights', rate: RATE, seconds: SECONDS, warmupSeconds: WARMUP, pgSeconds: PG_SECONDS, player, results })}`
  );
  say(`total ${((Date.now() - started) / 60000).toFixed(1)} min`);
  if (!ok) process.exitCode = 1;
}

runBench('bench-insights', main, say);
