import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { blocks, contentManager, createAdmin, outsideTurnOf, setArticleRolePermissions, startStack, waitFor, type Stack } from './harness';
import { publicNarration, sleep, waitForStatus } from './narration-helpers';

/**
 * Listening insights on a real Strapi (SQLite): the player's events through the public route, the
 * feeds' enclosures counted by the IAB rules a redirecting server can apply, what is stored (daily
 * totals and salted hashes, never an address or a user agent), the refusals, the caps a forging
 * client meets, a graceful stop, the turn of the day, and who reads what.
 */

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const OTHER_BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const PODCAST_APP = 'AppleCoreMedia/1.0.0.21H16 (iPhone; U; CPU OS 17_7 like Mac OS X; en_us)';
const MILESTONES = [10, 20, 30, 40, 50, 60, 70, 80, 90];
jest.setTimeout(300_000);

let stack: Stack;
let english: string;
let arabic: string;
let unpublished: string;
let draft: string;
let page: string;
let duration: number;

async function send(event: unknown, userAgent = BROWSER, init: RequestInit = {}) {
  return stack.request('/api/speech/insights/events', {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': userAgent },
    body: typeof event === 'string' ? event : JSON.stringify(event),
    ...init,
  });
}

/**
 * A request from another loopback address (the whole of 127.0.0.0/8 is this machine): another
 * network to the plugin. `chunks` are sent chunked, without a Content-Length.
 */
function requestFrom(
  localAddress: string,
  pathname: string,
  {
    method = 'GET',
    headers = {},
    body,
    chunks,
  }: { method?: string; headers?: Record<string, string>; body?: string; chunks?: string[] } = {}
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  const { hostname, port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path: pathname, method, headers, localAddress, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    request.on('error', reject);
    if (body !== undefined) request.end(body);
    else {
      for (const chunk of chunks ?? []) request.write(chunk);
      request.end();
    }
  });
}

/** A play event padded to about `bytes`, sent chunked in three pieces (no Content-Length). */
function chunkedEvent(localAddress: string, pathname: string, bytes: number, headers: Record<string, string> = {}) {
  const event = JSON.stringify({ articleId: `${english}-en`, event: 'play', heard: 0, pad: 'x'.repeat(bytes) });
  const third = Math.ceil(event.length / 3);
  return requestFrom(localAddress, pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': OTHER_BROWSER, ...headers },
    chunks: [event.slice(0, third), event.slice(third, 2 * third), event.slice(2 * third)],
  });
}

const eventFrom = (localAddress: string, event: unknown, userAgent: string) =>
  requestFrom(localAddress, '/api/speech/insights/events', {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': userAgent },
    body: JSON.stringify(event),
  });

/** Runs `task` for each index, `width` at a time. */
async function inParallel<T>(count: number, width: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    })
  );
  return results;
}

/** What the player sends for one listening to the end, each event with the seconds heard since the last. */
/** Today in UTC, the listening days' zone. */
const utcDay = () => new Date().toISOString().slice(0, 10);

async function listenThrough(articleId: string, userAgent = BROWSER) {
  // The player reports seconds to a tenth.
  const step = Math.round(duration) / 10;
  const statuses = [(await send({ articleId, event: 'play', heard: 0 }, userAgent)).status];
  for (const percent of MILESTONES) statuses.push((await send({ articleId, event: 'progress', percent, heard: step }, userAgent)).status);
  statuses.push((await send({ articleId, event: 'end', heard: step }, userAgent)).status);
  expect(statuses.every((status) => status === 204)).toBe(true);
}

async function documentInsights(documentId: string, locale: string, token = stack.adminToken) {
  const response = await fetch(
    `${stack.url}/speech/insights/document/${documentId}?contentType=${encodeURIComponent(ARTICLE)}&locale=${locale}&days=7`,
    { headers: { authorization: `Bearer ${token}` } }
  );
  return { status: response.status, body: (await response.json()) as any };
}

