#!/usr/bin/env node
/**
 * The credits ledger and the usage view at a million entries (issue 24), on SQLite and PostgreSQL.
 *
 * For each database, on a fresh one:
 *  1. The emulator and the playground Strapi start once, so Strapi creates the ledger's tables;
 *     the bench registers an admin and stops Strapi.
 *  2. --entries (1,000,000) ledger entries spread over the last --days (120) days are written
 *     straight into `speech_ledger_entries` (four content types, two locales, every kind, outcomes
 *     generated, re-delivered, refunded, pending and refund-failed; scripts/bench/usage/ledger-rows.mjs),
 *     and with them the totals the plugin writes with each entry, computed from the same entries:
 *     `speech_ledger_days` (charged, refunded, pending, entries, refunds, re-deliveries per day,
 *     source, locale and kind) and `speech_ledger_articles` (spent = charged - refunded per month and
 *     article). SQLite: better-sqlite3, one transaction; PostgreSQL: unnest() inserts of 10,000 rows,
 *     one transaction. Then ANALYZE.
 *  3. Strapi starts again (production mode, no admin panel). `GET /speech/usage?days=90` and
 *     `?days=30`, each --request-warmups (5) then --requests (50) times, interleaved with the admin's own
 *     `GET /admin/users/me` (the same authentication and almost nothing else: the floor of an admin
 *     request on the machine at that moment); wall time at the client, over loopback; p50/p95.
 *     Checked: the 90-day p50 under 50 ms; `monthToDate.credits` equals the credits spent (charged
 *     less refunded) by the seeded entries of the answer's month, summed from the entries, and the
 *     days' credits equal the entries' of those days.
 *  4. `GET /speech/usage/ledger.csv`, the whole ledger: seconds, MB, time to the first byte, lines
 *     (one per entry and the header), and the Strapi process's RSS (/proc/<pid>/status, read every
 *     50 ms) at its highest while streaming, less its RSS just before. Checked: every entry written,
 *     and RSS growth under a quarter of the file's size (a file built in memory before it is sent
 *     would take at least its own size).
 *  5. (first database only) Publishing with a budget set against without
 *     (scripts/bench/usage/publish.mjs): p50 and p95 ratios <= 1.05.
 *
 *   node scripts/bench-usage.mjs [--db sqlite,postgres] [--entries 1000000] [--days 120]
 *                                [--requests 50] [--request-warmups 5] [--publish-samples 40] [--publish-warmups 5] [--build]
 *
 * Needs a built plugin and playground (`--build` builds both first), Linux (/proc), and for
 * PostgreSQL Debian's `postgresql` package (as the scale bench). Exit code 1 when a figure misses its target.
 */
import {
  adminToken,
  ensureBuilt,
  json,
  memoryOf,
  numberOption,
  optionOf,
  playgroundAround,
  playgroundWorkDir,
  runBench,
  sayAs,
  sleep,
} from './bench-support.mjs';
import { printTable, since, stats, timed, timedRuns } from './bench/figures.mjs';
import { TABLES, postgresDatabase, sqliteDatabase } from './bench/usage/databases.mjs';
import { ledgerEntries, totalsCollector, windowOf } from './bench/usage/ledger-rows.mjs';
import { PUBLISH_RATIO_TARGET, publishWithBudget } from './bench/usage/publish.mjs';
import { performance } from 'node:perf_hooks';

const argv = process.argv.slice(2);
const DATABASES = (optionOf(argv, 'db') ?? 'sqlite,postgres').split(',').map((s) => s.trim());
const ENTRIES = numberOption(argv, 'entries', 1_000_000);
const DAYS = numberOption(argv, 'days', 120);
const REQUESTS = numberOption(argv, 'requests', 50);
const WARMUPS = numberOption(argv, 'request-warmups', 5);
const PUBLISH_SAMPLES = numberOption(argv, 'publish-samples', 40);
const PUBLISH_WARMUPS = numberOption(argv, 'publish-warmups', 5);
const TARGETS = { usageP50Ms: 50, csvGrowthShare: 0.25 };
const API_KEY = 'bench-usage-key';
const credentials = { email: 'bench@example.com', password: 'Bench-Passw0rd!' };
const say = sayAs('bench-usage');
const ms = (value) => `${value.toFixed(1)} ms`;
const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
const verdict = (ok) => (ok ? 'PASS' : 'MISS');

if (DATABASES.some((db) => db !== 'sqlite' && db !== 'postgres')) throw new Error('--db: sqlite, postgres or sqlite,postgres');
if (![ENTRIES, DAYS, REQUESTS, WARMUPS, PUBLISH_SAMPLES, PUBLISH_WARMUPS].every((n) => Number.isInteger(n) && n >= 0) || DAYS < 90) {
  throw new Error('--entries, --requests, --request-warmups, --publish-samples, --publish-warmups: whole numbers; --days at least 90');
}

