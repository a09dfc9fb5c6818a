#!/usr/bin/env node
/**
 * Segmented narration through the real plugin against the emulator (issue 23): the playground
 * Strapi (child process, production mode, SQLite, default worker tick and maxInFlight 3) with the
 * article type switched between whole and segmented mode in the plugin's settings
 * (PUT /speech/settings), and the emulator (real synthesis, one sentence a generation). Each step's
 * file in scripts/bench/segmented/ says exactly what it measures:
 *
 *  1. credits.mjs: what ten successive one-paragraph edits of a 20,000-character article cost at
 *     the emulator (its credit ledger), whole mode against segmented mode; target <= 15 %.
 *  2. join.mjs: from the last part's callback to the joined narration on the public route, for an
 *     hour of narration (about 55 MB at 128 kbps, served by the bench's own media host), and the
 *     Strapi process's extra memory meanwhile; targets < 2 s, < 16 MB.
 *  3. drain.mjs: short articles published together with long ones (20+ parts each) wait no longer
 *     than alone (p50 ratio <= 1.2), and never more than maxInFlight generations at once.
 *
 *   node scripts/bench-segmented.mjs [--steps credits,join,drain] [--edits 10] [--edit-characters 20000]
 *        [--join-characters 54000] [--join-seconds 3600] [--join-runs 2]
 *        [--long 3] [--short 30] [--long-characters 13000] [--long-segment 1000] [--drain-generation-ms 1000] [--drain-rounds 2]
 *        [--poll-ms 10] [--cpu-prof-dir <dir>] [--build]
 *
 * Needs a built plugin and playground (`--build` builds both first), ffmpeg for step 2, Linux
 * (/proc). Exit code 1 when a figure misses its target or a step fails. Steps run in the order
 * credits, drain, join: the join step holds the emulator's generations.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { adminToken, ensureBuilt, playgroundAround, playgroundWorkDir, root, runBench } from './bench-support.mjs';
import { creditsOverEdits } from './bench/segmented/credits.mjs';
import { drainWithLongArticles } from './bench/segmented/drain.mjs';
import { joinAnHour } from './bench/segmented/join.mjs';
import { startMediaHost } from './bench/segmented/media-host.mjs';
import { loadFixtures } from './bench/segmented/plugin.mjs';
import { report } from './bench/segmented/report.mjs';
import { API_KEY, CPU_PROFILE_DIR, STEPS, argv, credentials, say } from './bench/segmented/settings.mjs';

// Strapi colours its log on a terminal; the escape character is what the pattern is for.
// eslint-disable-next-line no-control-regex
const ANSI_COLOUR = /\x1b\[[0-9;]*m/g;

/** A line of Strapi's log ("[2026-11-22 19:59:57.358] info: [speech] ..."; TZ=UTC): when, and what. */
function logEntry(line) {
  const match = /^\[(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})\] \w+: (.*)$/.exec(line.replace(ANSI_COLOUR, ''));
  return match ? { at: Date.parse(`${match[1]}T${match[2]}Z`), message: match[3].trim() } : null;
}

async function main() {
  ensureBuilt(argv, say);
  if (STEPS.includes('join') && spawnSync('ffmpeg', ['-version']).status !== 0)
    throw new Error('ffmpeg is needed (Debian: apt-get install ffmpeg)');
  const benchStarted = Date.now();
  const fixtures = await loadFixtures();
  const media = await startMediaHost();
  const { workDir } = playgroundWorkDir('speech-bench-segmented-');
  const playground = await playgroundAround({
    workDir,
    apiKey: API_KEY,
    emulatorArgs: ['--credits', '1000000000', '--rate-limit', '100000/60', '--max-narrated-sentences', '1'],
  });
  const emulatorUrl = playground.emulator.info.url;
  // The plugin downloads from the emulator and from the bench's media host (step 2).
  playground.env.SPEECH_MEDIA_HOSTS = `${emulatorUrl},${media.origin}`;
  const log = [];
  const collected = [];
  const child = await playground.start({
    nodeArgs: [
      ...['--expose-gc', '--require', path.join(root, 'scripts/bench/segmented/gc-on-signal.cjs')],
      ...(CPU_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROFILE_DIR] : []),
    ],
    onLine: (line) => {
      if (line === '{"event":"bench-gc-done"}') collected.shift()?.();
      const entry = logEntry(line);
      if (entry) log.push(entry);
    },
  });
  const strapi = {
    pid: child.pid,
    log,
    uploadsDir: path.join(workDir, 'public', 'uploads'),
    /** A full garbage collection in the Strapi process (gc-on-signal.cjs). */
    collectGarbage: () =>
      new Promise((resolve) => {
        collected.push(resolve);
        process.kill(child.pid, 'SIGUSR2');
      }),
  };
  const server = { url: playground.url, token: await adminToken(playground.url, credentials) };
  say(`strapi pid ${child.pid}, emulator pid ${playground.emulator.pid}, media host ${media.origin}; steps ${STEPS.join(', ')}`);

  const figures = {};
  const steps = [
    ['credits', () => creditsOverEdits({ server, emulatorUrl, fixtures })],
    ['drain', () => drainWithLongArticles({ server, emulatorUrl, fixtures })],
    ['join', () => joinAnHour({ server, emulatorUrl, fixtures, media, strapi })],
  ];
  for (const [name, step] of steps.filter(([name]) => STEPS.includes(name))) {
    const started = Date.now();
    figures[name] = await step();
    // Others' work on the machine shows in every figure: the load average says how busy it was.
    figures[name].loadAverage = os.loadavg();
    say(
      `${name}: ${((Date.now() - started) / 1000).toFixed(0)} s, load average ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')} (1, 5, 15 min)`
    );
  }
  await child.stop();

  console.log('');
  console.log(JSON.stringify({ event: 'bench-segmented', ...figures }));
  report(figures);
  say(`total ${((Date.now() - benchStarted) / 1000).toFixed(0)} s`);
  if (!Object.values(figures).every((figure) => figure.ok)) process.exitCode = 1;
}

runBench('bench-segmented', main, say);
