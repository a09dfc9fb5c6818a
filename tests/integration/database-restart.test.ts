import path from 'node:path';
import Database from 'better-sqlite3';
import { blocks, contentManager, startStack, waitFor, type Stack } from './harness';
import { SERVER_DATABASES, type DatabaseServer } from './databases';
import { emulatorRequests, mediaFiles, narrationRow, sleep, submissionsFor, waitForStatus } from './narration-helpers';

/**
 * Nothing Strapi committed is lost by the plugin. Recording a publish for narration happens after
 * Strapi's own commit; when the process dies or the database goes away in between, the
 * reconciliation (at start and on a slow timer) finds the live version that has no narration and
 * records it. And a database restarted in the middle of a drain, with callbacks arriving, loses
 * nothing and charges nothing twice.
 */

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';
jest.setTimeout(420_000);

const RECONCILE_ENV = { SPEECH_RECONCILE_INTERVAL_MS: '1500', SPEECH_RECONCILE_SETTLE_MS: '500' };

async function draft(articles: ReturnType<typeof contentManager>, title: string) {
  return (await articles.create({ title, summary: `Summary of ${title}.`, body: blocks(`The body of ${title}.`) }, 'en')).documentId;
}

/**
 * A database that refuses the plugin's insert, while Strapi's own writes go through: the publish
 * commits and its recording fails right after, as when the database goes away between the two.
 */
const REFUSAL: Record<string, { refuse: string; allow: string }> = {
  SQLite: {
    refuse: `CREATE TRIGGER speech_refuse_insert BEFORE INSERT ON speech_narrations BEGIN SELECT RAISE(ABORT, 'recording refused by the test'); END;
      CREATE TRIGGER speech_refuse_update BEFORE UPDATE ON speech_narrations BEGIN SELECT RAISE(ABORT, 'recording refused by the test'); END`,
    allow: 'DROP TRIGGER speech_refuse_insert; DROP TRIGGER speech_refuse_update',
  },
  PostgreSQL: {
    refuse: `CREATE FUNCTION speech_refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'recording refused by the test'; END $$ LANGUAGE plpgsql;
      CREATE TRIGGER speech_refuse BEFORE INSERT OR UPDATE ON speech_narrations FOR EACH ROW EXECUTE FUNCTION speech_refuse()`,
    allow: 'DROP TRIGGER speech_refuse ON speech_narrations; DROP FUNCTION speech_refuse()',
  },
  MariaDB: {
    refuse: `CREATE TRIGGER speech_refuse_insert BEFORE INSERT ON speech_narrations FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'recording refused by the test';
      CREATE TRIGGER speech_refuse_update BEFORE UPDATE ON speech_narrations FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'recording refused by the test'`,
    allow: 'DROP TRIGGER speech_refuse_insert; DROP TRIGGER speech_refuse_update',
  },
};

/**
 * While the plugin's writes are refused: publishes three articles one by one and three in one bulk
 * publish, and saves a page (a type without draft & publish, changed in place) that was narrated
 * before. Every publish and the save answer 200 and are live (a failed recording never undoes
 * them, not even inside the bulk publish's transaction, where PostgreSQL would abort it whole
 * without a savepoint), and nothing new is recorded. Once writes work again the reconciliation
 * records all seven: each article is submitted once, the page once more.
 */