/** Waits until the flushed figures of a document satisfy `done`. */
async function insightsWhen(documentId: string, locale: string, done: (totals: any) => boolean, what: string) {
  return waitFor(
    async () => {
      const { body } = await documentInsights(documentId, locale);
      return done(body.totals) ? body : null;
    },
    { timeoutMs: 20_000, what }
  );
}

function database() {
  return new Database(path.join(stack.workDir, 'data.db'), { readonly: true });
}

function tableRows(table: string): Array<Record<string, unknown>> {
  const db = database();
  try {
    return db.prepare(`select * from ${table}`).all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}

const listeningRows = () => [
  ...tableRows('speech_listening_days'),
  ...tableRows('speech_listening_uniques'),
  ...tableRows('speech_listening_salts'),
];

beforeAll(async () => {
  stack = await startStack({ env: { SPEECH_INSIGHTS: JSON.stringify({ flushSeconds: 1 }) } });
  const articles = contentManager(stack, ARTICLE);
  english = (await articles.create({ title: 'Heard to the end', body: blocks('A sentence to listen to.', 'And another one.') }, 'en'))
    .documentId;
  await articles.publish(english, 'en');
  await waitForStatus(stack, ARTICLE, english, 'completed', 'en');

  arabic = (await articles.create({ title: 'placeholder', body: blocks('Placeholder.') }, 'en')).documentId;
  await articles.update(arabic, { title: 'مقال مسموع', body: blocks('جملة للاستماع.') }, 'ar');
  await articles.publish(arabic, 'ar');
  await waitForStatus(stack, ARTICLE, arabic, 'completed', 'ar');

  unpublished = (await articles.create({ title: 'Withdrawn', body: blocks('Published, then withdrawn.') }, 'en')).documentId;
  await articles.publish(unpublished, 'en');
  await waitForStatus(stack, ARTICLE, unpublished, 'completed', 'en');
  await articles.unpublish(unpublished, 'en');

  draft = (await articles.create({ title: 'Only a draft', body: blocks('Never published.') }, 'en')).documentId;
  // A narrated type the Public role may not read.
  page = (await contentManager(stack, PAGE).create({ title: 'Members only', content: 'A closed page.' })).documentId;
  await waitForStatus(stack, PAGE, page, 'completed');

  duration = Number((await publicNarration(stack, `${english}-en`)).body.durationSeconds);
  expect(duration).toBeGreaterThan(0);
});

afterAll(async () => {
  await stack?.stop();
});

describe("the player's events", () => {
  it('a listening to the end counts one play, one listener, every milestone and the seconds heard', async () => {
    const dayBefore = utcDay();
    await listenThrough(`${english}-en`);
    const dayAfter = utcDay();
    const insights = await insightsWhen(english, 'en', (totals) => totals.plays === 1 && totals.reached[9] === 1, 'one listening counted');
    expect(insights.totals).toEqual({
      plays: 1,
      listeners: 1,
      reached: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
      secondsHeard: expect.any(Number),
      downloads: 0,
    });
    expect(insights.totals.secondsHeard).toBeCloseTo(Math.round(duration), 5);
    expect(insights.days).toHaveLength(7);
    expect(insights.days.at(-1).day).toBe(utcDay());
    // Counted on the day it was heard, which a listening at midnight may leave behind.
    const heard = insights.days.filter((day: any) => day.plays > 0);
    expect(heard).toEqual([expect.objectContaining({ plays: 1, listeners: 1 })]);
    expect([dayBefore, dayAfter]).toContain(heard[0].day);
  });

  it('the same browser again is one more play and the same listener; another browser is another listener', async () => {
    await listenThrough(`${english}-en`);
    await insightsWhen(english, 'en', (totals) => totals.plays === 2, 'a second play');
    expect((await documentInsights(english, 'en')).body.totals).toMatchObject({ plays: 2, listeners: 1 });
    await send({ articleId: `${english}-en`, event: 'play', heard: 0 }, OTHER_BROWSER);
    const insights = await insightsWhen(english, 'en', (totals) => totals.plays === 3, 'a third play');
    expect(insights.totals).toMatchObject({ plays: 3, listeners: 2 });
    // Each milestone at most once per play counted: the third play reached none yet.
    expect(insights.totals.reached).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
  });

  it('an Arabic narration is counted under its own locale', async () => {
    await listenThrough(`${arabic}-ar`);
    const insights = await insightsWhen(arabic, 'ar', (totals) => totals.plays === 1, 'the Arabic listening');
    expect(insights).toMatchObject({ articleId: `${arabic}-ar`, totals: { plays: 1, listeners: 1 } });
    expect((await documentInsights(arabic, 'en')).body.totals.plays).toBe(0);
  });

  it('refuses events for an unpublished article, a draft, a closed type and an unknown article, and stores nothing', async () => {
    for (const articleId of [`${unpublished}-en`, `${draft}-en`, page, 'no-such-article-en']) {
      const response = await send({ articleId, event: 'play', heard: 0 });
      expect({ articleId, status: response.status }).toEqual({ articleId, status: 404 });
    }
    // A token that may not read articles is refused the English article the Public role may read.
    const before = (await documentInsights(english, 'en')).body.totals;
    const token = await stack.admin('POST', '/admin/api-tokens', {
      name: 'pages only, listening',
      type: 'custom',
      lifespan: null,
      permissions: ['api::page.page.find', 'api::page.page.findOne'],
    });
    const withToken = await send({ articleId: `${english}-en`, event: 'play', heard: 0 }, BROWSER, {
      headers: { 'content-type': 'text/plain', 'user-agent': BROWSER, authorization: `Bearer ${token.body.data.accessKey}` },
    });
    expect(withToken.status).toBe(404);
    await sleep(2_500);
    const stored = listeningRows().filter((row) =>
      [`${unpublished}-en`, `${draft}-en`, page, 'no-such-article-en'].includes(String(row.article_id))
    );
    expect(stored).toEqual([]);
    expect((await documentInsights(english, 'en')).body.totals).toEqual(before);
  });

  it('refuses malformed and oversized bodies with 400 and 413', async () => {
    const articleId = `${english}-en`;
    const refusals = [
      ['not json', 400],
      [{ articleId, event: 'progress', heard: 1 }, 400],
      [{ articleId, event: 'progress', percent: 15, heard: 1 }, 400],
      [{ articleId, event: 'play', percent: 10, heard: 1 }, 400],
      [{ articleId, event: 'seek', heard: 1 }, 400],
      [{ articleId, event: 'play', heard: -1 }, 400],
      [{ articleId, event: 'play', heard: 1, visitor: 'x' }, 400],
      [{ articleId, event: 'play', heard: 0, pad: 'x'.repeat(2_000) }, 413],
      ['x'.repeat(2 * 1024 * 1024), 413],
    ] as const;
    for (const [body, status] of refusals) {
      const response = await send(body);
      expect({ body: String(JSON.stringify(body)).slice(0, 60), status: response.status }).toEqual({
        body: String(JSON.stringify(body)).slice(0, 60),
        status,
      });
    }
    await sleep(2_000);
    expect((await documentInsights(english, 'en')).body.totals.plays).toBe(3);
  });

  it('counts nothing from a known bot or a request without a user agent', async () => {
    const before = (await documentInsights(english, 'en')).body.totals;
    const bot = await send(
      { articleId: `${english}-en`, event: 'play', heard: 0 },
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
    );
    expect(bot.status).toBe(204);
    expect(bot.headers.get('speech-insights')).toBe('automated');
    const anonymous = await send({ articleId: `${english}-en`, event: 'play', heard: 0 }, '');
    expect(anonymous.headers.get('speech-insights')).toBe('automated');
    await sleep(2_500);
    expect((await documentInsights(english, 'en')).body.totals).toEqual(before);
  });

  it('10,000 forged events from one client move unique listeners by at most one', async () => {
    const before = (await documentInsights(english, 'en')).body.totals;
    const forger = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Forger';
    const events = Array.from({ length: 10_000 }, (_, index) => {
      const kind = index % 4;
      if (kind === 0) return { articleId: `${english}-en`, event: 'play', heard: 0 };
      if (kind === 1) return { articleId: `${english}-en`, event: 'end', heard: 3600 };
      return { articleId: `${english}-en`, event: 'progress', percent: MILESTONES[index % 9], heard: 3600 };
    });
    // From a network of its own: past its rate (600 a minute), the rest are refused with 429.
    const statuses = await inParallel(events.length, 32, async (index) => (await eventFrom('127.0.0.2', events[index], forger)).status);
    expect(statuses.every((status) => status === 204 || status === 429)).toBe(true);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    await sleep(2_500);
    const after = (await documentInsights(english, 'en')).body.totals;
    expect(after.listeners - before.listeners).toBeLessThanOrEqual(1);
    // At most 20 plays a listener a day, each milestone at most once a play, seconds at most the length a play.
    expect(after.plays - before.plays).toBeLessThanOrEqual(20);
    after.reached.forEach((count: number, index: number) =>
      expect(count - before.reached[index]).toBeLessThanOrEqual(after.plays - before.plays)
    );
    expect(after.secondsHeard - before.secondsHeard).toBeLessThanOrEqual((after.plays - before.plays) * (duration + 6));
  });
});

describe('one network rotating its user agent', () => {
  /** The rows that are not a listener's hash: a day's totals and its salt, as `table day`. */
  const dayRows = () => [
    ...tableRows('speech_listening_days').map((row) => `days ${row.article_id} ${row.day}`),
    ...tableRows('speech_listening_salts').map((row) => `salts ${row.day}`),
  ];

  it('1,000 events with 1,000 agents from one network count at most 10 listeners and 40 plays, and add a bounded number of rows', async () => {
    await outsideTurnOf('day', 30_000);
    const articleId = `${english}-en`;
    const before = (await documentInsights(english, 'en')).body.totals;
    const hashesBefore = tableRows('speech_listening_uniques').length;
    const dayRowsBefore = dayRows();
    const answers = await inParallel(1_000, 16, async (index) =>
      eventFrom('127.0.0.3', { articleId, event: 'play', heard: 0 }, BROWSER.replace('131.0.0.0', `131.0.${index}.0`))
    );
    const outcomes = answers.map((answer) => (answer.status === 204 ? answer.headers['speech-insights'] : answer.status));
    expect(outcomes.filter((outcome) => outcome === 'counted')).toHaveLength(10);
    expect(outcomes.every((outcome) => outcome === 'counted' || outcome === 'capped' || outcome === 429)).toBe(true);

    // Listeners on other networks, three agents each, are still counted exactly.
    for (let network = 0; network < 5; network += 1)
      for (let agent = 0; agent < 3; agent += 1) {
        const answer = await eventFrom(
          `127.0.1.${network + 1}`,
          { articleId, event: 'play', heard: 0 },
          BROWSER.replace('131.0.0.0', `130.0.${agent}.0`)
        );
        expect(answer.headers['speech-insights']).toBe('counted');
      }
    const after = await insightsWhen(english, 'en', (totals) => totals.plays >= before.plays + 25, 'the counted plays flushed');
    await sleep(2_000);
    const totals = (await documentInsights(english, 'en')).body.totals;
    expect(totals.plays - before.plays).toBe(10 + 15);
    expect(totals.listeners - before.listeners).toBe(10 + 15);
    expect(after.totals.plays).toBe(totals.plays);
    // One hash a counted listener, and at most the day's own row and salt (there already, unless the day just began).
    expect(tableRows('speech_listening_uniques').length - hashesBefore).toBe(10 + 15);
    const added = dayRows().filter((row) => !dayRowsBefore.includes(row));
    expect(added.every((row) => row.endsWith(` ${utcDay()}`))).toBe(true);
    expect(added.length).toBeLessThanOrEqual(2);
  });

  it('a chunked body over 1 KB is refused with 413 before it is read whole, and nothing is counted', async () => {
    const before = (await documentInsights(english, 'en')).body.totals;
    const event = JSON.stringify({ articleId: `${english}-en`, event: 'play', heard: 0, pad: 'x'.repeat(2_000) });
    const chunked = await requestFrom('127.0.0.4', '/api/speech/insights/events', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': OTHER_BROWSER },
      chunks: [event.slice(0, 700), event.slice(700, 1_400), event.slice(1_400)],
    });
    expect(chunked.status).toBe(413);
    // A chunked event within the limit is read and counted as any other.
    const small = await requestFrom('127.0.0.4', '/api/speech/insights/events', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': OTHER_BROWSER },
      chunks: ['{"articleId":', JSON.stringify(`${english}-en`), ',"event":"pause","heard":1}'],
    });
    expect(small.status).toBe(204);
    await sleep(2_500);
    expect((await documentInsights(english, 'en')).body.totals.plays).toBe(before.plays);
  });

  it('the same guard in every spelling the router routes: with a trailing slash or in upper case, a chunked 3 KB event is 413', async () => {
    const before = (await documentInsights(english, 'en')).body.totals;
    for (const pathname of ['/api/speech/insights/events/', '/API/Speech/Insights/Events']) {
      expect({ pathname, status: (await chunkedEvent('127.0.0.6', pathname, 3_000)).status }).toEqual({ pathname, status: 413 });
    }
    await sleep(2_500);
    expect((await documentInsights(english, 'en')).body.totals).toEqual(before);
  });
});

