#!/usr/bin/env node
/**
 * The editor's flow, end to end (issue 11): what narration adds to a publish, how fast a backlog
 * drains through the service's three slots, how long Strapi takes to acknowledge the service's
 * callbacks, and one statuses request of the list view. One emulator, one SQLite database:
 *
 *  1. Drain: the playground Strapi (child process, production mode, default 2 s worker tick)
 *     registers an admin; 30 draft articles are published in one Content Manager bulk publish.
 *     The emulator waits --generation-ms (2000) per article, then synthesizes one sentence for real
 *     (one synthesis at a time, in its worker thread). T = from the emulator accepting an
 *     article to its callback reaching Strapi (Strapi's request log), averaged: the service's time
 *     as the client sees it. Wall time = from sending the bulk publish to the last narration's
 *     `completedAt` (files downloaded and stored); ideal = ceil(N/3) x T. Checked: wall <= 1.05 x
 *     ideal, and from the emulator: every article accepted (202) once, generated once, paid once,
 *     never more than 3 generating at a time. Printed too: the ratio against the nominal T, the
 *     slot hand-over (callback at Strapi -> next article accepted) and the first and last steps.
 *  2. Publish on/off: generations held at the emulator (a 10 min wait: no synthesis, callbacks or
 *     downloads in the background; the queue is full, as in a busy hour). For each sample the bench
 *     switches the article type's narration on or off in the plugin's settings (PUT /speech/settings,
 *     then GET /speech/narrated-types, which also refills the plugin's 5 s settings cache), creates a
 *     draft, and times its publish through the Content Manager's admin API (the request an editor's
 *     Publish button sends), at the client, over loopback. On and off alternate in ABBA order;
 *     --warmups pairs first, then --samples of each. Checked: p50 and p95 ratios on/off <= 1.05.
 *  3. Statuses: POST /speech/narrations/statuses for 100 documents (the drained ones, the narrated
 *     ones and some never narrated) on this demo-sized table; 3 warm-ups, 20 timed; p50 < 50 ms.
 *  4. Callbacks, in this process: Strapi is stopped and loaded again inside the bench's own Node
 *     process (createStrapi().load(), as tests/integration/query-plans.test.ts does) with
 *     maxInFlight 50, so the narrations left by step 2 are all submitted and really await a
 *     callback. A koa middleware placed first times each callback request, from the moment Strapi
 *     starts handling it to the moment its answer is ready (body parsing, signature check, state
 *     transition, worker wake-up); the media download runs after the answer, in the worker. The
 *     callbacks are signed as the service signs them, with the MP3 and SRT URLs the emulator
 *     produced in step 1; 5 are sent one at a time as a warm-up, then 50 at once over loopback.
 *     Checked: every answer 200 `accepted`, handler p95 < 20 ms; printed too: the loopback round
 *     trip (what the service waits for, plus this process's own client work) and the time until
 *     all 50 narrations are stored.
 *
 *  5. Player: the gzip size (zlib's default level, as a server compresses) of the built
 *     <speech-narration> module, dist/player/speech-narration.mjs; checked: under 8 KB.
 *
 *   node scripts/bench-flow.mjs [--samples 40] [--warmups 10] [--backlog 30] [--generation-ms 2000]
 *                               [--callbacks 50] [--build] [--cpu-prof]
 *
 * Needs a built plugin and playground (`--build` builds both first). Exit code 1 when a figure
 * misses its target or a step fails.
 */
import os from 'node:os';
import path from 'node:path';
import { adminToken, ensureBuilt, json, playgroundAround, playgroundWorkDir, runBench } from './bench-support.mjs';
import { stats, timed, timedRuns } from './bench/figures.mjs';
import { callbacks } from './bench/flow/callbacks.mjs';
import { callbackLogEntry, drain } from './bench/flow/drain.mjs';
import { publishOnOff } from './bench/flow/publish.mjs';
import { playerFigure, table } from './bench/flow/report.mjs';
import {
  API_KEY,
  BACKLOG,
  CALLBACKS,
  GENERATION_MS,
  HELD_MS,
  SAMPLES,
  STATUS_DOCUMENTS,
  STATUS_RUNS,
  STATUS_WARMUPS,
  TARGETS,
  WARMUPS,
  argv,
  credentials,
  ms,
  say,
  statusesOf,
} from './bench/flow/settings.mjs';

