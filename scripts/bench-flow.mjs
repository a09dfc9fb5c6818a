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
import { performance } from 'node:perf_hooks';
import {
  adminToken,
  contentManager,
  ensureBuilt,
  freePort,
  json,
  leave,
  loadStrapiHere,
  numberOption,
  playgroundEnv,
  playgroundWorkDir,
  quantile,
  runBench,
  sleep,
  startEmulator,
  startPlayground,
  waitFor,
} from './bench-support.mjs';
import { signCallback } from '../emulator/src/narration/callbacks.mjs';
import { PLAYER_GZIP_BUDGET, PLAYER_OUTPUT, builtPlayerSizes } from './build-player.cjs';

const argv = process.argv.slice(2);
const number = (name, fallback) => numberOption(argv, name, fallback);
const SAMPLES = number('samples', 40);
const WARMUPS = number('warmups', 10);
const BACKLOG = number('backlog', 30);
const GENERATION_MS = number('generation-ms', 2000);
const CALLBACKS = number('callbacks', 50);
const CALLBACK_WARMUPS = 5;
const STATUS_DOCUMENTS = 100;
const STATUS_WARMUPS = 3;
const STATUS_RUNS = 20;
const SLOTS = 3; // the plugin's default maxInFlight, the contract's "about three articles in flight"
const HELD_MS = 600_000;
const API_KEY = 'bench-flow-key';
const UID = 'api::article.article';
const NARRATION_UID = 'plugin::speech.narration';
const ARTICLE_NARRATION = { titleField: 'title', textFields: ['summary', 'body'] };
const credentials = { email: 'bench@example.com', password: 'Bench-Passw0rd!' };
const TARGETS = { publishRatio: 1.05, drainRatio: 1.05, callbackP95Ms: 20, statusesMs: 50 };

const say = (message) => console.log(`[bench-flow] ${message}`);
const ms = (value) => `${value.toFixed(1)} ms`;
const verdict = (ok) => (ok ? 'PASS' : 'MISS');

if (
  ![SAMPLES, WARMUPS, BACKLOG, GENERATION_MS, CALLBACKS].every((n) => Number.isInteger(n) && n >= 0) ||
  SAMPLES < 2 ||
  BACKLOG < 1 ||
  CALLBACKS < 1 ||
  CALLBACKS > 50
) {
  console.error(
    '--samples >= 2, --warmups >= 0, --backlog >= 1, --generation-ms >= 0, --callbacks 1 to 50 (the plugin allows at most 50 in flight)'
  );
  leave(2);
}

const article = (label) => ({
  title: `Bench article ${label}`,
  summary: 'A short summary.',
  body: [
    { type: 'paragraph', children: [{ type: 'text', text: `Paragraph one of article ${label}. An editor wrote it and pressed Publish.` }] },
    { type: 'paragraph', children: [{ type: 'text', text: 'Paragraph two: a few more words for the speech service to read aloud.' }] },
  ],
});

const articleIdOf = (entry) => `${entry.documentId}-${entry.locale ?? 'en'}`;