async function expectReconciled(stack: Stack, database: { refuse: () => void; allow: () => void }) {
  const articles = contentManager(stack, ARTICLE);
  const pages = contentManager(stack, PAGE);
  const pageId = (await pages.create({ title: 'Saved while refused', content: 'The first text of the page.' })).documentId;
  const pageBefore = await waitForStatus(stack, PAGE, pageId, 'completed');
  const single: string[] = [];
  const bulk: string[] = [];
  for (let n = 1; n <= 3; n += 1) single.push(await draft(articles, `Recording refused, single ${n}`));
  for (let n = 1; n <= 3; n += 1) bulk.push(await draft(articles, `Recording refused, bulk ${n}`));
  database.refuse();
  try {
    for (const documentId of single) {
      await articles.publish(documentId, 'en');
      // The passes fail from the first publish on (they cannot record it), and the others come more
      // than a pass's interval and settle time after the last pass that worked, as on a busy machine
      // or in a long outage: they went live while the plugin ran, and are still its to record.
      if (documentId === single[0])
        await sleep(Number(RECONCILE_ENV.SPEECH_RECONCILE_INTERVAL_MS) + Number(RECONCILE_ENV.SPEECH_RECONCILE_SETTLE_MS) + 1_500);
    }
    const published = await stack.admin('POST', `/content-manager/collection-types/${ARTICLE}/actions/bulkPublish?locale=en`, {
      documentIds: bulk,
    });
    expect(published.status).toBe(200);
    await pages.update(pageId, { title: 'Saved while refused', content: 'The second text of the page, saved while refused.' });
    for (const documentId of [...single, ...bulk]) {
      const live = await stack.request(`/api/articles/${documentId}?locale=en`);
      expect({ documentId, status: live.status }).toEqual({ documentId, status: 200 });
      expect(await narrationRow(stack, ARTICLE, documentId, 'en')).toBeNull();
    }
    expect((await narrationRow(stack, PAGE, pageId))?.completedAt).toBe(pageBefore.completedAt);
    expect(stack.logs()).toMatch(/could not record a narration \(the reconciliation will\)/);
  } finally {
    database.allow();
  }
  for (const documentId of [...single, ...bulk]) await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en', 60_000);
  for (const documentId of [...single, ...bulk]) expect(await submissionsFor(stack, `${documentId}-en`)).toHaveLength(1);
  const pageAfter = await waitFor(
    async () => {
      const row = await narrationRow(stack, PAGE, pageId);
      return row?.status === 'completed' && row.completedAt !== pageBefore.completedAt ? row : null;
    },
    { timeoutMs: 60_000, what: 'the page narrated again' }
  );
  expect(pageAfter.characters).toBeGreaterThan(pageBefore.characters);
  expect(await submissionsFor(stack, pageId)).toHaveLength(2);
  expect(stack.logs()).toMatch(/reconciliation recorded \d+ published version/);
}