// Steps 1, 2 and 4 and the final table are in scripts/bench/flow/.

// ---------------------------------------------------------------------------------------------
// 3. Statuses of 100 documents

async function statuses(server, documentIds) {
  let rowsAnswered = 0;
  const timings = await timedRuns({ warmups: STATUS_WARMUPS, runs: STATUS_RUNS }, async () => {
    const answer = await timed(() => statusesOf(server, documentIds));
    rowsAnswered = answer.value.length;
    return answer.ms;
  });
  const result = {
    documents: documentIds.length,
    rowsAnswered,
    ...stats(timings, 'p50', 'p95'),
    runs: STATUS_RUNS,
  };
  result.ok = result.p50 < TARGETS.statusesMs;
  say(
    `statuses: ${documentIds.length} documents (${rowsAnswered} with a narration) p50 ${ms(result.p50)}, p95 ${ms(result.p95)} (${STATUS_RUNS} requests after ${STATUS_WARMUPS} warm-ups)`
  );
  return result;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  ensureBuilt(argv, say);
  const benchStarted = Date.now();
  const { workDir } = playgroundWorkDir('speech-bench-flow-');

  const playground = await playgroundAround({
    workDir,
    apiKey: API_KEY,
    // One sentence synthesized per article keeps the emulator's own CPU small next to the wait T.
    emulatorArgs: [
      '--delay',
      String(GENERATION_MS),
      '--credits',
      '100000000',
      '--rate-limit',
      '100000/60',
      '--max-narrated-sentences',
      '1',
    ],
  });
  const { emulator, port, env } = playground;
  const emulatorUrl = emulator.info.url;

  const callbackLog = [];
  const profiles = path.join(os.tmpdir(), `speech-bench-flow-profiles-${Date.now()}`);
  const strapi = await playground.start({
    nodeArgs: argv.includes('--cpu-prof') ? ['--cpu-prof', '--cpu-prof-dir', profiles] : [],
    onLine: (line) => {
      const entry = callbackLogEntry(line);
      if (entry) callbackLog.push(entry);
    },
  });
  if (argv.includes('--cpu-prof'))
    say(`CPU profile of the Strapi child process (steps 1-3) goes to ${profiles}; for step 4 run the bench itself with node --cpu-prof`);
  const server = { url: playground.url, token: await adminToken(playground.url, credentials) };
  say(
    `strapi pid ${strapi.pid}, emulator pid ${emulator.pid}; ${BACKLOG} articles to drain at ${GENERATION_MS} ms, then ${WARMUPS}+${SAMPLES} publishes each way`
  );

  const drained = await drain({ ...server, emulator: emulatorUrl, callbackLog });
  const held = await json(`${emulatorUrl}/__control/config`, 'PUT', { generationDelayMs: HELD_MS });
  if (held.status !== 200) throw new Error(`emulator config: ${held.status} ${JSON.stringify(held.body)}`);
  const published = await publishOnOff(server);
  const statusIds = [...drained.drafts.map((d) => d.documentId), ...published.documents.on, ...published.documents.off].slice(
    0,
    STATUS_DOCUMENTS
  );
  const statusFigures = await statuses(server, statusIds);
  await strapi.stop();

  const callbackFigures = await callbacks({
    env: { ...env, SPEECH_MAX_IN_FLIGHT: String(CALLBACKS) },
    port,
    mediaResults: drained.mediaResults,
  });

  const figures = {
    publish: published.result,
    drain: drained.result,
    callback: callbackFigures,
    statuses: statusFigures,
    player: playerFigure(),
  };
  console.log('');
  console.log(JSON.stringify({ event: 'bench-flow', ...figures }));
  table(figures);
  say(`total ${((Date.now() - benchStarted) / 1000).toFixed(0)} s`);
  if (!Object.values(figures).every((figure) => figure.ok)) process.exitCode = 1;
}

runBench('bench-flow', main, say);
