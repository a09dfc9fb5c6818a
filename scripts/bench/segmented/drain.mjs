/**
 * Step 3 of the segmented bench: do long articles hold up short ones? The article type is
 * segmented at --long-segment (1,000) characters a part; the emulator waits --drain-generation-ms
 * (1,000) per generation, then synthesizes one sentence. Drains of fresh drafts published in one
 * Content Manager bulk publish: the --short (30) short articles (a title, a summary and one
 * paragraph of 200 to 900 characters: one part, or two when the paragraph starts a part of its own,
 * as a paragraph of half the part size or more always does) alone; and --long (3) long articles
 * (--long-characters, 13,000: 20 parts or more each) with 30 other short ones, the long ones first
 * in the bulk publish. --drain-rounds (2) of each, alternated (alone, with, with, alone), so a drift
 * of the machine weighs on both alike; the waits of each kind are pooled.
 *
 * A short article's wait: from sending the bulk publish to the emulator receiving the request that
 * it accepted for the article's first part (its request log). Generations in flight, from the
 * emulator's logs: each accepted request counts from its arrival to the start of the first POST of
 * its callback (the plugin cannot have freed the slot before then: a sure count, checked against
 * maxInFlight), and to the end of that POST (an upper bound: the plugin may submit the next one
 * while the emulator is still reading the callback's answer).
 */
import { contentManager, narrationStatuses, waitFor } from '../../bench-support.mjs';
import { quantile } from '../figures.mjs';
import { blocks, emulatorControl, narrateArticlesIn, narrationOf, ofArticle } from './plugin.mjs';
import { DRAIN_GENERATION_MS, DRAIN_ROUNDS, LONG, LONG_CHARACTERS, LONG_SEGMENT, SHORT, SLOTS, TARGETS, UID, say } from './settings.mjs';