describe('on SQLite', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ env: RECONCILE_ENV });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('records a bulk publish in its transaction: killed the moment it answers, all are narrated after the restart, once each', async () => {
    const articles = contentManager(stack, ARTICLE);
    const ids: string[] = [];
    for (let n = 1; n <= 20; n += 1) ids.push(await draft(articles, `Bulk before a crash ${n}`));

    // The Content Manager's bulk publish runs in a transaction of its own, and each version is
    // recorded inside it: the process is killed the moment the publish has answered.
    const bulk = await stack.admin('POST', `/content-manager/collection-types/${ARTICLE}/actions/bulkPublish?locale=en`, {
      documentIds: ids,
    });
    await stack.stopStrapi('SIGKILL');
    expect(bulk.status).toBe(200);

    const database = new Database(path.join(stack.workDir, 'data.db'), { readonly: true });
    const count = (sql: string) => (database.prepare(sql).get(...ids) as { n: number }).n;
    const inList = ids.map(() => '?').join(',');
    const live = count(`SELECT count(*) AS n FROM articles WHERE published_at IS NOT NULL AND document_id IN (${inList})`);
    const recorded = count(`SELECT count(*) AS n FROM speech_narrations WHERE target_document_id IN (${inList})`);
    database.close();
    // Committed together: every live entry has its narration row, whatever the worker had done yet.
    expect({ live, recorded }).toEqual({ live: 20, recorded: 20 });

    await stack.restartStrapi();
    for (const documentId of ids) await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en', 90_000);
    for (const documentId of ids) expect(await submissionsFor(stack, `${documentId}-en`)).toHaveLength(1);
  });

  it('records by reconciliation what failed to record after the commit, single and bulk publishes alike', async () => {
    const database = new Database(path.join(stack.workDir, 'data.db'));
    try {
      await expectReconciled(stack, {
        refuse: () => database.exec(REFUSAL.SQLite.refuse),
        allow: () => database.exec(REFUSAL.SQLite.allow),
      });
    } finally {
      database.close();
    }
  });

  it('removes an upload whose link the database lost, tries the store again, and keeps one set of files', async () => {
    const articles = contentManager(stack, ARTICLE);
    const documentId = await draft(articles, 'Its first upload lost its link');
    const articleId = `${documentId}-en`;
    const database = new Database(path.join(stack.workDir, 'data.db'));
    const unlinkedFiles = () =>
      database
        .prepare(
          `SELECT id FROM files WHERE name LIKE ? AND NOT EXISTS (SELECT 1 FROM files_related_mph link WHERE link.file_id = files.id)`
        )
        .all(`narration-${articleId}.%`);
    try {
      database.exec(LINK_LOST.cut);
      try {
        await articles.publish(documentId, 'en');
        const failed = await waitFor(
          async () => {
            const row = await narrationRow(stack, ARTICLE, documentId, 'en');
            return /kept by the test/.test(row?.lastError ?? '') ? row : null;
          },
          { timeoutMs: 45_000, what: 'the store to fail on the lost link' }
        );
        // Not given up: the database was away, the result is stored by a later attempt.
        expect(failed.status).toBe('storing');
        expect(unlinkedFiles()).toHaveLength(1);
      } finally {
        database.exec(LINK_LOST.restore);
      }
      await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en', 60_000);
      expect(unlinkedFiles()).toHaveLength(0);
    } finally {
      database.close();
    }
    const names = (await mediaFiles(stack, `narration-${articleId}`)).map((file) => file.name).sort();
    expect(names).toEqual([`narration-${articleId}.mp3`, `narration-${articleId}.srt`, `narration-${articleId}.vtt`]);
    expect(await submissionsFor(stack, articleId)).toHaveLength(1);
    expect(stack.logs()).toMatch(new RegExp(`removing 1 unlinked upload\\(s\\) of ${articleId}`));
  });

  it('leaves a recorded publish to its narration when the settings changed since: the segmented mode applies from the next publish, never by a reconciliation', async () => {
    // One pass at start and none after, as when Strapi restarts within the 5 minutes between passes.
    await stack.restartStrapi({ SPEECH_RECONCILE_INTERVAL_MS: '600000' });
    const articles = contentManager(stack, ARTICLE);
    const body = ['The first paragraph of a narrated article.', 'Its second paragraph.', 'And its third one.'];
    const documentId = (
      await articles.create({ title: 'Narrated whole, then its type in parts', summary: 'A summary.', body: blocks(...body) }, 'en')
    ).documentId;
    const articleId = `${documentId}-en`;
    await articles.publish(documentId, 'en');
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    const creditsBefore = (await stack.control<{ credits: number }>('GET', '/credits')).credits;
    const ofThisArticle = async () =>
      (await emulatorRequests(stack)).filter((entry) => String(entry.body?.postData?.articleId ?? '').startsWith(articleId));
    expect(await ofThisArticle()).toHaveLength(1);

    const narratedIn = (narrationMode: 'whole' | 'segmented') =>
      stack.admin('PUT', '/speech/settings', {
        contentTypes: {
          [ARTICLE]: { titleField: 'title', textFields: ['summary', 'body'], trigger: 'publish', narrationMode, segmentCharacters: 200 },
        },
      });
    const segmented = await narratedIn('segmented');
    expect(segmented.status).toBe(200);
    try {
      // The start pass reads the live row published since the last pass, under the new settings.
      await stack.restartStrapi();
      await sleep(3_000);
      expect(await ofThisArticle()).toHaveLength(1);
      expect((await stack.control<{ credits: number }>('GET', '/credits')).credits).toBe(creditsBefore);
      expect((await narrationRow(stack, ARTICLE, documentId, 'en'))?.status).toBe('completed');

      // The next publish, unchanged, is narrated in parts: the new mode applies from there.
      await articles.publish(documentId, 'en');
      await waitFor(async () => (await ofThisArticle()).length > 1, { timeoutMs: 30_000, what: 'the parts to be submitted' });
      await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en', 60_000);
      expect((await ofThisArticle()).slice(1).every((entry) => entry.body.postData.articleId !== articleId)).toBe(true);
    } finally {
      await narratedIn('whole');
    }
  });
});

