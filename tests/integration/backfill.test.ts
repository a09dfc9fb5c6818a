import { blocks, contentManager, createAdmin, outsideTurnOf, startStack, waitFor, type Stack } from './harness';
import { postgres, type DatabaseServer } from './databases';
import { emulatorRequests, ledgerEntries } from './narration-helpers';

/**
 * Archive backfill on PostgreSQL: 300 published articles that no publish narrated, narrated newest
 * first through the normal queue. The queue never holds more than the backlog from it; the monthly
 * budget holds it and lets it go on when raised; a restart of Strapi in the middle resumes it; no
 * article is sent twice; and the service's ledger equals the plugin's.
 */

const ARTICLE = 'api::article.article';
const ARTICLES = 300;
const BACKLOG = 20;
jest.setTimeout(600_000);

let db: DatabaseServer;
let stack: Stack;
/** Published, oldest first. */
const published: string[] = [];
const narratedBefore: string[] = [];
/** The English archive's backfill, once started. */
let englishBackfill: number;

async function emulatorSpent(): Promise<number> {
  const { credits, startingCredits } = await stack.control<any>('GET', '/credits');
  return startingCredits - credits;
}

/** What the backfill has in the queue, as the database has it. */
function waitingInQueue(id: number): number {
  const out = db.sql(
    'speech_backfill',
    `SELECT count(*) FROM speech_narrations WHERE backfill = ${id} AND status NOT IN ('completed', 'failed', 'cancelled')`
  );
  return Number(out.trim().split('\n').pop());
}

const backfill = async (id: number) => (await stack.admin('GET', `/speech/backfills/${id}`)).body;

beforeAll(async () => {
  await outsideTurnOf('month', 10 * 60_000);
  db = await postgres.start();
  db.createDatabase('speech_backfill');
  stack = await startStack({
    env: {
      ...db.strapiEnv('speech_backfill'),
      SPEECH_BACKFILL: JSON.stringify({ backlog: BACKLOG, intervalMs: 300 }),
      SPEECH_INSIGHTS: JSON.stringify({ enabled: false }),
      // A result sent while Strapi restarts is lost; the queue asks again after this, not the default 15 minutes.
      SPEECH_CALLBACK_TIMEOUT_MS: '10000',
    },
  });
  // Fast, and past the default 60 requests a minute: this is about pace, not the service's limits.
  await stack.control('PUT', '/config', { generationDelayMs: 20, rateLimit: { requests: 100_000, windowSec: 60 } });
  // The archive: published while the type narrated nothing on its own.
  const settings = { titleField: 'title', textFields: ['summary', 'body'] };
  expect((await stack.admin('PUT', '/speech/settings', { contentTypes: { [ARTICLE]: { ...settings, trigger: 'off' } } })).status).toBe(200);
  const articles = contentManager(stack, ARTICLE);
  for (let start = 0; start < ARTICLES; start += 6) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(6, ARTICLES - start) }, async (_, offset) => {
        const n = start + offset;
        const { documentId } = await articles.create(
          {
            title: `Archive ${n}`,
            summary: `From the archive, number ${n}.`,
            body: blocks(`${'Words of the archive. '.repeat(1 + (n % 7))}${n}.`),
          },
          'en'
        );
        await articles.publish(documentId, 'en');
        return documentId;
      })
    );
    published.push(...batch);
  }
  // Two the editors narrated already: the backfill leaves them alone.
  for (const documentId of published.slice(-2)) {
    const answer = await stack.admin('POST', '/speech/narrations/narrate', { contentType: ARTICLE, documentId, locale: 'en' });
    expect(answer.body.queued).toBe(true);
    narratedBefore.push(documentId);
  }
  await waitFor(
    async () => (await emulatorRequests(stack)).length === 2 && (await stack.admin('GET', '/speech/queue')).body.counts.queued === 0,
    {
      what: 'the two narrated first',
    }
  );
}, 600_000);

afterAll(async () => {
  try {
    await stack?.stop();
  } finally {
    db?.stop();
  }
});