describe("the feeds' enclosures", () => {
  const enclosure = () => `/api/speech/feeds/articles/${arabic}-ar/audio.mp3`;
  const downloads = async () => (await documentInsights(arabic, 'ar')).body.totals.downloads as number;

  it('a HEAD request, a 0-1 range probe and a bot count nothing; the file is still served', async () => {
    const head = await stack.request(enclosure(), { method: 'HEAD', headers: { 'user-agent': PODCAST_APP }, redirect: 'manual' });
    expect(head.status).toBe(302);
    expect(head.headers.get('speech-insights')).toBe('probe');
    const probe = await stack.request(enclosure(), { headers: { 'user-agent': PODCAST_APP, range: 'bytes=0-1' } });
    expect(probe.status).toBe(206);
    expect(probe.redirected).toBe(true);
    expect(Buffer.from(await probe.arrayBuffer())).toHaveLength(2);
    const bot = await stack.request(enclosure(), { headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } });
    expect(bot.status).toBe(200);
    await sleep(2_500);
    expect(await downloads()).toBe(0);
  });

  it('two GETs from one app within the day count one download; another app another', async () => {
    for (const userAgent of [PODCAST_APP, PODCAST_APP, 'Spotify/8.9.86 iOS/17.7 (iPhone15,2)']) {
      const response = await stack.request(enclosure(), { headers: { 'user-agent': userAgent } });
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    await waitFor(async () => (await downloads()) === 2, { timeoutMs: 20_000, what: 'two downloads' });
    await sleep(2_000);
    expect(await downloads()).toBe(2);
    // Downloads are reported apart from the player's plays.
    expect((await documentInsights(arabic, 'ar')).body.totals.plays).toBe(1);
  });

  it('1,000 GETs with 1,000 agents from one network count at most 10 downloads; other networks count exactly', async () => {
    await outsideTurnOf('day', 30_000);
    const before = await downloads();
    const rowsBefore = listeningRows().length;
    const answers = await inParallel(1_000, 16, (index) =>
      requestFrom('127.0.0.5', enclosure(), { headers: { 'user-agent': PODCAST_APP.replace('1.0.0.21H16', `1.0.${index}.21H16`) } })
    );
    expect(answers.filter((answer) => answer.headers['speech-insights'] === 'counted')).toHaveLength(10);
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThan(0);
    for (let network = 0; network < 4; network += 1) {
      const answer = await requestFrom(`127.0.2.${network + 1}`, enclosure(), { headers: { 'user-agent': PODCAST_APP } });
      expect(answer.headers['speech-insights']).toBe('counted');
    }
    await waitFor(async () => (await downloads()) === before + 14, { timeoutMs: 20_000, what: 'fourteen downloads' });
    await sleep(2_000);
    expect(await downloads()).toBe(before + 14);
    expect(listeningRows().length - rowsBefore).toBe(14);
  });

  it('an enclosure path with a trailing slash is under the same rate: 301 HEADs from one network reach a 429', async () => {
    const answers = await inParallel(301, 16, () =>
      requestFrom('127.0.0.7', `${enclosure()}/`, { method: 'HEAD', headers: { 'user-agent': PODCAST_APP } })
    );
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThan(0);
    expect(answers.every((answer) => answer.status === 302 || answer.status === 429)).toBe(true);
  });

  it('answers 404 for an episode that is not in the feed', async () => {
    for (const pathname of [
      `/api/speech/feeds/articles/${unpublished}-en/audio.mp3`,
      `/api/speech/feeds/pages/${page}/audio.mp3`,
      `/api/speech/feeds/articles/no-such-article-en/audio.mp3`,
    ]) {
      expect({ pathname, status: (await stack.request(pathname, { headers: { 'user-agent': PODCAST_APP } })).status }).toEqual({
        pathname,
        status: 404,
      });
    }
    await sleep(2_500);
    expect(listeningRows().filter((row) => [`${unpublished}-en`, page, 'no-such-article-en'].includes(String(row.article_id)))).toEqual([]);
  });
});