/** The narration rows of these documents, as the list view asks for them. */
async function narrationStatuses({ url, token }, documentIds) {
  const res = await json(`${url}/speech/narrations/statuses`, 'POST', { contentType: UID, documentIds }, token);
  if (res.status !== 200) throw new Error(`statuses failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/**
 * A callback answered, from a line of Strapi's request log ("[2026-11-22 19:59:57.358] http: POST
 * /api/speech/callback (11 ms) 200", written once the answer is sent; TZ=UTC): when and how long.
 */
// Strapi colours its request log on a terminal; the escape character is what the pattern is for.
// eslint-disable-next-line no-control-regex
const ANSI_COLOUR = /\x1b\[[0-9;]*m/g;

function callbackLogEntry(line) {
  const match = /^\[(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})\] http: POST \/api\/speech\/callback \((\d+) ms\) (\d{3})/.exec(
    line.replace(ANSI_COLOUR, '')
  );
  return match ? { at: Date.parse(`${match[1]}T${match[2]}Z`), ms: Number(match[3]), status: Number(match[4]) } : null;
}

// ---------------------------------------------------------------------------------------------
// 1. Backlog drain

async function drain({ url, token, emulator, callbackLog }) {
  const cm = contentManager(url, token, UID);
  const drafts = [];
  for (let n = 0; n < BACKLOG; n += 1) drafts.push(await cm.create(article(`drain-${n}`)));
  const ids = new Set(drafts.map(articleIdOf));
  const creditsBefore = (await json(`${emulator}/__control/credits`, 'GET')).body.credits;

  const started = Date.now();
  await cm.bulkPublish(drafts.map((d) => d.documentId));
  const published = Date.now();
  const rows = await waitFor(
    async () => {
      const current = await narrationStatuses(
        { url, token },
        drafts.map((d) => d.documentId)
      );
      const failed = current.filter((row) => row.status === 'failed' || row.status === 'cancelled');
      if (failed.length) throw new Error(`narrations ended ${failed[0].status}: ${JSON.stringify(failed[0])}`);
      const done = current.filter((row) => row.status === 'completed');
      return done.length === BACKLOG ? done : null;
    },
    {
      timeoutMs: 60_000 + 4 * Math.ceil(BACKLOG / SLOTS) * (GENERATION_MS + 1_000),
      intervalMs: 200,
      what: `${BACKLOG} narrations to complete`,
    }
  );
  const lastCompleted = Math.max(...rows.map((row) => Date.parse(row.completedAt)));
  const wallMs = lastCompleted - started;

  // What the service saw: requests, generations, events (times) and credits.
  const requests = (await json(`${emulator}/__control/requests?path=/process-text&method=POST`, 'GET')).body.requests.filter((r) =>
    ids.has(r.body?.postData?.articleId)
  );
  const records = (await json(`${emulator}/__control/articles`, 'GET')).body.articles.filter((a) => ids.has(a.articleId));
  const events = (await json(`${emulator}/__control/events`, 'GET')).body.events.filter((e) => ids.has(e.articleId));
  const creditsAfter = (await json(`${emulator}/__control/credits`, 'GET')).body.credits;
  const deliveries = (await json(`${emulator}/__control/callbacks`, 'GET')).body.callbacks.filter(
    (c) => ids.has(c.articleId) && c.attempts.length
  );
  const timeOf = (type) => new Map(events.filter((e) => e.type === type).map((e) => [e.articleId, Date.parse(e.at)]));
  const charged = timeOf('CREDITS_CHARGED');
  const generated = timeOf('GENERATED');
  if (charged.size !== BACKLOG || generated.size !== BACKLOG)
    throw new Error(`the emulator accepted ${charged.size} and generated ${generated.size} of ${BACKLOG} articles`);
  // When each callback reached Strapi, from Strapi's own request log (the emulator's clock for its
  // POST includes its own scheduling on a busy machine).
  const received = callbackLog.splice(0).filter((c) => c.at >= started && c.status === 200);
  if (received.length !== BACKLOG) throw new Error(`Strapi logged ${received.length} answered callbacks, expected ${BACKLOG}`);
  const sorted = (values) => [...values].sort((a, b) => a - b);
  const acceptances = sorted(charged.values());
  const receipts = sorted(received.map((c) => c.at - c.ms));
  const sum = (values) => values.reduce((total, value) => total + value, 0);
  // T: from the service accepting an article to its callback reaching Strapi (the wait, the
  // synthesis, the emulator's delivery), averaged; sums, so no callback needs its article.
  const meanServiceMs = (sum(receipts) - sum(acceptances)) / BACKLOG;
  const synthesisMs = [...ids].map((id) => generated.get(id) - charged.get(id) - GENERATION_MS);

  // Most generations at once, from the emulator's own times.
  const edges = [...ids]
    .flatMap((id) => [
      [charged.get(id), 1],
      [generated.get(id), -1],
    ])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let generating = 0;
  let mostGenerating = 0;
  for (const [, step] of edges) mostGenerating = Math.max(mostGenerating, (generating += step));

  // A slot's hand-over, the client's part of the cycle: the k-th callback reaching Strapi -> the
  // (k+3)-th article accepted (acknowledgement, the worker's tick, the next POST /process-text).
  const p50max = (values) => (values.length ? { p50: quantile(values, 0.5), max: Math.max(...values) } : null);
  const handOver = {
    total: p50max(acceptances.slice(SLOTS).map((at, k) => at - receipts[k])),
    strapiCallbackMs: p50max(received.map((c) => c.ms)),
    emulatorCallbackRoundTripMs: p50max(deliveries.map((c) => c.attempts.at(-1).durationMs)),
  };

  const accepted = requests.filter((r) => r.status === 202).length;
  const expectedCredits = sum(records.map((record) => record.characters));
  const waves = Math.ceil(BACKLOG / SLOTS);
  const idealMs = waves * meanServiceMs;
  const result = {
    articles: BACKLOG,
    wallMs,
    bulkPublishMs: published - started,
    publishToFirstAcceptedMs: acceptances[0] - started,
    lastCallbackToStoredMs: lastCompleted - receipts.at(-1),
    serviceMs: {
      mean: meanServiceMs,
      configuredWaitMs: GENERATION_MS,
      synthesisP50: quantile(synthesisMs, 0.5),
      synthesisMax: Math.max(...synthesisMs),
    },
    idealMs,
    ratio: wallMs / idealMs,
    nominalIdealMs: waves * GENERATION_MS,
    nominalRatio: wallMs / (waves * GENERATION_MS),
    handOver,
    submissions: requests.length,
    accepted,
    generations: sum(records.map((record) => record.generation)),
    creditsSpent: creditsBefore - creditsAfter,
    creditsExpected: expectedCredits,
    mostGenerating,
  };
  result.paidOnce =
    result.accepted === BACKLOG &&
    result.submissions === BACKLOG &&
    result.generations === BACKLOG &&
    result.creditsSpent === expectedCredits;
  result.ok = result.paidOnce && result.mostGenerating <= SLOTS && result.ratio <= TARGETS.drainRatio;
  const pm = (figure) => `${figure?.p50} / ${figure?.max}`;
  say(
    `drain: ${BACKLOG} articles in ${(wallMs / 1000).toFixed(2)} s (bulk publish answered in ${result.bulkPublishMs} ms, first article accepted ${result.publishToFirstAcceptedMs} ms after it was sent); ` +
      `T = accepted -> callback at Strapi, mean ${meanServiceMs.toFixed(0)} ms (${GENERATION_MS} ms wait + synthesis p50 ${result.serviceMs.synthesisP50} ms, max ${result.serviceMs.synthesisMax} ms, + delivery); ` +
      `ideal ${waves} x T = ${(idealMs / 1000).toFixed(2)} s; last callback -> stored ${result.lastCallbackToStoredMs} ms`
  );
  say(
    `drain: slot hand-over (callback at Strapi -> next article accepted) p50 / max ${pm(handOver.total)} ms; callback handled by Strapi in ${pm(handOver.strapiCallbackMs)} ms ` +
      `(its log), timed by the emulator ${pm(handOver.emulatorCallbackRoundTripMs)} ms`
  );
  say(
    `drain: emulator saw ${requests.length} submissions, ${accepted} accepted, ${result.generations} generations, ${result.creditsSpent} credits spent (${expectedCredits} expected), at most ${mostGenerating} generating at once`
  );
  const results = records.map((record) => record.result).filter((r) => r?.audioFile && r?.srtFile);
  return { result, drafts, mediaResults: results };
}

// ---------------------------------------------------------------------------------------------
// 2. Publish with narration on and off

async function setNarration({ url, token }, on) {
  const body = { contentTypes: { [UID]: { ...ARTICLE_NARRATION, trigger: on ? 'publish' : 'off' } } };
  const put = await json(`${url}/speech/settings`, 'PUT', body, token);
  if (put.status !== 200) throw new Error(`settings update failed: ${put.status} ${JSON.stringify(put.body)}`);
  const types = await json(`${url}/speech/narrated-types`, 'GET', undefined, token);
  const trigger = types.body?.contentTypes?.[UID]?.trigger;
  if (trigger !== (on ? 'publish' : 'off'))
    throw new Error(`narration of ${UID} should be ${on ? 'on' : 'off'}, the plugin says trigger ${trigger}`);
}

async function publishOnOff(server) {
  const cm = contentManager(server.url, server.token, UID);
  const samples = { on: [], off: [] };
  const documents = { on: [], off: [] };
  for (let pair = 0; pair < WARMUPS + SAMPLES; pair += 1) {
    // ABBA: on, off, off, on, ... so a drift of the machine over the run weighs on both alike.
    for (const kind of pair % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
      await setNarration(server, kind === 'on');
      const draft = await cm.create(article(`${kind}-${pair}`));
      const started = performance.now();
      await cm.publish(draft.documentId);
      const elapsed = performance.now() - started;
      documents[kind].push(draft.documentId);
      if (pair >= WARMUPS) samples[kind].push(elapsed);
    }
  }
  await setNarration(server, true);

  // Narration on made exactly one row per publish; off made none.
  const onRows = await narrationStatuses(server, documents.on);
  const offRows = await narrationStatuses(server, documents.off);
  if (onRows.length !== documents.on.length || offRows.length !== 0) {
    throw new Error(
      `narration rows: ${onRows.length} for ${documents.on.length} publishes with narration on, ${offRows.length} with it off (expected 0)`
    );
  }

  const figure = (values) => ({
    p50: quantile(values, 0.5),
    p95: quantile(values, 0.95),
    min: Math.min(...values),
    max: Math.max(...values),
    n: values.length,
  });
  const result = { on: figure(samples.on), off: figure(samples.off), warmupPairs: WARMUPS };
  result.ratioP50 = result.on.p50 / result.off.p50;
  result.ratioP95 = result.on.p95 / result.off.p95;
  result.ok = result.ratioP50 <= TARGETS.publishRatio && result.ratioP95 <= TARGETS.publishRatio;
  say(
    `publish: narration on p50 ${ms(result.on.p50)}, p95 ${ms(result.on.p95)}; off p50 ${ms(result.off.p50)}, p95 ${ms(result.off.p95)} ` +
      `(${SAMPLES} each after ${WARMUPS} warm-up pairs); ratio p50 ${result.ratioP50.toFixed(3)}, p95 ${result.ratioP95.toFixed(3)}`
  );
  return { result, documents };
}

// ---------------------------------------------------------------------------------------------
// 3. Statuses of 100 documents

async function statuses(server, documentIds) {
  const timings = [];
  let rowsAnswered = 0;
  for (let run = 0; run < STATUS_WARMUPS + STATUS_RUNS; run += 1) {
    const started = performance.now();
    const rows = await narrationStatuses(server, documentIds);
    const elapsed = performance.now() - started;
    rowsAnswered = rows.length;
    if (run >= STATUS_WARMUPS) timings.push(elapsed);
  }
  const result = {
    documents: documentIds.length,
    rowsAnswered,
    p50: quantile(timings, 0.5),
    p95: quantile(timings, 0.95),
    runs: STATUS_RUNS,
  };
  result.ok = result.p50 < TARGETS.statusesMs;
  say(
    `statuses: ${documentIds.length} documents (${rowsAnswered} with a narration) p50 ${ms(result.p50)}, p95 ${ms(result.p95)} (${STATUS_RUNS} requests after ${STATUS_WARMUPS} warm-ups)`
  );
  return result;
}

// ---------------------------------------------------------------------------------------------
// 4. Callback acknowledgement, Strapi in this process

async function callbacks({ env, port, mediaResults }) {
  if (mediaResults.length === 0) throw new Error('no MP3/SRT produced by the emulator in the drain to call back with');
  const { app, destroy } = await loadStrapiHere(env);
  app.log.level = 'warn';
  const narrations = app.db.query(NARRATION_UID);

  // Times each callback from the first middleware in: everything Strapi does before the answer is written.
  const spans = [];
  app.server.app.middleware.unshift(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== '/api/speech/callback') return next();
    const started = performance.now();
    await next();
    spans.push({ ms: performance.now() - started, status: ctx.status, articleId: ctx.request.body?.articleId });
  });
  await new Promise((resolve, reject) => {
    app.server.httpServer.once('error', reject);
    app.server.listen(port, '127.0.0.1', resolve);
  });
  const callbackUrl = `http://127.0.0.1:${port}/api/speech/callback`;

  // Enough narrations for the warm-up and the burst: those step 2 left, topped up with publishes
  // through the Document Service (the plugin's middleware sees them as the Content Manager's).
  const active = () => narrations.count({ where: { status: { $in: ['queued', 'submitting', 'awaiting_callback'] } } });
  const missing = CALLBACK_WARMUPS + CALLBACKS - (await active());
  for (let n = 0; n < missing; n += 1) {
    const created = await app.documents(UID).create({ data: article(`callback-${n}`), locale: 'en' });
    await app.documents(UID).publish({ documentId: created.documentId, locale: 'en' });
  }
  const awaiting = () => narrations.findMany({ where: { status: 'awaiting_callback' }, orderBy: { id: 'asc' } });
  const allAwaiting = () =>
    waitFor(async () => ((await awaiting()).length === CALLBACKS ? awaiting() : null), {
      timeoutMs: 60_000,
      intervalMs: 100,
      what: `${CALLBACKS} narrations awaiting a callback`,
    });

  let nextMedia = 0;
  const signedBody = (articleId) => {
    const { audioFile, srtFile } = mediaResults[nextMedia++ % mediaResults.length];
    return JSON.stringify({ articleId, response: { audioFile, srtFile, signature: signCallback(API_KEY, articleId, audioFile, srtFile) } });
  };
  const send = async (body) => {
    const started = performance.now();
    const res = await fetch(callbackUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const answer = await res.json().catch(() => null);
    return { ms: performance.now() - started, status: res.status, outcome: answer?.outcome };
  };
  const completed = (ids) => narrations.count({ where: { articleId: { $in: ids }, status: 'completed' } });

  // Warm-up: a few genuine callbacks one at a time; their narrations are stored and replaced in the slots.
  const warmRows = (await allAwaiting()).slice(0, CALLBACK_WARMUPS);
  for (const row of warmRows) {
    const answer = await send(signedBody(row.articleId));
    if (answer.status !== 200 || answer.outcome !== 'accepted')
      throw new Error(`warm-up callback for ${row.articleId}: ${answer.status} ${answer.outcome}`);
  }
  await waitFor(async () => (await completed(warmRows.map((r) => r.articleId))) === warmRows.length, {
    timeoutMs: 60_000,
    intervalMs: 100,
    what: 'the warm-up narrations to be stored',
  });
  const burstRows = await allAwaiting();
  await sleep(2_000);
  spans.length = 0;

  // The burst: every body built first, then all sent at once.
  const bodies = burstRows.map((row) => signedBody(row.articleId));
  const burstStarted = performance.now();
  const answers = await Promise.all(bodies.map(send));
  const burstMs = performance.now() - burstStarted;
  const refused = answers.filter((a) => a.status !== 200 || a.outcome !== 'accepted');
  if (refused.length) throw new Error(`${refused.length} callbacks not accepted: ${JSON.stringify(refused.slice(0, 3))}`);
  if (spans.length !== CALLBACKS) throw new Error(`the timing middleware saw ${spans.length} callbacks, expected ${CALLBACKS}`);
  const ids = burstRows.map((r) => r.articleId);
  const acknowledged = await completed(ids);
  await waitFor(async () => (await completed(ids)) === CALLBACKS, {
    timeoutMs: 180_000,
    intervalMs: 100,
    what: `the ${CALLBACKS} narrations to be stored`,
  });
  const storedMs = performance.now() - burstStarted;

  const handler = spans.map((s) => s.ms);
  const roundTrip = answers.map((a) => a.ms);
  const result = {
    callbacks: CALLBACKS,
    measuredAs:
      'handler: koa middleware placed first in Strapi, loaded in the bench process; roundTrip: loopback fetch from the same process',
    handlerMs: { p50: quantile(handler, 0.5), p95: quantile(handler, 0.95), max: Math.max(...handler) },
    roundTripMs: { p50: quantile(roundTrip, 0.5), p95: quantile(roundTrip, 0.95), max: Math.max(...roundTrip) },
    burstMs,
    completedAtAck: acknowledged,
    allStoredMs: storedMs,
  };
  result.ok = result.handlerMs.p95 < TARGETS.callbackP95Ms;
  say(
    `callbacks: ${CALLBACKS} at once, all 200 accepted; handler p50 ${ms(result.handlerMs.p50)}, p95 ${ms(result.handlerMs.p95)}, max ${ms(result.handlerMs.max)}; ` +
      `loopback round trip p50 ${ms(result.roundTripMs.p50)}, p95 ${ms(result.roundTripMs.p95)}; all answered in ${ms(burstMs)}; ` +
      `${acknowledged} already stored when the last answer came, all ${CALLBACKS} stored ${(storedMs / 1000).toFixed(1)} s after the burst began`
  );
  await destroy();
  return result;
}

// ---------------------------------------------------------------------------------------------

function table(figures) {
  const { publish, drain, callback, statuses, player } = figures;
  const rows = [
    [
      `publish (Content Manager admin API), narration on vs off, ${SAMPLES} each after ${WARMUPS} warm-up pairs`,
      `p50 ${ms(publish.on.p50)} vs ${ms(publish.off.p50)} = x${publish.ratioP50.toFixed(3)}; p95 ${ms(publish.on.p95)} vs ${ms(publish.off.p95)} = x${publish.ratioP95.toFixed(3)}`,
      `ratio <= ${TARGETS.publishRatio} (p50 and p95)`,
      verdict(publish.ok),
    ],
    [
      `backlog drain, ${drain.articles} articles, ${SLOTS} in flight, T = accepted -> callback at Strapi, mean ${drain.serviceMs.mean.toFixed(0)} ms (${GENERATION_MS} ms wait + synthesis)`,
      `${(drain.wallMs / 1000).toFixed(2)} s / ideal ${(drain.idealMs / 1000).toFixed(2)} s = x${drain.ratio.toFixed(3)} (x${drain.nominalRatio.toFixed(3)} against T = ${GENERATION_MS} ms); accepted ${drain.accepted}/${drain.articles}, generations ${drain.generations}, credits ${drain.creditsSpent}/${drain.creditsExpected}, at most ${drain.mostGenerating} generating`,
      `<= ${TARGETS.drainRatio} x ideal; accepted == ${drain.articles}, paid once`,
      verdict(drain.ok),
    ],
    [
      `callback acknowledgement, ${callback.callbacks} concurrent, handler time in process (koa middleware placed first)`,
      `p50 ${ms(callback.handlerMs.p50)}, p95 ${ms(callback.handlerMs.p95)} (loopback round trip p50 ${ms(callback.roundTripMs.p50)}, p95 ${ms(callback.roundTripMs.p95)})`,
      `p95 < ${TARGETS.callbackP95Ms} ms`,
      verdict(callback.ok),
    ],
    [
      `statuses of ${statuses.documents} documents (demo-sized table, measured here; the scale section has 1k-1M rows)`,
      `p50 ${ms(statuses.p50)}, p95 ${ms(statuses.p95)}`,
      `p50 < ${TARGETS.statusesMs} ms`,
      verdict(statuses.ok),
    ],
    ['50 MB transcription upload, plugin share', 'measured by the upload section (--only upload)', '< 5 MB', '-'],
    [
      `player gzip size (${PLAYER_OUTPUT}, gzip at zlib's default level)`,
      player.built ? `${player.gzipBytes} bytes gzip (${player.bytes} bytes minified)` : 'not built (npm run build)',
      `< ${player.budget} bytes (8 KB)`,
      verdict(player.ok),
    ],
  ];
  console.log('');
  console.log('| figure | measured | target | verdict |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

/** The built player's sizes against its 8 KB gzip budget (step 5). */
function playerFigure() {
  const sizes = builtPlayerSizes();
  return sizes ? { built: true, ...sizes, ok: sizes.gzipBytes < sizes.budget } : { built: false, budget: PLAYER_GZIP_BUDGET, ok: false };
}

async function main() {
  ensureBuilt(argv, say);
  const benchStarted = Date.now();
  const { workDir } = playgroundWorkDir('speech-bench-flow-');

  // One sentence synthesized per article keeps the emulator's own CPU small next to the wait T.
  const emulator = await startEmulator(API_KEY, [
    '--delay',
    String(GENERATION_MS),
    '--credits',
    '100000000',
    '--rate-limit',
    '100000/60',
    '--max-narrated-sentences',
    '1',
  ]);
  const emulatorUrl = emulator.info.url;
  const port = await freePort();
  const env = playgroundEnv({ workDir, port, apiKey: API_KEY, emulator });

  const callbackLog = [];
  const profiles = path.join(os.tmpdir(), `speech-bench-flow-profiles-${Date.now()}`);
  const strapi = await startPlayground(workDir, env, {
    nodeArgs: argv.includes('--cpu-prof') ? ['--cpu-prof', '--cpu-prof-dir', profiles] : [],
    onLine: (line) => {
      const entry = callbackLogEntry(line);
      if (entry) callbackLog.push(entry);
    },
  });
  if (argv.includes('--cpu-prof'))
    say(`CPU profile of the Strapi child process (steps 1-3) goes to ${profiles}; for step 4 run the bench itself with node --cpu-prof`);
  const server = { url: `http://127.0.0.1:${port}`, token: await adminToken(`http://127.0.0.1:${port}`, credentials) };
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