it('refuses what it cannot do, with a clear error, and starts nothing', async () => {
  expect((await stack.admin('POST', '/speech/backfills/estimate', { contentType: 'api::nothing.nothing', locale: 'en' })).status).toBe(400);
  expect((await stack.admin('POST', '/speech/backfills/estimate', { contentType: ARTICLE })).body.error.message).toMatch(/name the locale/);
  expect((await stack.admin('POST', '/speech/backfills/estimate', { contentType: ARTICLE, locale: 'xx' })).status).toBe(400);
  expect((await stack.admin('POST', '/speech/backfills', { contentType: ARTICLE, locale: 'en', extra: 1 })).status).toBe(400);
  expect((await stack.admin('GET', '/speech/backfills/999')).status).toBe(404);
  const readers = await stack.admin('POST', '/admin/roles', { name: 'Backfill readers', description: 'Settings only' });
  const grant = [{ action: 'plugin::speech.settings.read', subject: null, properties: {}, conditions: [] }];
  await stack.admin('PUT', `/admin/roles/${readers.body.data.id}/permissions`, { permissions: grant });
  const reader = await createAdmin(stack, 'backfill-reader@example.com', readers.body.data.id);
  expect((await reader.call('POST', '/speech/backfills', { contentType: ARTICLE, locale: 'en' })).status).toBe(403);
  expect((await reader.call('POST', '/speech/backfills/estimate', { contentType: ARTICLE, locale: 'en' })).status).toBe(403);
  expect((await stack.admin('GET', '/speech/backfills')).body.data).toEqual([]);
  expect((await emulatorRequests(stack)).length).toBe(2);
});

