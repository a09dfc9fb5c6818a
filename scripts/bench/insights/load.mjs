/**
 * The insights bench's load: a timetable's events sent open-loop to the events route. Each event
 * leaves at its slot's time whatever the answers before it (a timer every millisecond sends all
 * that are due), over `connections` keep-alive connections per instance (undici Clients, one
 * request at a time each); a listener's events always take the same one, so they reach Strapi in
 * the order they were sent, as a browser's beacons on its connection. Each connection leaves from
 * an address of its own in 127.0.0.0/8 (all of it this machine): a network of its own to the
 * plugin, whose caps (10 listeners and 40 plays of a narration a day) and rate (600 events a
 * minute) are per network, as a site's listeners come from many. An event's latency runs
 * from the time it was due to the end of its answer, so time spent queued (in the bench, behind
 * its connection's previous request, or in Strapi) counts. Meanwhile the CPU (/proc ticks) and the
 * RSS of each Strapi process are read.
 */
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { memoryOf } from '../../bench-support.mjs';
import { stats } from '../figures.mjs';
import { CLK_TCK, cpuTicks } from '../process-cpu.mjs';
import { bodyOf, userAgentOf } from './listenings.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('undici');

export const EVENTS_PATH = '/api/speech/insights/events';

/** The loopback address connection `index` leaves from (127.0.10.1 on), one network each. */
export const networkAddress = (index) => `127.0.${10 + Math.floor(index / 250)}.${1 + (index % 250)}`;

/** A player event as the events route takes it. */
const eventRequest = (event) => ({
  path: EVENTS_PATH,
  method: 'POST',
  headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': userAgentOf(event.listener) },
  body: bodyOf(event),
});

/** Strapi's own health check, `GET /_health` (204): the same middlewares, no route handler of the plugin. */
export const healthRequest = (event) => ({ path: '/_health', method: 'GET', headers: { 'user-agent': userAgentOf(event.listener) } });

/**
 * Sends `events` (a timetable's) to `instances` ([{ url, pid }]); `ledger.answer(event, outcome)`
 * hears each answer's Speech-Insights header. Latency figures are of the events from `measuredFrom`
 * (a slot) on; the CPU and RSS of the same window. `requestOf(event)`: what is sent for an event
 * (the event itself by default; healthRequest for Strapi's floor).
 */
export async function sendOpenLoop({
  events,
  rate,
  instances,
  ledger,
  measuredFrom = 0,
  connections = 512,
  onWindowStart = () => undefined,
  requestOf = eventRequest,
}) {
  const clients = instances.map(({ url }) =>
    Array.from(
      { length: connections },
      (_, index) => new Client(url, { pipelining: 1, keepAliveTimeout: 60_000, localAddress: networkAddress(index) })
    )
  );
  const latencies = [];
  /** [due time (ms since the epoch), latency], of the measured events. */
  const timeline = [];
  const lags = [];
  const errors = new Map();
  const failed = (what) => errors.set(what, (errors.get(what) ?? 0) + 1);
  let answered = 0;
  let lastAnswer = 0;
  const cpu = instances.map(() => null);
  const rss = instances.map(() => ({ first: 0, peak: 0, last: 0 }));
  const readRss = () =>
    instances.forEach(({ pid }, i) => {
      const now = memoryOf(pid).rss;
      rss[i].first ||= now;
      rss[i].peak = Math.max(rss[i].peak, now);
      rss[i].last = now;
    });
  const sampler = setInterval(readRss, 100);
  const windowStart = { ticks: null, at: 0 };

  const send = (event, due) => {
    const sent = performance.now();
    if (event.slot >= measuredFrom) lags.push(sent - due);
    return clients[event.instance][event.listener % connections]
      .request(requestOf(event))
      .then(async ({ statusCode, headers, body }) => {
        await body.dump();
        const done = performance.now();
        answered += 1;
        lastAnswer = done;
        if (event.slot >= measuredFrom) {
          latencies.push(done - due);
          timeline.push([performance.timeOrigin + due, done - due]);
        }
        if (statusCode !== 204) {
          failed(`HTTP ${statusCode}`);
          ledger.answer(event, `HTTP ${statusCode}`);
          return;
        }
        ledger.answer(event, String(headers['speech-insights']));
      })
      .catch((error) => {
        failed(error.code ?? error.message);
        ledger.answer(event, 'error');
      });
  };

  const inFlight = [];
  const t0 = performance.now() + 50;
  const msPerSlot = 1000 / rate;
  let next = 0;
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < events.length && t0 + events[next].slot * msPerSlot <= now) {
        const event = events[next];
        if (event.slot === measuredFrom) {
          windowStart.at = now;
          windowStart.ticks = instances.map(({ pid }) => cpuTicks(pid));
          readRss();
          onWindowStart();
        }
        inFlight.push(send(event, t0 + event.slot * msPerSlot));
        next += 1;
      }
      if (next < events.length) setTimeout(tick, 1);
      else resolve();
    };
    setTimeout(tick, Math.max(0, t0 - performance.now()));
  });
  const lastDue = t0 + events[events.length - 1].slot * msPerSlot;
  const sentSpan = performance.now() - t0;
  await Promise.all(inFlight);
  readRss();
  clearInterval(sampler);
  const windowSeconds = (performance.now() - windowStart.at) / 1000;
  instances.forEach(({ pid }, i) => {
    cpu[i] = ((cpuTicks(pid) - windowStart.ticks[i]) / CLK_TCK / windowSeconds) * 100;
  });
  await Promise.all(clients.flat().map((client) => client.close()));
  const measured = events.length - measuredFrom;
  return {
    events: events.length,
    measured,
    /** Events sent per second over the span of sending them; answers per second from the first due to the last answer. */
    sentRate: events.length / (sentSpan / 1000),
    answeredRate: answered / ((lastAnswer - t0) / 1000),
    lastAnswerAfterLastDueMs: lastAnswer - lastDue,
    latency: stats(latencies, 'p50', 'p95', 'p99', 'max', 'n'),
    timeline,
    sendLag: stats(lags, 'p50', 'p99', 'max'),
    errors: Object.fromEntries(errors),
    errorCount: [...errors.values()].reduce((a, b) => a + b, 0),
    cpuPercent: cpu,
    rss,
  };
}

