#!/usr/bin/env node
/**
 * `npm run bench`: the machine and the date, then the benches one after another, each in its own
 * process (scripts/bench-stt-upload.mjs: memory of a 50 MB upload; scripts/bench-scale.mjs: the
 * narration queue at 1,000 to 1,000,000 rows on SQLite and PostgreSQL; scripts/bench-flow.mjs: the
 * editor's flow: publish with narration on/off, a backlog drain, callback acknowledgement, statuses;
 * scripts/bench-feeds.mjs: a podcast feed of 1,000 items, cold and warm; scripts/bench-reconcile.mjs:
 * the reconciliation at a million live articles, idle and catching up; scripts/bench-stitch.mjs: an
 * hour of narration joined from 30 MP3 and SRT parts, time and memory; scripts/bench-segmented.mjs:
 * segmented narration through the plugin and the emulator: the credits of ten edits, an hour joined
 * after its last callback, short articles drained beside long ones; scripts/bench-usage.mjs: the credits
 * ledger at a million entries: the usage view's query, the CSV export, publishing with a budget set;
 * scripts/bench-insights.mjs: listening insights: the player's events route at 1,000 events/s open-loop,
 * the database writes per flush, nothing lost on a graceful stop, two instances on PostgreSQL, the
 * player's size); scripts/bench-verify.mjs: verified narration: the alignment of 10,000 words, the
 * memory of comparing an hour, what a check adds after a store; scripts/bench-passages.mjs: passage
 * voices: telling the language of every paragraph of a 10,000-word bilingual article; scripts/bench-backfill.mjs:
 * archive backfill at 10,000 published articles: the estimate, the time to enqueue an entry and per claim with the
 * backlog cap in place).
 *
 *   npm run bench -- [--only upload|scale|flow|feeds|reconcile|stitch|segmented|usage|insights|verify|passages|backfill] [--build]
 *                    [--runs 3] [--processes 5] [--mb 50]                      (upload)
 *                    [--sizes 1000,100000,1000000] [--db sqlite|postgres] [--idle-seconds 30]  (scale)
 *                    [--samples 40] [--warmups 10] [--backlog 30] [--generation-ms 2000] [--callbacks 50] [--cpu-prof]  (flow)
 *                    [--items 1000]  (feeds)
 *                    [--rows 1000000] [--lost 100]  (reconcile)
 *                    [--parts 30] [--part-seconds 120]  (stitch)
 *                    [--steps credits,join,drain] [--edits 10] [--edit-characters 20000] [--join-characters 54000]
 *                    [--join-seconds 3600] [--join-runs 2] [--long 3] [--short 30] [--long-characters 13000]
 *                    [--long-segment 1000] [--drain-generation-ms 1000] [--drain-rounds 2] [--poll-ms 10]  (segmented)
 *                    [--db sqlite,postgres] [--entries 1000000] [--days 120] [--requests 50] [--request-warmups 5]
 *                    [--publish-samples 40] [--publish-warmups 5]  (usage)
 *                    [--events-per-second 1000] [--seconds 30] [--warmup-seconds 5] [--pg-seconds 20] [--floor-seconds 10]
 *                    [--db sqlite,postgres] [--listeners 3000] [--articles 20] [--flush-seconds 5] [--connections 512] [--cpu-prof] [--sqlite-wal]  (insights)
 *                    [--processes 3] [--runs 5] [--words 10000] [--hour-words 9000] [--samples 3] [--article-words 1500]  (verify)
 *                    [--processes 3] [--runs 5] [--words 10000]                (passages)
 *                    [--archive 10000] [--archive-backlog 100] [--claims 300]   (backfill)
 *
 * Exits non-zero when a bench fails or misses its target.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { leave, optionOf, root } from './bench-support.mjs';

const argv = process.argv.slice(2);
const value = (name) => optionOf(argv, name);
const forward = (names) => names.flatMap((name) => (value(name) === undefined ? [] : [`--${name}`, value(name)]));

const only = value('only');
if (
  only !== undefined &&
  !['upload', 'scale', 'flow', 'feeds', 'reconcile', 'stitch', 'segmented', 'usage', 'insights', 'verify', 'passages', 'backfill'].includes(
    only
  )
) {
  console.error('--only: upload, scale, flow, feeds, reconcile, stitch, segmented, usage, insights, verify, passages or backfill');
  leave(2);
}
const benches = [
  { name: 'upload', script: 'bench-stt-upload.mjs', args: forward(['runs', 'processes', 'mb']) },
  { name: 'scale', script: 'bench-scale.mjs', args: forward(['sizes', 'db', 'idle-seconds']) },
  {
    name: 'flow',
    script: 'bench-flow.mjs',
    args: [
      ...forward(['samples', 'warmups', 'backlog', 'generation-ms', 'callbacks']),
      ...(argv.includes('--cpu-prof') ? ['--cpu-prof'] : []),
      ...(argv.includes('--passage-voices') ? ['--passage-voices'] : []),
    ],
  },
  { name: 'feeds', script: 'bench-feeds.mjs', args: forward(['items']) },
  { name: 'reconcile', script: 'bench-reconcile.mjs', args: forward(['rows', 'lost']) },
  { name: 'stitch', script: 'bench-stitch.mjs', args: forward(['parts', 'part-seconds']) },
  {
    name: 'segmented',
    script: 'bench-segmented.mjs',
    args: forward([
      'steps',
      'edits',
      'edit-characters',
      'join-characters',
      'join-seconds',
      'join-runs',
      'long',
      'short',
      'long-characters',
      'long-segment',
      'drain-generation-ms',
      'drain-rounds',
      'poll-ms',
    ]),
  },
  {
    name: 'usage',
    script: 'bench-usage.mjs',
    args: forward(['db', 'entries', 'days', 'requests', 'request-warmups', 'publish-samples', 'publish-warmups']),
  },
  {
    name: 'insights',
    script: 'bench-insights.mjs',
    args: [
      ...forward([
        'events-per-second',
        'seconds',
        'warmup-seconds',
        'pg-seconds',
        'floor-seconds',
        'db',
        'listeners',
        'articles',
        'flush-seconds',
        'connections',
      ]),
      ...(argv.includes('--cpu-prof') ? ['--cpu-prof'] : []),
      ...(argv.includes('--sqlite-wal') ? ['--sqlite-wal'] : []),
    ],
  },
  { name: 'verify', script: 'bench-verify.mjs', args: forward(['processes', 'runs', 'words', 'hour-words', 'samples', 'article-words']) },
  { name: 'passages', script: 'bench-passages.mjs', args: forward(['processes', 'runs', 'words']) },
  { name: 'backfill', script: 'bench-backfill.mjs', args: forward(['archive', 'archive-backlog', 'claims']) },
].filter((bench) => !only || bench.name === only);
// Build once, before the first bench.
if (argv.includes('--build')) benches[0].args.push('--build');

const cpus = os.cpus();
console.log(`# speech plugin benches, ${new Date().toISOString()}`);
console.log(
  `# machine: ${cpus[0]?.model?.trim() ?? 'unknown cpu'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, ${os.type()} ${os.release()}; node ${process.version}`
);

let current = null;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  // The bench in progress cleans up after itself (its processes, clusters, folders) on the signal.
  process.on(signal, () => {
    if (current && current.exitCode === null) current.kill(signal);
    else leave(130);
  });
}

let failed = [];
for (const bench of benches) {
  console.log(`\n## ${bench.name}: node scripts/${bench.script} ${bench.args.join(' ')}`.trimEnd());
  const code = await new Promise((resolve) => {
    current = spawn(process.execPath, [path.join(root, 'scripts', bench.script), ...bench.args], { cwd: root, stdio: 'inherit' });
    current.once('exit', (exitCode, signal) => resolve(signal ? 130 : exitCode));
  });
  current = null;
  if (code === 130) leave(130);
  if (code !== 0) failed.push(bench.name);
}
if (failed.length) {
  console.log(`\n# failed or over target: ${failed.join(', ')}`);
  process.exitCode = 1;
}