it('narrates the archive newest first, within the backlog and the budget, across a restart, each article once', async () => {
  const estimate = (await stack.admin('POST', '/speech/backfills/estimate', { contentType: ARTICLE, locale: 'en' })).body;
  expect(estimate).toMatchObject({ documents: ARTICLES - 2, extrapolated: false, pace: { backlog: BACKLOG } });
  expect(estimate.credits).toBeGreaterThan(ARTICLES - 2);
  expect(estimate.perDay.documents).toBeGreaterThan(0);
  expect(estimate.days).toBe(Math.ceil((ARTICLES - 2) / estimate.pace.perDay));

  // A budget with room for about a third of it.
  const spentBefore = await emulatorSpent();
  const third = Math.round(estimate.credits / 3);
  expect((await stack.admin('PUT', '/speech/settings', { budget: { monthlyCredits: spentBefore + third } })).status).toBe(200);

  const started = await stack.admin('POST', '/speech/backfills', { contentType: ARTICLE, locale: 'en' });
  expect(started.status).toBe(201);
  const { id } = started.body;
  englishBackfill = id;
  let mostWaiting = 0;
  const sample = () => (mostWaiting = Math.max(mostWaiting, waitingInQueue(id)));

  const held = await waitFor(
    async () => {
      sample();
      const view = await backfill(id);
      return view.status === 'held' && view.queued === 0 ? view : null;
    },
    { timeoutMs: 240_000, intervalMs: 100, what: 'the budget to hold the backfill' }
  );
  expect(held.done).toBeGreaterThan(0);
  expect(held.done).toBeLessThan(ARTICLES - 2);
  expect(await emulatorSpent()).toBeLessThanOrEqual(spentBefore + third);
  // Newest first: the first one the backfill sent is the newest article it had to narrate.
  const sent = (await emulatorRequests(stack)).slice(2).map((request) => request.body?.postData?.articleId as string | undefined);
  const newest = db
    .sql(
      'speech_backfill',
      `SELECT document_id FROM articles WHERE locale = 'en' AND published_at IS NOT NULL AND document_id NOT IN (${narratedBefore
        .map((documentId) => `'${documentId}'`)
        .join(', ')}) ORDER BY published_at DESC, document_id DESC LIMIT 1`
    )
    .trim()
    .split('\n')
    .pop();
  expect(sent[0]).toBe(`${newest}-en`);

  // The budget raised: it goes on; Strapi restarted in the middle: it resumes.
  expect((await stack.admin('PUT', '/speech/settings', { budget: { monthlyCredits: null } })).status).toBe(200);
  await waitFor(
    async () => {
      sample();
      return (await backfill(id)).done >= held.done + 40;
    },
    { timeoutMs: 240_000, intervalMs: 100, what: 'the backfill to go on' }
  );
  await stack.restartStrapi();
  const finished = await waitFor(
    async () => {
      sample();
      const view = await backfill(id);
      return view.status === 'done' ? view : null;
    },
    { timeoutMs: 400_000, intervalMs: 100, what: 'the backfill to finish' }
  );
  expect(mostWaiting).toBeGreaterThan(0);
  expect(mostWaiting).toBeLessThanOrEqual(BACKLOG);
  expect(finished).toMatchObject({ done: ARTICLES - 2, queued: 0, left: 0, failed: 0, total: ARTICLES - 2 });

  // Every article reached the service; a result lost in the restart is asked for again, free.
  const articleIds = (await emulatorRequests(stack)).map((request) => request.body?.postData?.articleId as string);
  expect(new Set(articleIds).size).toBe(ARTICLES);
  for (const documentId of published) expect(articleIds).toContain(`${documentId}-en`);

  // The service's ledger is the plugin's, and the backfill's credits are its entries'.
  const entries = await ledgerEntries(stack);
  // What was paid: a refunded entry's credits came back.
  const charged = (rows: typeof entries) => rows.reduce((sum, row) => sum + (row.outcome === 'refunded' ? 0 : Number(row.credits)), 0);
  expect(charged(entries)).toBe(await emulatorSpent());
  // Each paid at most once, the two narrated before not again. A result lost in the restart was
  // refunded by the service and delivered again free (spec 3.1): that article's net is then nothing.
  const ofBackfill = entries.filter((row) => row.cause === 'backfill');
  const byArticle = new Map<string, string[]>();
  for (const row of ofBackfill) byArticle.set(row.articleId, [...(byArticle.get(row.articleId) ?? []), row.outcome]);
  expect(byArticle.size).toBe(ARTICLES - 2);
  for (const outcomes of byArticle.values()) expect(outcomes.filter((outcome) => outcome === 'generated').length).toBeLessThanOrEqual(1);
  expect(ofBackfill.some((row) => narratedBefore.some((documentId) => row.articleId === `${documentId}-en`))).toBe(false);
  expect(finished.credits).toBe(charged(ofBackfill));

  const list = (await stack.admin('GET', '/speech/backfills')).body;
  expect(list.data.map((row: { id: number }) => row.id)).toEqual([id]);
  expect((await stack.admin('POST', `/speech/backfills/${id}/resume`, {})).status).toBe(409);
});