describe('what is stored', () => {
  it('no row of the insights tables holds an IP address or a user agent', async () => {
    const rows = listeningRows();
    expect(rows.length).toBeGreaterThan(3);
    const text = JSON.stringify(rows);
    for (const forbidden of ['127.0.', '::1', '::ffff:', 'Mozilla', 'AppleCoreMedia', 'Spotify', 'Chrome', 'Forger', 'Googlebot']) {
      expect({ forbidden, found: text.includes(forbidden) }).toEqual({ forbidden, found: false });
    }
    const columns = new Set(rows.flatMap((row) => Object.keys(row)));
    expect([...columns].filter((column) => /ip|agent|address|user/i.test(column))).toEqual([]);
  });

  it('a graceful stop writes what was counted in memory', async () => {
    await stack.restartStrapi({ SPEECH_INSIGHTS: JSON.stringify({ flushSeconds: 300 }) });
    const before = (await documentInsights(arabic, 'ar')).body.totals.plays as number;
    await send({ articleId: `${arabic}-ar`, event: 'play', heard: 0 }, OTHER_BROWSER);
    await sleep(500);
    expect((await documentInsights(arabic, 'ar')).body.totals.plays).toBe(before);
    await stack.restartStrapi({ SPEECH_INSIGHTS: JSON.stringify({ flushSeconds: 1 }) }, 'SIGTERM');
    expect((await documentInsights(arabic, 'ar')).body.totals.plays).toBe(before + 1);
  });

  it("at the turn of the day the old salts and the day before yesterday's hashes are deleted, and totals past retention", async () => {
    const db = new Database(path.join(stack.workDir, 'data.db'));
    try {
      const now = new Date().toISOString();
      db.prepare('insert into speech_listening_salts (day, salt, created_at, updated_at) values (?, ?, ?, ?)').run(
        '2020-01-01',
        'old',
        now,
        now
      );
      db.prepare(
        'insert into speech_listening_uniques (day, kind, article_id, hash, created_at, updated_at) values (?, ?, ?, ?, ?, ?)'
      ).run('2020-01-01', 'listener', `${english}-en`, 'f'.repeat(32), now, now);
      db.prepare(
        'insert into speech_listening_days (day, article_id, target_locale, plays, listeners, downloads, created_at, updated_at) values (?, ?, ?, 1, 1, 0, ?, ?)'
      ).run('2020-01-01', `${english}-en`, 'en', now, now);
    } finally {
      db.close();
    }
    // A new process meets its first day: it tidies up at its first flush.
    await stack.restartStrapi();
    await send({ articleId: `${english}-en`, event: 'pause', heard: 1 });
    await waitFor(async () => !JSON.stringify(listeningRows()).includes('2020-01-01'), { timeoutMs: 20_000, what: 'the old rows deleted' });
    expect(tableRows('speech_listening_salts').map((row) => row.day)).toEqual([utcDay()]);
  });
});