/** Most intervals open at once; an interval ending at the instant another starts does not overlap it. */
function mostAtOnce(intervals) {
  const edges = intervals.flatMap(([start, end]) => [
    [start, 1],
    [end, -1],
  ]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let most = 0;
  for (const [, step] of edges) most = Math.max(most, (open += step));
  return most;
}

async function drain(label, { server, emulator, fixtures, long, seed }) {
  const cm = contentManager(server.url, server.token, UID);
  const random = fixtures.seededRandom(seed);
  const longDrafts = [];
  for (let n = 0; n < long; n += 1) {
    const paragraphs = fixtures.article(seed * 100 + n, 'en', LONG_CHARACTERS);
    longDrafts.push(await cm.create({ title: `Bench long read ${label} ${n}`, summary: 'A long read.', body: blocks(paragraphs) }));
  }
  const shortDrafts = [];
  for (let n = 0; n < SHORT; n += 1) {
    const body = blocks([fixtures.paragraph(random, 'en')]);
    shortDrafts.push(await cm.create({ title: `Bench short ${label} ${n}`, summary: 'News in brief.', body }));
  }
  const documentIds = [...longDrafts, ...shortDrafts].map((draft) => draft.documentId);
  const afterId = await emulator.lastRequestId();

  const started = Date.now();
  await cm.bulkPublish(documentIds);
  const answered = Date.now();
  await waitFor(
    async () => {
      const rows = await narrationStatuses(server, UID, documentIds);
      const failed = rows.find((row) => row.status === 'failed' || row.status === 'cancelled');
      if (failed) throw new Error(`narration of ${failed.documentId} ${failed.status}: ${failed.lastError}`);
      return rows.length === documentIds.length && rows.every((row) => row.status === 'completed');
    },
    { timeoutMs: 600_000, intervalMs: 250, what: `${documentIds.length} narrations to complete (${label})` }
  );
  const drainedMs = Date.now() - started;

  const accepted = (await emulator.submissions(afterId)).filter((request) => request.status === 202);
  const submittedAt = (documentId) => {
    const request = accepted.find((r) => ofArticle(`${documentId}-en`)(r.body?.postData?.articleId));
    if (!request) throw new Error(`no accepted submission for ${documentId}`);
    return Date.parse(request.at);
  };
  const waits = shortDrafts.map((draft) => submittedAt(draft.documentId) - started);
  // What the machine's load does not move: how many generations the emulator accepted before each
  // short article's first part (its place in the queue), and the pace, the median time between two acceptances.
  const acceptedAt = accepted.map((request) => Date.parse(request.at)).sort((a, b) => a - b);
  const places = shortDrafts.map((draft) => acceptedAt.filter((at) => at < submittedAt(draft.documentId)).length);
  const paceMs = quantile(
    acceptedAt.slice(1).map((at, i) => at - acceptedAt[i]),
    0.5
  );
  // The order the emulator accepted parts in, run-length encoded: "3L 0.4-0.5 s, 30S 1.9-16.8 s" is three of the long articles'
  // parts accepted from 0.4 to 0.5 s after the bulk publish was sent, then 30 of the short ones'.
  const longIds = new Set(longDrafts.map((draft) => `${draft.documentId}-en`));
  const order = [];
  for (const request of accepted) {
    const kind = longIds.has(request.body.postData.articleId.split('~')[0]) ? 'L' : 'S';
    const at = ((Date.parse(request.at) - started) / 1000).toFixed(1);
    if (order.at(-1)?.kind === kind) Object.assign(order.at(-1), { count: order.at(-1).count + 1, last: at });
    else order.push({ kind, count: 1, first: at, last: at });
  }
  // How many parts each short article was cut into (its title and summary, and its paragraph, may be two).
  const shortParts = {};
  for (const draft of shortDrafts) {
    const count = accepted.filter((r) => ofArticle(`${draft.documentId}-en`)(r.body.postData.articleId)).length;
    shortParts[count] = (shortParts[count] ?? 0) + 1;
  }
  const longParts = [];
  for (const draft of longDrafts) longParts.push((await narrationOf(server, draft.documentId)).parts?.total ?? null);

  // Generations in flight, from the emulator's own logs (see the top of this file).
  const deliveries = new Map();
  for (const callback of await emulator.callbacks()) {
    if (!deliveries.has(callback.articleId) && callback.attempts.length) deliveries.set(callback.articleId, callback);
  }
  const sure = [];
  const upper = [];
  for (const request of accepted) {
    const delivery = deliveries.get(request.body.postData.articleId);
    if (!delivery) throw new Error(`no callback for ${request.body.postData.articleId}`);
    const first = delivery.attempts[0];
    sure.push([Date.parse(request.at), Date.parse(first.at)]);
    upper.push([Date.parse(request.at), Date.parse(first.at) + first.durationMs]);
  }
  const result = {
    label,
    long,
    longParts,
    short: SHORT,
    generations: accepted.length,
    bulkPublishMs: answered - started,
    drainedMs,
    waitMs: { p50: quantile(waits, 0.5), p95: quantile(waits, 0.95), max: Math.max(...waits) },
    inFlight: { sure: mostAtOnce(sure), upper: mostAtOnce(upper) },
    waits,
    places,
    placeP50: quantile(places, 0.5),
    paceMs,
    shortParts,
    order: order.map(({ kind, count, first, last }) => `${count}${kind} ${first}-${last} s`).join(', '),
  };
  say(
    `drain, ${label}: ${accepted.length} generations in ${(drainedMs / 1000).toFixed(1)} s (bulk publish answered in ${result.bulkPublishMs} ms)` +
      `${long ? `, long articles of ${longParts.join(', ')} parts` : ''}; short articles' wait (publish -> submission) p50 ${result.waitMs.p50} ms (after ${result.placeP50} generations, one accepted every ${paceMs} ms), ` +
      `p95 ${result.waitMs.p95} ms, max ${result.waitMs.max} ms; at most ${result.inFlight.sure} generations in flight (${result.inFlight.upper} counting to the callbacks' answers); ` +
      `short articles by parts ${JSON.stringify(shortParts)}; order accepted: ${result.order}`
  );
  return result;
}

export async function drainWithLongArticles({ server, emulatorUrl, fixtures }) {
  const emulator = emulatorControl(emulatorUrl);
  await emulator.configure({ generationDelayMs: DRAIN_GENERATION_MS });
  await narrateArticlesIn(server, 'segmented', LONG_SEGMENT);
  // Alone, with long ones, with long ones, alone, ...: a drift of the machine over the run weighs on both kinds alike.
  const drains = { alone: [], mixed: [] };
  for (let round = 0; round < DRAIN_ROUNDS; round += 1) {
    for (const kind of round % 2 === 0 ? ['alone', 'mixed'] : ['mixed', 'alone']) {
      const long = kind === 'alone' ? 0 : LONG;
      const label = kind === 'alone' ? `${SHORT} short alone` : `${LONG} long + ${SHORT} short`;
      drains[kind].push(await drain(label, { server, emulator, fixtures, long, seed: 10 + drains.alone.length + drains.mixed.length }));
    }
  }
  const pooled = (kind) => {
    const waits = drains[kind].flatMap((d) => d.waits);
    const places = drains[kind].flatMap((d) => d.places);
    const paces = drains[kind].map((d) => d.paceMs);
    return {
      p50: quantile(waits, 0.5),
      p95: quantile(waits, 0.95),
      max: Math.max(...waits),
      n: waits.length,
      placeP50: quantile(places, 0.5),
      paceMs: quantile(paces, 0.5),
    };
  };
  const alone = pooled('alone');
  const mixed = pooled('mixed');
  const ratio = mixed.p50 / alone.p50;
  const mostInFlight = Math.max(...[...drains.alone, ...drains.mixed].map((d) => d.inFlight.sure));
  const result = {
    drains: [...drains.alone, ...drains.mixed],
    alone,
    mixed,
    ratio,
    mostInFlight,
    ok: ratio <= TARGETS.drainRatio && mostInFlight <= SLOTS && drains.mixed.every((d) => d.longParts.every((parts) => parts >= 20)),
  };
  say(
    `drain: short articles' p50 wait ${mixed.p50} ms with ${LONG} long articles against ${alone.p50} ms alone (${DRAIN_ROUNDS} drains of each, ${alone.n} waits pooled): ` +
      `x${ratio.toFixed(2)} (target <= ${TARGETS.drainRatio}); generations accepted before a short article's first part, p50 ${mixed.placeP50} against ${alone.placeP50} ` +
      `(x${(mixed.placeP50 / alone.placeP50).toFixed(2)}); at most ${mostInFlight} generations in flight (maxInFlight ${SLOTS})`
  );
  return result;
}