/** GET /speech/usage?days=… timed, interleaved with users/me; checks its figures against the entries. */
async function timeUsage({ url, token }, totals) {
  const usage = (days) => json(`${url}/speech/usage?days=${days}`, 'GET', undefined, token);
  const runs = await timedRuns({ warmups: WARMUPS, runs: REQUESTS }, async () => {
    const me = await timed(() => json(`${url}/admin/users/me`, 'GET', undefined, token));
    const d90 = await timed(() => usage(90));
    const d30 = await timed(() => usage(30));
    for (const [what, answer] of [
      ['users/me', me],
      ['usage?days=90', d90],
      ['usage?days=30', d30],
    ]) {
      if (answer.value.status !== 200) throw new Error(`${what} failed: ${answer.value.status} ${JSON.stringify(answer.value.body)}`);
    }
    return { floor: me.ms, d90: d90.ms, d30: d30.ms, answers: [d90.value.body, d30.value.body] };
  });
  // The figures of the last answers against the entries themselves.
  const checks = [];
  for (const answer of runs[runs.length - 1].answers) {
    const expectedMonth = totals.spentInMonth(answer.month);
    const shownDays = answer.days.map((day) => day.day);
    const expectedDays = totals.spentOnDays(shownDays);
    const answeredDays = answer.days.reduce((sum, day) => sum + day.credits, 0);
    checks.push({
      days: answer.days.length,
      month: answer.month,
      monthToDate: answer.monthToDate.credits,
      expectedMonth,
      daysCredits: answeredDays,
      expectedDays,
      ok: answer.monthToDate.credits === expectedMonth && answeredDays === expectedDays,
    });
  }
  const figure = (key) =>
    stats(
      runs.map((run) => run[key]),
      'p50',
      'p95'
    );
  return {
    d90: figure('d90'),
    d30: figure('d30'),
    floor: figure('floor'),
    checks,
    monthToDate: runs[runs.length - 1].answers[0].monthToDate,
  };
}