describe('who reads what', () => {
  it('the document route needs the Content Manager read on it; the site view and CSV count only readable articles', async () => {
    const site = await stack.admin('GET', '/speech/insights?days=7');
    expect(site.status).toBe(200);
    expect(site.body.totals.plays).toBeGreaterThanOrEqual(4);
    expect(site.body.topArticles[0]).toMatchObject({ contentType: ARTICLE, documentId: english, locale: 'en', title: 'Heard to the end' });
    expect(site.body.byLocale.map((row: any) => row.locale).sort()).toEqual(['ar', 'en']);
    const csv = await stack.request('/speech/insights/listening.csv?days=7', { headers: { authorization: `Bearer ${stack.adminToken}` } });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0].split(',').slice(0, 8)).toEqual([
      'day',
      'contentType',
      'documentId',
      'locale',
      'title',
      'articleId',
      'plays',
      'listeners',
    ]);
    expect(lines.some((line) => line.includes(`${english}-en`) && line.includes('Heard to the end'))).toBe(true);

    const role = await stack.admin('POST', '/admin/roles', { name: 'Listening outsider', description: 'No content' });
    const outsider = await createAdmin(stack, 'listening-outsider@example.com', role.body.data.id);
    expect((await documentInsights(english, 'en', outsider.token)).status).toBe(403);
    const theirs = await outsider.call('GET', '/speech/insights?days=7');
    expect(theirs.status).toBe(200);
    expect(theirs.body.totals.plays).toBe(0);
    expect(theirs.body.topArticles).toEqual([]);
    const theirCsv = await stack.request('/speech/insights/listening.csv?days=7', {
      headers: { authorization: `Bearer ${outsider.token}` },
    });
    expect((await theirCsv.text()).trim().split('\r\n')).toHaveLength(1);

    // Read on English articles only: the Arabic one is not counted.
    const readerRole = await stack.admin('POST', '/admin/roles', { name: 'English reader', description: 'Reads English articles' });
    const grant = await stack.admin('PUT', `/admin/roles/${readerRole.body.data.id}/permissions`, {
      permissions: [
        {
          action: 'plugin::content-manager.explorer.read',
          subject: ARTICLE,
          properties: { fields: ['title', 'summary', 'body'], locales: ['en'] },
          conditions: [],
        },
      ],
    });
    expect(grant.status).toBe(200);
    const reader = await createAdmin(stack, 'listening-reader@example.com', readerRole.body.data.id);
    expect((await documentInsights(english, 'en', reader.token)).status).toBe(200);
    expect((await documentInsights(arabic, 'ar', reader.token)).status).toBe(403);
    const readable = (await reader.call('GET', '/speech/insights?days=7')).body;
    expect(readable.byLocale.map((row: any) => row.locale)).toEqual(['en']);
    expect(readable.totals.plays).toBe(site.body.byLocale.find((row: any) => row.locale === 'en').plays);
  });

  it("an Author reads the listening of its own articles only, never of another admin's", async () => {
    const role = await stack.admin('POST', '/admin/roles', { name: 'Listening author', description: 'Its own articles' });
    await setArticleRolePermissions(stack, role.body.data.id, ['admin::is-creator']);
    const author = await createAdmin(stack, 'listening-author@example.com', role.body.data.id);
    const created = await author.call('POST', `/content-manager/collection-types/${ARTICLE}?locale=en`, {
      title: 'Mine, heard',
      body: blocks('Written and published by the author.'),
    });
    expect([200, 201]).toContain(created.status);
    const own: string = created.body.data.documentId;
    const published = await author.call('POST', `/content-manager/collection-types/${ARTICLE}/${own}/actions/publish?locale=en`, {});
    expect(published.status).toBe(200);
    await waitForStatus(stack, ARTICLE, own, 'completed', 'en');
    await send({ articleId: `${own}-en`, event: 'play', heard: 0 }, OTHER_BROWSER);
    await insightsWhen(own, 'en', (totals) => totals.plays === 1, "the author's listening");

    expect((await documentInsights(own, 'en', author.token)).body.totals).toMatchObject({ plays: 1, listeners: 1 });
    expect((await documentInsights(english, 'en', author.token)).status).toBe(403);
    const theirs = (await author.call('GET', '/speech/insights?days=7')).body;
    expect(theirs.totals.plays).toBe(1);
    expect(theirs.topArticles.map((article: any) => article.documentId)).toEqual([own]);
    expect(theirs.days.at(-1)).toMatchObject({ plays: 1, listeners: 1 });
    const csv = await stack.request('/speech/insights/listening.csv?days=7', { headers: { authorization: `Bearer ${author.token}` } });
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${own}-en`);
  });

  it('refuses a bad range', async () => {
    expect((await stack.admin('GET', '/speech/insights?days=12')).status).toBe(400);
    expect((await stack.request('/speech/insights?days=7')).status).toBe(401);
  });
});

describe('behind a reverse proxy, under another REST prefix', () => {
  const PROXIED = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
  const proxiedPlay = (pathname: string, client: string) =>
    requestFrom('127.0.0.8', pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': PROXIED, 'x-forwarded-for': client },
      body: JSON.stringify({ articleId: `${english}-en`, event: 'play', heard: 0 }),
    });

  it('without server.proxy.koa, the forwarded address is not believed, and the log says how to set it', async () => {
    const before = (await documentInsights(english, 'en')).body.totals;
    for (const client of ['203.0.113.1', '203.0.113.2'])
      expect((await proxiedPlay('/api/speech/insights/events', client)).status).toBe(204);
    await insightsWhen(english, 'en', (totals) => totals.plays === before.plays + 2, 'two proxied plays');
    expect((await documentInsights(english, 'en')).body.totals.listeners).toBe(before.listeners + 1);
    expect(stack.logs()).toContain('Set `proxy: { koa: true }` in config/server.ts');
  });

  it('with server.proxy.koa, each client is its own listener; under /v2 the guard holds in every spelling', async () => {
    await stack.restartStrapi({ SERVER_PROXY_KOA: 'true', API_REST_PREFIX: '/v2' });
    const before = (await documentInsights(english, 'en')).body.totals;
    for (const client of ['203.0.113.3', '203.0.113.4']) expect((await proxiedPlay('/v2/speech/insights/events', client)).status).toBe(204);
    await insightsWhen(english, 'en', (totals) => totals.plays === before.plays + 2, 'two plays from two clients');
    expect((await documentInsights(english, 'en')).body.totals.listeners).toBe(before.listeners + 2);

    const counted = (await documentInsights(english, 'en')).body.totals;
    for (const pathname of ['/v2/speech/insights/events', '/v2/speech/insights/events/', '/V2/Speech/Insights/Events']) {
      expect({ pathname, status: (await chunkedEvent('127.0.0.9', pathname, 3_000)).status }).toEqual({ pathname, status: 413 });
    }
    // The plugin's public URLs follow the prefix: the narration's files, the feed and its enclosures.
    const narration = await (await stack.request(`/v2/speech/narrations/${english}-en`)).json();
    expect(narration.audioUrl).toBe(`${stack.url}/v2/speech/narrations/${english}-en/audio.mp3`);
    const feed = await (await stack.request('/v2/speech/feeds/articles.xml?locale=ar', { headers: { 'user-agent': PODCAST_APP } })).text();
    expect(feed).toContain(`${stack.url}/v2/speech/feeds/articles.xml`);
    expect(feed).toContain(`${stack.url}/v2/speech/feeds/articles/${arabic}-ar/audio.mp3`);
    expect(feed).not.toContain(`${stack.url}/api/`);
    // The old prefix routes nothing of the plugin's any more (Strapi answers 404 or 405).
    expect([404, 405]).toContain((await proxiedPlay('/api/speech/insights/events', '203.0.113.5')).status);
    await sleep(2_500);
    expect((await documentInsights(english, 'en')).body.totals).toEqual(counted);
  });
});
