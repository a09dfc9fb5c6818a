import path from 'node:path';
import Database from 'better-sqlite3';
import { blocks, contentManager, startStack, waitFor, type Stack } from './harness';
import { SERVER_DATABASES, type DatabaseServer } from './databases';
import { mediaFiles, narrationRow, sleep, submissionsFor, waitForStatus } from './narration-helpers';

/**
 * Nothing Strapi committed is lost by the plugin. Recording a publish for narration happens after
 * Strapi's own commit; when the process dies or the database goes away in between, the
 * reconciliation (at start and on a slow timer) finds the live version that has no narration and
 * records it. And a database restarted in the middle of a drain, with callbacks arriving, loses
 * nothing and charges nothing twice.
 */

const ARTICLE = 'api::article.article';
jest.setTimeout(420_000);

const RECONCILE_ENV = { SPEECH_RECONCILE_INTERVAL_MS: '1500', SPEECH_RECONCILE_SETTLE_MS: '500' };

async function draft(articles: ReturnType<typeof contentManager>, title: string) {
  return (await articles.create({ title, summary: `Summary of ${title}.`, body: blocks(`The body of ${title}.`) }, 'en')).documentId;
}

describe('a crash right after a bulk publish (SQLite)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ env: RECONCILE_ENV });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('narrates after the restart every entry whose recording the crash cut short, each submitted once', async () => {
    const articles = contentManager(stack, ARTICLE);
    const ids: string[] = [];
    for (let n = 1; n <= 20; n += 1) ids.push(await draft(articles, `Bulk before a crash ${n}`));

    // The Content Manager's bulk publish commits all twenty at once; their recordings run after
    // that commit, one by one. The process is killed the moment the publish has answered.
    const bulk = await stack.admin('POST', `/content-manager/collection-types/${ARTICLE}/actions/bulkPublish?locale=en`, {
      documentIds: ids,
    });
    await stack.stopStrapi('SIGKILL');
    expect(bulk.status).toBe(200);

    const database = new Database(path.join(stack.workDir, 'data.db'), { readonly: true });
    const live = database
      .prepare(`SELECT count(*) AS n FROM articles WHERE published_at IS NOT NULL AND document_id IN (${ids.map(() => '?').join(',')})`)
      .get(...ids) as { n: number };
    const recorded = database
      .prepare(`SELECT count(*) AS n FROM speech_narrations WHERE target_document_id IN (${ids.map(() => '?').join(',')})`)
      .get(...ids) as { n: number };
    database.close();
    // Strapi committed all twenty; the crash left some of them unrecorded (else this proves nothing).
    expect(live.n).toBe(20);
    expect(recorded.n).toBeLessThan(20);

    await stack.restartStrapi();
    for (const documentId of ids) await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en', 90_000);
    for (const documentId of ids) expect(await submissionsFor(stack, `${documentId}-en`)).toHaveLength(1);
    expect(stack.logs()).toMatch(/reconciliation recorded \d+ published version/);
  });
});

describe.each(SERVER_DATABASES)('on $name, the database restarted during a drain', (database) => {
  let db: DatabaseServer;
  let stack: Stack;

  beforeAll(async () => {
    db = await database.start();
    db.createDatabase('speech_restart');
    stack = await startStack({
      env: {
        ...db.strapiEnv('speech_restart'),
        DATABASE_POOL_MIN: '0',
        SPEECH_MAX_IN_FLIGHT: '3',
        SPEECH_LEASE_MS: '3000',
        // Callbacks the service gave up on during the outage are asked for again (free re-delivery).
        SPEECH_CALLBACK_TIMEOUT_MS: '8000',
        ...RECONCILE_ENV,
      },
    });
  });

  afterAll(async () => {
    try {
      await stack?.stop();
    } finally {
      db?.stop();
    }
  });

  it('completes every committed publish, each paid once, with one set of files and one log line per outage', async () => {
    const articles = contentManager(stack, ARTICLE);
    const creditsBefore = (await stack.control<{ credits: number }>('GET', '/credits')).credits;
    const published: string[] = [];
    for (let n = 1; n <= 30; n += 1) {
      const documentId = await draft(articles, `Drained across a restart ${n}`);
      await articles.publish(documentId, 'en');
      published.push(documentId);
    }
    // The drain is under way: some done, the rest queued or generating.
    await waitFor(
      async () => {
        const { body } = await stack.admin('GET', '/speech/overview');
        return body?.counts?.completed >= 3 ? true : null;
      },
      { timeoutMs: 60_000, what: 'three narrations completed' }
    );

    // Stopped as an operator's restart (or a managed failover) does: every session is ended.
    db.halt();
    await sleep(10_000);
    db.resume();
    const resumedAt = Date.now();

    // Strapi and the plugin come back on their own: health, and an admin route that reads the database.
    await waitFor(async () => ((await stack.request('/_health')).status === 204 ? true : null), {
      timeoutMs: 10_000,
      what: '/_health',
    });
    await waitFor(async () => ((await stack.admin('GET', '/speech/overview')).status === 200 ? true : null), {
      timeoutMs: 10_000,
      what: 'the admin reading the database again',
    });
    const answeredAfterMs = Date.now() - resumedAt;
    expect(answeredAfterMs).toBeLessThan(10_000);

    const expected = published;
    for (const documentId of expected) await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en', 150_000);

    // Each paid once: generated once by the service, and the account charged exactly once per
    // article, except where the service refunded a delivery that failed during the outage and
    // re-delivered the stored result for free (spec 3.1).
    let owed = 0;
    for (const documentId of expected) {
      const articleId = `${documentId}-en`;
      const { articles: records } = await stack.control<any>('GET', `/articles?articleId=${encodeURIComponent(articleId)}`);
      expect({ articleId, generations: records[0]?.generation }).toEqual({ articleId, generations: 1 });
      const { events } = await stack.control<any>('GET', `/events?articleId=${encodeURIComponent(articleId)}`);
      const refunded = (events as Array<{ type: string }>).some((event) => event.type === 'DELIVERY_FAILED');
      if (!refunded) owed += (await narrationRow(stack, ARTICLE, documentId, 'en')).credits;
      // One MP3, one SRT and one VTT in the Media Library, never a second set.
      expect({ articleId, files: (await mediaFiles(stack, `narration-${articleId}`)).length }).toEqual({ articleId, files: 3 });
    }
    const spent = creditsBefore - (await stack.control<{ credits: number }>('GET', '/credits')).credits;
    expect(spent).toBe(owed);

    // One line when the outage began and one when it ended, not one per worker tick.
    const logs = stack.logs();
    expect(logs.match(/\[speech\] the narration queue failed/g) ?? []).toHaveLength(1);
    expect(logs).toMatch(/\[speech\] the narration queue works again after \d+ s/);
  });
});
