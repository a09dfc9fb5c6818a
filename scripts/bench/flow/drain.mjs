/**
 * Step 1 of the flow bench: a backlog of articles published at once and drained through the
 * service's slots, against ceil(N/3) x T, with what the emulator saw (submissions, generations,
 * credits, most generating at once); and the reading of Strapi's request log for the callbacks.
 */
import { contentManager, json, waitFor } from '../../bench-support.mjs';
import { quantile, stats } from '../figures.mjs';
import { BACKLOG, GENERATION_MS, SLOTS, TARGETS, UID, article, articleIdOf, say, statusesOf } from './settings.mjs';

/**
 * A callback answered, from a line of Strapi's request log ("[2026-11-22 19:59:57.358] http: POST
 * /api/speech/callback (11 ms) 200", written once the answer is sent; TZ=UTC): when and how long.
 */
// Strapi colours its request log on a terminal; the escape character is what the pattern is for.
// eslint-disable-next-line no-control-regex
const ANSI_COLOUR = /\x1b\[[0-9;]*m/g;

export function callbackLogEntry(line) {
  const match = /^\[(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})\] http: POST \/api\/speech\/callback \((\d+) ms\) (\d{3})/.exec(
    line.replace(ANSI_COLOUR, '')
  );
  return match ? { at: Date.parse(`${match[1]}T${match[2]}Z`), ms: Number(match[3]), status: Number(match[4]) } : null;
}

export async function drain({ url, token, emulator, callbackLog }) {
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
      const current = await statusesOf(
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
  const p50max = (values) => (values.length ? stats(values, 'p50', 'max') : null);
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