/** The whole ledger as CSV, streamed: time, size, lines, and Strapi's RSS growth while it streams. */
async function timeCsv({ url, token }, pid, entries) {
  await sleep(2000);
  const before = memoryOf(pid).rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, memoryOf(pid).rss);
  }, 50);
  const started = performance.now();
  let firstByteMs = null;
  let bytes = 0;
  let lines = 0;
  let header = '';
  try {
    const response = await fetch(`${url}/speech/usage/ledger.csv`, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new Error(`ledger.csv failed: ${response.status} ${await response.text()}`);
    for await (const chunk of response.body) {
      firstByteMs ??= since(started);
      bytes += chunk.length;
      if (header.length < 400) header += Buffer.from(chunk.subarray(0, 400)).toString('utf8');
      for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 10) lines += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = since(started) / 1000;
  peak = Math.max(peak, memoryOf(pid).rss);
  const result = {
    seconds,
    bytes,
    lines,
    firstByteMs,
    header: header.split('\r\n')[0],
    rssBeforeBytes: before,
    rssGrowthBytes: peak - before,
  };
  result.ok = lines === entries + 1 && result.rssGrowthBytes < TARGETS.csvGrowthShare * bytes;
  say(
    `ledger.csv: ${lines.toLocaleString('en-US')} lines, ${mb(bytes)} in ${seconds.toFixed(1)} s (${(bytes / 1048576 / seconds).toFixed(1)} MB/s), first byte after ${ms(firstByteMs)}; ` +
      `Strapi RSS ${mb(before)} before, +${mb(result.rssGrowthBytes)} at most while streaming`
  );
  return result;
}

async function runOne(kind, withPublish) {
  const { workDir, remove } = playgroundWorkDir('speech-bench-usage-');
  const db = kind === 'sqlite' ? await sqliteDatabase(workDir) : await postgresDatabase();
  const result = { db: db.label };
  try {
    const playground = await playgroundAround({
      workDir,
      apiKey: API_KEY,
      emulatorArgs: ['--delay', '0', '--credits', '1000000000', '--rate-limit', '100000/60', '--max-narrated-sentences', '1'],
      extra: db.env,
    });
    const { url, emulator } = playground;
    let started = Date.now();
    let strapi = await playground.start();
    await adminToken(url, credentials);
    await strapi.stop();
    say(`${db.label}: tables created (first start and admin ${((Date.now() - started) / 1000).toFixed(1)} s)`);

    const totals = totalsCollector();
    const now = Date.now();
    const { start, end } = windowOf(now, DAYS);
    started = Date.now();
    const counts = await db.seed(ledgerEntries({ count: ENTRIES, start, end })(), totals.add, () => ({
      days: totals.days(),
      articles: totals.articles(),
    }));
    result.seedSeconds = (Date.now() - started) / 1000;
    await db.analyze();
    for (const [table, name] of Object.entries(TABLES)) {
      const rows = await db.count(name);
      if (rows !== counts[table]) throw new Error(`${name}: ${rows} rows, the bench wrote ${counts[table]}`);
    }
    result.counts = counts;
    say(
      `${db.label}: ${counts.entries.toLocaleString('en-US')} entries, ${counts.days.toLocaleString('en-US')} day totals, ` +
        `${counts.articles.toLocaleString('en-US')} article-month totals written in ${result.seedSeconds.toFixed(1)} s (and ANALYZE)`
    );
    if (kind === 'sqlite') await db.close();

    strapi = await playground.start();
    const server = { url, token: await adminToken(url, credentials, { registered: true }) };
    result.usage = await timeUsage(server, totals);
    const { d90, d30, floor, checks } = result.usage;
    say(
      `${db.label}: usage?days=90 p50 ${ms(d90.p50)}, p95 ${ms(d90.p95)}; days=30 p50 ${ms(d30.p50)}, p95 ${ms(d30.p95)}; ` +
        `users/me p50 ${ms(floor.p50)} (${REQUESTS} each after ${WARMUPS} warm-ups)`
    );
    for (const check of checks) {
      say(
        `${db.label}: ${check.days} days: monthToDate.credits ${check.monthToDate.toLocaleString('en-US')} (entries of ${check.month}: ` +
          `${check.expectedMonth.toLocaleString('en-US')}), days ${check.daysCredits.toLocaleString('en-US')} (entries: ${check.expectedDays.toLocaleString('en-US')}) ${check.ok ? 'equal' : 'DIFFER'}`
      );
    }
    result.usage.ok = d90.p50 < TARGETS.usageP50Ms && checks.every((check) => check.ok);
    result.csv = await timeCsv(server, strapi.pid, counts.entries);
    if (withPublish) {
      const limit = result.usage.monthToDate.credits + 100_000_000;
      result.publish = await publishWithBudget(server, emulator.info.url, {
        warmups: PUBLISH_WARMUPS,
        samples: PUBLISH_SAMPLES,
        limit,
        say: (message) => say(`${db.label}: ${message}`),
      });
    }
    await strapi.stop();
    await emulator.stop();
    return result;
  } finally {
    await db.close();
    await remove();
  }
}

function report(results) {
  const rows = [];
  for (const r of results) {
    const { d90, d30, floor, checks } = r.usage;
    rows.push([
      `${r.db}: GET /speech/usage?days=90, ledger of ${r.counts.entries.toLocaleString('en-US')} entries over ${DAYS} days (${r.counts.days.toLocaleString('en-US')} day totals)`,
      `p50 ${ms(d90.p50)}, p95 ${ms(d90.p95)} (days=30: p50 ${ms(d30.p50)}, p95 ${ms(d30.p95)}; users/me p50 ${ms(floor.p50)})`,
      `p50 < ${TARGETS.usageP50Ms} ms`,
      verdict(d90.p50 < TARGETS.usageP50Ms),
    ]);
    rows.push([
      `${r.db}: monthToDate.credits and the days' credits against the seeded entries`,
      checks.map((c) => `${c.days} days: ${c.monthToDate.toLocaleString('en-US')} / ${c.expectedMonth.toLocaleString('en-US')}`).join('; '),
      'equal',
      verdict(checks.every((c) => c.ok)),
    ]);
    const { csv } = r;
    rows.push([
      `${r.db}: GET /speech/usage/ledger.csv, the whole ledger`,
      `${csv.seconds.toFixed(1)} s, ${mb(csv.bytes)}, ${csv.lines.toLocaleString('en-US')} lines, first byte ${ms(csv.firstByteMs)}; Strapi RSS +${mb(csv.rssGrowthBytes)}`,
      `every entry; RSS growth < ${TARGETS.csvGrowthShare * 100} % of the file`,
      verdict(csv.ok),
    ]);
    if (r.publish) {
      const p = r.publish;
      rows.push([
        `${r.db}: publish, budget set (${p.limit.toLocaleString('en-US')}) vs none, ${p.samples} each after ${p.warmupPairs} warm-up pairs`,
        `p50 ${ms(p.on.p50)} vs ${ms(p.off.p50)} = x${p.ratioP50.toFixed(3)}; p95 ${ms(p.on.p95)} vs ${ms(p.off.p95)} = x${p.ratioP95.toFixed(3)} (answer -> submission p50 ${p.submissionOn.p50} vs ${p.submissionOff.p50} ms)`,
        `ratio <= ${PUBLISH_RATIO_TARGET} (p50 and p95)`,
        verdict(p.ok),
      ]);
    }
  }
  console.log('');
  printTable(['figure', 'measured', 'target', 'verdict'], rows);
}

async function main() {
  if (process.platform !== 'linux') throw new Error('this benchmark reads /proc and runs on Linux only');
  ensureBuilt(argv, say);
  const benchStarted = Date.now();
  say(`${ENTRIES.toLocaleString('en-US')} ledger entries over ${DAYS} days on ${DATABASES.join(', ')}`);
  const results = [];
  for (const [index, kind] of DATABASES.entries()) {
    const started = Date.now();
    results.push(await runOne(kind, index === 0));
    say(`${kind} done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  console.log('');
  console.log(JSON.stringify({ event: 'bench-usage', entries: ENTRIES, days: DAYS, results }));
  report(results);
  say(`total ${((Date.now() - benchStarted) / 60000).toFixed(1)} min`);
  const ok = results.every((r) => r.usage.ok && r.csv.ok && (r.publish?.ok ?? true));
  if (!ok) process.exitCode = 1;
}

runBench('bench-usage', main, say);