it('shows and steers a backfill only for who may read and narrate its whole type and locale', async () => {
  const grant = (action: string, locales: string[], conditions: string[] = []) => ({
    action: `plugin::content-manager.explorer.${action}`,
    subject: ARTICLE,
    properties: action === 'publish' ? { locales } : { fields: ['title', 'summary', 'body'], locales },
    conditions,
  });
  const plugin = ['plugin::speech.settings.read', 'plugin::speech.narrate'].map((action) => ({
    action,
    subject: null,
    properties: {},
    conditions: [],
  }));
  const makeAdmin = async (name: string, permissions: unknown[]) => {
    const role = await stack.admin('POST', '/admin/roles', { name, description: name });
    expect((await stack.admin('PUT', `/admin/roles/${role.body.data.id}/permissions`, { permissions })).status).toBe(200);
    return createAdmin(stack, `${name.replace(/\W+/g, '-').toLowerCase()}@example.com`, role.body.data.id);
  };
  const arabicDesk = await makeAdmin('Arabic backfill desk', [grant('read', ['ar']), grant('publish', ['ar']), ...plugin]);
  const creators = await makeAdmin('Backfill creators', [
    grant('read', ['en', 'ar'], ['admin::is-creator']),
    grant('publish', ['en', 'ar'], ['admin::is-creator']),
    ...plugin,
  ]);
  const reader = await makeAdmin('Backfill settings readers', plugin.slice(0, 1));
  const before = { sent: (await emulatorRequests(stack)).length, view: await backfill(englishBackfill) };

  // The Arabic desk neither sees nor steers the English backfill, nor starts one in English.
  expect((await arabicDesk.call('GET', '/speech/backfills')).body.data).toEqual([]);
  expect((await arabicDesk.call('GET', `/speech/backfills/${englishBackfill}`)).status).toBe(404);
  expect((await arabicDesk.call('POST', `/speech/backfills/${englishBackfill}/cancel`, {})).status).toBe(404);
  expect((await arabicDesk.call('POST', '/speech/backfills/estimate', { contentType: ARTICLE, locale: 'en' })).status).toBe(403);
  expect((await arabicDesk.call('POST', '/speech/backfills', { contentType: ARTICLE, locale: 'en' })).status).toBe(403);
  expect((await arabicDesk.call('POST', '/speech/backfills/estimate', { contentType: ARTICLE, locale: 'ar' })).body.documents).toBe(0);
  // A role that sees its own entries only cannot narrate a whole archive.
  const conditioned = await creators.call('POST', '/speech/backfills', { contentType: ARTICLE, locale: 'en' });
  expect(conditioned.status).toBe(403);
  expect(conditioned.body.error.message).toMatch(/without conditions/);
  // Who may read the settings but not the articles sees no backfill of them, and steers none.
  expect((await reader.call('GET', `/speech/backfills/${englishBackfill}`)).status).toBe(404);
  expect((await reader.call('GET', '/speech/backfills')).body.data).toEqual([]);
  expect((await reader.call('POST', `/speech/backfills/${englishBackfill}/pause`, {})).status).toBe(403);

  expect((await stack.admin('GET', '/speech/backfills')).body.data).toHaveLength(1);
  expect(await backfill(englishBackfill)).toEqual(before.view);
  expect((await emulatorRequests(stack)).length).toBe(before.sent);
});

it('pauses and cancels: a paused backfill queues nothing more, a cancelled one withdraws what it queued and was not sent', async () => {
  expect((await stack.admin('PUT', '/speech/settings', { budget: { monthlyCredits: null } })).status).toBe(200);
  // A new archive of 30, behind a slow service so that its queue fills.
  const articles = contentManager(stack, ARTICLE);
  for (let n = 0; n < 30; n += 1) {
    const { documentId } = await articles.create(
      { title: `Later ${n}`, summary: `Later, number ${n}.`, body: blocks(`Later words ${n}.`) },
      'en'
    );
    await articles.publish(documentId, 'en');
  }
  await stack.control('PUT', '/config', { generationDelayMs: 3_000 });
  const before = (await emulatorRequests(stack)).length;
  const { id } = (await stack.admin('POST', '/speech/backfills', { contentType: ARTICLE, locale: 'en' })).body;
  await waitFor(async () => (await backfill(id)).queued >= 10, { what: 'the backfill to queue' });
  const paused = (await stack.admin('POST', `/speech/backfills/${id}/pause`, {})).body;
  expect(paused.status).toBe('paused');
  const queuedWhenPaused = paused.queued + paused.done + paused.failed;
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const still = await backfill(id);
  expect(still.queued + still.done + still.failed).toBe(queuedWhenPaused);
  const cancelled = (await stack.admin('POST', `/speech/backfills/${id}/cancel`, {})).body;
  expect(cancelled.status).toBe('cancelled');
  expect(cancelled.left).toBe(0);
  await waitFor(async () => (await backfill(id)).queued === 0, { timeoutMs: 60_000, what: 'what was sent to be stored' });
  // Only what had been sent before the cancel reached the service.
  const sent = (await emulatorRequests(stack)).length - before;
  expect(sent).toBeLessThanOrEqual(queuedWhenPaused);
  expect(sent).toBeLessThan(30);
  await stack.control('PUT', '/config', { generationDelayMs: 20 });
});