/**
 * Strapi's own time for the events route, from its request log (strapi::logger, the first
 * middleware: `POST /api/speech/insights/events (N ms) 204`, whole milliseconds): what the
 * middlewares and the handler took, without the time a request waited before Strapi read it.
 * With `--stall-probe` (stall-probe.cjs), also the event loop's stalls in the same window.
 * `onLine` goes to startPlayground; lines of one path count between `start()` and `stop()`.
 */
export function requestLog() {
  let times = null;
  let stalls = null;
  let counted = EVENTS_PATH;
  return {
    onLine(line) {
      if (!times) return;
      if (line.startsWith('{"event":"event-loop-stall"')) {
        stalls.push(JSON.parse(line));
        return;
      }
      if (!line.includes(` ${counted} `)) return;
      const match = / \((\d+) ms\) /.exec(line);
      if (match) times.push(Number(match[1]));
    },
    /** Counts the lines of `path` from now. */
    start(path = EVENTS_PATH) {
      counted = path;
      times = [];
      stalls = [];
    },
    stop() {
      const kept = times ?? [];
      const seen = stalls ?? [];
      times = null;
      stalls = null;
      return { ...stats(kept, 'p50', 'p99', 'max', 'n'), stalls: seen };
    },
  };
}

/** The stalls a probe saw (stall-probe.cjs), in a few words: how many, how long in all, the longest and where its time went. */
export function describeStalls(stalls) {
  if (!stalls.length) return 'no event-loop stall over 40 ms';
  const total = stalls.reduce((sum, stall) => sum + stall.gapMs, 0);
  const longest = stalls.reduce((a, b) => (b.gapMs > a.gapMs ? b : a));
  return (
    `${stalls.length} event-loop stalls over 40 ms, ${total} ms in all; the longest ${longest.gapMs} ms ` +
    `(process CPU ${longest.cpuMs} ms, main thread ran ${longest.ranMs} ms, waited for a core ${longest.waitedMs} ms)`
  );
}

/**
 * The latency of the events due within `afterMs` of a flush (`flushes`: times in seconds since
 * the epoch) and of the others: what a flush costs the requests that arrive while it runs.
 */
export function latencyAroundFlushes(timeline, flushes, afterMs = 1000) {
  const near = [];
  const others = [];
  for (const [due, latency] of timeline) {
    const during = flushes.some((at) => due >= at * 1000 - 50 && due < at * 1000 + afterMs);
    (during ? near : others).push(latency);
  }
  return { afterMs, near: stats(near, 'p50', 'p99', 'max', 'n'), others: stats(others, 'p50', 'p99', 'max', 'n') };
}
