/**
 * The insights bench's listeners: a timetable of player events (deterministic, from a seeded
 * generator) and the ledger of what the server said it counted.
 *
 * The timetable has one event every 1/rate s. Each slot goes to the listening whose next event has
 * waited longest, or, when none is due, to a new listening: a listener (one of `listeners` browser
 * user agents, `... Safari/537.36 L<n>`) and an article (more popular first: weight 1/(rank+1)^0.8).
 * A listening is play, progress 10 ... 90 and end, 200-400 ms apart (load.mjs sends a listener's
 * events on one connection, in order); one in ten pauses once on the way, one in five leaves early (a pause,
 * after a random milestone). So a few hundred listenings are under way at any moment, interleaved.
 *
 * Nothing is sent that the server could count only in part, so an event answered `counted` counted
 * all it carried: a listener and article pair plays at most 20 times in the run (the tally's daily
 * cap, tally.ts), never two listenings of a pair at once (a milestone counts once per play), and a
 * listening's seconds heard stay under the narration's length (the most a play may add is its
 * length + 5 s). `listening % instances` says which instance gets all of a listening's events: a
 * listener's listenings alternate between instances, and so do an article's.
 */
import { generator as seededRandom } from '../usage/ledger-rows.mjs';

export const PLAYS_PER_PAIR = 20;
const MILESTONES = [10, 20, 30, 40, 50, 60, 70, 80, 90];
const GAP_MS = [200, 400];
export const userAgentOf = (listener) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 L${listener}`;

/** The events of one listening, each with the deciseconds it says were heard since the one before. */
function listeningEvents(random, articleId, stepDs) {
  const heard = () => 1 + Math.floor(random() * stepDs);
  const leaveAfter = random() < 0.2 ? Math.floor(random() * MILESTONES.length) : null;
  const pauseAfter = random() < 0.1 ? Math.floor(random() * MILESTONES.length) : null;
  const events = [{ articleId, event: 'play', ds: 0 }];
  for (const [index, percent] of MILESTONES.entries()) {
    events.push({ articleId, event: 'progress', percent, ds: heard() });
    if (index === leaveAfter) return [...events, { articleId, event: 'pause', ds: heard() }];
    if (index === pauseAfter) events.push({ articleId, event: 'pause', ds: heard() });
  }
  return [...events, { articleId, event: 'end', ds: heard() }];
}

/**
 * `count` events at `rate` a second: [{ slot, atMs, instance, listener, listening, articleId, event,
 * percent?, ds }] in order of slot. `articles`: [{ articleId, durationSeconds }].
 */
export function timetable({ count, rate, articles, listeners, instances = 1, seed = 25 }) {
  const random = seededRandom(seed);
  const weights = articles.map((_, rank) => 1 / (rank + 1) ** 0.8);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const pickArticle = () => {
    let r = random() * weightSum;
    for (const [index, weight] of weights.entries()) if ((r -= weight) < 0) return index;
    return articles.length - 1;
  };
  // A step of seconds heard: 11 steps (10 milestones and a pause) at most fit in the narration.
  const steps = articles.map((a) => Math.max(1, Math.floor(Math.floor(a.durationSeconds * 10) / 12)));
  const plays = new Map();
  const busy = new Set();
  const due = new Map();
  const ready = [];
  const events = [];
  let listenings = 0;
  const start = () => {
    for (;;) {
      const listener = Math.floor(random() * listeners);
      const article = pickArticle();
      const pair = `${listener}:${article}`;
      if (busy.has(pair) || (plays.get(pair) ?? 0) >= PLAYS_PER_PAIR) continue;
      busy.add(pair);
      plays.set(pair, (plays.get(pair) ?? 0) + 1);
      const id = listenings++;
      return { id, pair, listener, instance: id % instances, events: listeningEvents(random, articles[article].articleId, steps[article]) };
    }
  };
  const slotsPerMs = rate / 1000;
  for (let slot = 0; slot < count; slot += 1) {
    ready.push(...(due.get(slot) ?? []));
    due.delete(slot);
    const listening = ready.shift() ?? start();
    const event = listening.events.shift();
    events.push({
      slot,
      atMs: slot / slotsPerMs,
      instance: listening.instance,
      listener: listening.listener,
      listening: listening.id,
      ...event,
    });
    if (listening.events.length === 0) {
      busy.delete(listening.pair);
      continue;
    }
    const gap = GAP_MS[0] + random() * (GAP_MS[1] - GAP_MS[0]);
    const next = slot + Math.ceil(gap * slotsPerMs);
    due.set(next, [...(due.get(next) ?? []), listening]);
  }
  return { events, listenings, pairs: plays.size };
}

/** The body the player would send for a timetable event. */
export function bodyOf(event) {
  return JSON.stringify({
    articleId: event.articleId,
    event: event.event,
    ...(event.percent === undefined ? {} : { percent: event.percent }),
    heard: event.ds / 10,
  });
}

/**
 * What the server said it counted, per article: plays, listeners (distinct listener-article pairs
 * with a counted play), each milestone (10 ... 100) and deciseconds heard; and the answers by kind.
 */
export function countedLedger() {
  const articles = new Map();
  const answers = {};
  const of = (articleId) => {
    let totals = articles.get(articleId);
    if (!totals) {
      totals = { plays: 0, listeners: new Set(), reached: Array(10).fill(0), deciseconds: 0, instances: new Map() };
      articles.set(articleId, totals);
    }
    return totals;
  };
  return {
    answer(event, outcome) {
      answers[outcome] = (answers[outcome] ?? 0) + 1;
      if (outcome !== 'counted') return;
      const totals = of(event.articleId);
      if (event.event === 'play') {
        totals.plays += 1;
        totals.listeners.add(event.listener);
        const seen = totals.instances.get(event.listener) ?? new Set();
        totals.instances.set(event.listener, seen.add(event.instance));
      }
      if (event.event === 'progress') totals.reached[event.percent / 10 - 1] += 1;
      if (event.event === 'end') totals.reached[9] += 1;
      totals.deciseconds += event.ds;
    },
    answers,
    /** Per article: { plays, listeners, reached, deciseconds, onBoth: listeners counted by more than one instance }. */
    totals() {
      return new Map(
        [...articles].map(([articleId, t]) => [
          articleId,
          {
            plays: t.plays,
            listeners: t.listeners.size,
            reached: t.reached,
            deciseconds: t.deciseconds,
            onBoth: [...t.instances.values()].filter((seen) => seen.size > 1).length,
          },
        ])
      );
    },
  };
}

/** The sum of per-article totals ({ plays, listeners, reached, deciseconds }). */
export function sumOf(perArticle) {
  const sum = { plays: 0, listeners: 0, reached: Array(10).fill(0), deciseconds: 0 };
  for (const t of perArticle.values()) {
    sum.plays += t.plays;
    sum.listeners += t.listeners;
    sum.deciseconds += t.deciseconds;
    t.reached.forEach((n, i) => (sum.reached[i] += n));
  }
  return sum;
}
