/**
 * Step 4 of the flow bench: Strapi loaded in this process, genuine signed callbacks for narrations
 * awaiting them, a warm-up one at a time then a burst at once, each timed by a koa middleware
 * placed first.
 */
import { performance } from 'node:perf_hooks';
import { loadStrapiHere, sleep, waitFor } from '../../bench-support.mjs';
import { signCallback } from '../../../emulator/src/narration/callbacks.mjs';
import { stats } from '../figures.mjs';
import { API_KEY, CALLBACKS, CALLBACK_WARMUPS, NARRATION_UID, TARGETS, UID, article, ms, say } from './settings.mjs';

export async function callbacks({ env, port, mediaResults }) {
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
    handlerMs: stats(handler, 'p50', 'p95', 'max'),
    roundTripMs: stats(roundTrip, 'p50', 'p95', 'max'),
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