/**
 * Strapi's upload service inserts a file's row, then links it in a transaction of its own; a
 * database that goes away between the two fails the link and Strapi's clean-up of the row alike.
 * These triggers do that to a narration's first upload: its link is refused, and so is deleting
 * its row, which is left in the Media Library linked to nothing.
 */
const LINK_LOST = {
  cut: `CREATE TRIGGER speech_link_lost BEFORE INSERT ON files_related_mph WHEN NEW.related_type = 'plugin::speech.narration'
      BEGIN SELECT RAISE(ABORT, 'the link was lost by the test'); END;
    CREATE TRIGGER speech_file_kept BEFORE DELETE ON files WHEN OLD.name LIKE 'narration-%'
      BEGIN SELECT RAISE(ABORT, 'the row was kept by the test'); END`,
  restore: 'DROP TRIGGER speech_link_lost; DROP TRIGGER speech_file_kept',
};

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

  it('records by reconciliation what failed to record after the commit, single and bulk publishes alike', async () => {
    await expectReconciled(stack, {
      refuse: () => db.sql('speech_restart', REFUSAL[database.name].refuse),
      allow: () => db.sql('speech_restart', REFUSAL[database.name].allow),
    });
  });

  it('completes every committed publish, each paid once, with one set of files and one log line per outage', async () => {
    const articles = contentManager(stack, ARTICLE);
    const creditsBefore = (await stack.control<{ credits: number }>('GET', '/credits')).credits;
    const logsBefore = stack.logs().length;
    const published: string[] = [];
    for (let n = 1; n <= 30; n += 1) {
      const documentId = await draft(articles, `Drained across a restart ${n}`);
      await articles.publish(documentId, 'en');
      published.push(documentId);
    }
    // The drain is under way: the first ones done (it goes in publish order), the rest queued or generating.
    await waitForStatus(stack, ARTICLE, published[2], 'completed', 'en', 60_000);

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
      // One MP3, one SRT and one VTT in the Media Library, never a second set, and they are the row's.
      const files = (await mediaFiles(stack, `narration-${articleId}`)).map((file) => file.url).sort();
      const audio = (await stack.request(`/api/speech/narrations/${articleId}/audio.mp3`, { redirect: 'manual' })).headers.get('location');
      expect({ articleId, files: files.length, audioListed: files.some((url) => audio?.endsWith(url)) }).toEqual({
        articleId,
        files: 3,
        audioListed: true,
      });
    }
    const spent = creditsBefore - (await stack.control<{ credits: number }>('GET', '/credits')).credits;
    expect(spent).toBe(owed);

    // One line when the outage began and one when it ended, not one per worker tick. The closing
    // line comes once the queue has worked 15 s without a failure (utils/failure-episodes.ts): a
    // drain that finished sooner than that is waited for, not read too early. (The wait once
    // looked for "works again" anywhere, and the opening line ends "nothing more is logged until
    // it works again.": it ended at once, and a drain that finished within 15 s of the last
    // failure, as on MariaDB with two test files running side by side, failed the assertion.)
    const outageLines = () =>
      stack
        .logs()
        .slice(logsBefore)
        .match(/\[speech\] the narration queue (failed|works again)[^\n]*/g) ?? [];
    const worksAgain = '[speech] the narration queue works again';
    await waitFor(async () => (outageLines().some((line) => line.startsWith(worksAgain)) ? true : null), {
      timeoutMs: 30_000,
      what: 'the line saying the narration queue works again',
    }).catch((error: Error) => {
      // What the queue logged since the outage began, to tell what kept it from working again.
      const since = stack.logs().slice(logsBefore).split('\n');
      throw new Error(
        `${error.message}\n${since
          .filter((line) => line.includes('[speech]'))
          .slice(-40)
          .join('\n')}`
      );
    });
    expect(outageLines()).toEqual([
      expect.stringMatching(/^\[speech\] the narration queue failed: .*Retrying on its own/),
      expect.stringMatching(/^\[speech\] the narration queue works again \(it failed for \d+ s, \d+ failed attempts?\)/),
    ]);
    // The episode spans the outage (10 s), not one stray failure.
    expect(Number(/failed for (\d+) s/.exec(outageLines()[1])![1])).toBeGreaterThanOrEqual(5);
  });
});
