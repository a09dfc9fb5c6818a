import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mariadb, postgres, type DatabaseServer, type ServerDatabase } from './databases';
import { playgroundEnv } from './harness';
import { createNarrationRows } from '../../server/src/queue/rows/narration-rows';
import { createPartRows } from '../../server/src/queue/rows/part-rows';

/**
 * Cost that does not grow with the archive: on a narration table of 100,000 rows, every query
 * the worker's tick, the callbacks, the public routes, the list view and the transcription
 * poller run is planned as an index lookup, never a full scan, on SQLite, PostgreSQL and MariaDB;
 * and so is the reconciliation's look at an article table of 100,000 live entries.
 *
 * Strapi runs in this process (the playground, compiled) so the test hears the exact SQL the
 * plugin sends, with its bindings, through knex's `query` event, and asks the database to
 * explain each statement.
 */

jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '..', '..');
const APP_DIR = path.join(ROOT, 'playground');
const ROWS = 100_000;
const UID = 'api::article.article';

type Captured = { sql: string; bindings: unknown[] };

async function bootStrapi(env: Record<string, string>) {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'speech-plans-'));
  Object.assign(process.env, {
    ...playgroundEnv(workDir, 0),
    SPEECH_API_KEY: 'plans',
    SPEECH_BASE_URL: 'http://127.0.0.1:9',
    // The worker never ticks on its own here: the test calls the queries itself.
    SPEECH_POLL_INTERVAL_MS: '3600000',
    SPEECH_STT_POLL_MS: '3600000',
    ...env,
  });
  const { createStrapi } = await import('@strapi/strapi');
  const app = await createStrapi({
    appDir: APP_DIR,
    distDir: path.join(APP_DIR, 'dist'),
    autoReload: false,
    serveAdminPanel: false,
  }).load();
  return { app, cleanup: () => rmSync(workDir, { recursive: true, force: true }) };
}

/** 100,000 completed narrations and a few on their way, inserted in bulk. */
async function fillNarrations(knex: any, chunk: number) {
  const now = new Date();
  const rows = [];
  for (let i = 0; i < ROWS; i += 1) {
    rows.push({
      document_id: `n${i.toString(36).padStart(23, '0')}`,
      article_id: `doc${i}-en`,
      content_type: UID,
      target_document_id: `doc${i}`,
      target_locale: 'en',
      status: i < 5 ? ['queued', 'submitting', 'awaiting_callback', 'storing', 'failed'][i] : 'completed',
      next_attempt_at: i < 5 ? now : null,
      lease_expires_at: i === 1 || i === 3 ? now : null,
      callback_deadline: i === 2 ? now : null,
      characters: 1200 + (i % 500),
      credits: 1200 + (i % 500),
      // Stored a minute apart, the newest first stored too (a feed lists by the first store).
      completed_at: i < 5 ? null : new Date(now.getTime() - i * 60_000),
      first_completed_at: i < 5 ? null : new Date(now.getTime() - i * 60_000),
      created_at: now,
      updated_at: now,
      published_at: now,
    });
  }
  await knex.batchInsert('speech_narrations', rows, chunk);
}

/**
 * 20,000 parts of segmented narrations on their way (a busy queue: 2,000 long articles of 10 parts):
 * most queued, or generating with their callback due later; a few whose lease or callback ran out.
 */
async function fillParts(knex: any, chunk: number) {
  const now = new Date();
  const later = new Date(Date.now() + 3_600_000);
  const statuses = ['queued', 'queued', 'awaiting_callback', 'storing', 'failed'];
  const rows = [];
  for (let i = 0; i < 20_000; i += 1) {
    const overdue = i < 6;
    rows.push({
      document_id: `p${i.toString(36).padStart(23, '0')}`,
      article_id: `doc${Math.floor(i / 10)}-en~p${i.toString(16).padStart(16, '0')}`,
      narration_id: Math.floor(i / 10) + 1,
      turn: i % 10,
      parts_after: 9 - (i % 10),
      status: overdue ? (i % 2 ? 'submitting' : 'awaiting_callback') : statuses[i % statuses.length],
      next_attempt_at: now,
      lease_expires_at: overdue && i % 2 ? now : null,
      callback_deadline: overdue ? (i % 2 ? null : now) : later,
      characters: 900,
      credits: 900,
      created_at: now,
      updated_at: now,
      published_at: now,
    });
  }
  await knex.batchInsert('speech_narration_parts', rows, chunk);
}

/**
 * 100,000 published articles (the site's own table, which the reconciliation reads): the last ten
 * published an hour ago, after the reconciliation's cursor, the others long before.
 */
async function fillArticles(knex: any, chunk: number) {
  const longAgo = new Date(Date.now() - 30 * 24 * 3_600_000);
  const anHourAgo = new Date(Date.now() - 3_600_000);
  const rows = [];
  for (let i = 0; i < ROWS; i += 1) {
    const publishedAt = i >= ROWS - 10 ? anHourAgo : longAgo;
    rows.push({
      document_id: `a${i.toString(36).padStart(23, '0')}`,
      title: `Article ${i}`,
      summary: `Summary of article ${i}.`,
      locale: 'en',
      created_at: publishedAt,
      updated_at: publishedAt,
      published_at: publishedAt,
    });
  }
  await knex.batchInsert('articles', rows, chunk);
}

/** Every statement the plugin sends to the database while `work` runs. */
async function capture(knex: any, work: () => Promise<unknown>): Promise<Captured[]> {
  const captured: Captured[] = [];
  const listener = (query: { sql: string; bindings?: unknown[] }) => captured.push({ sql: query.sql, bindings: query.bindings ?? [] });
  knex.on('query', listener);
  try {
    await work();
  } finally {
    knex.removeListener('query', listener);
  }
  return captured;
}

/** The queries of an idle tick, a busy tick's lookups, the files a store cleans up, a callback, the public route, the list view, the poller and the verifier. */
async function runPluginQueries(app: any) {
  // The queue's own rows, as its worker reads them (its service lets views read only some).
  const repository = createNarrationRows(app);
  const transcriptions = app.plugin('speech').service('transcription-rows');
  const now = new Date();
  await repository.hasActiveRows();
  await repository.claimable(now, 3);
  await repository.countInFlight();
  await repository.withExpiredLease(now);
  await repository.withCallbackOverdue(now);
  await repository.readyToStore(now, 2);
  // A store's claim (uploads a crash left unlinked), and the start's sweep of replaced files.
  await repository.pendingUploadsOf(4242);
  await repository.withReplacedFilesWaiting(0, 50);
  await repository.findByArticleId('doc4242-en', true);
  await repository.findForDocuments(
    UID,
    Array.from({ length: 100 }, (_, i) => `doc${i * 997}`)
  );
  await repository.findForDocument(UID, 'doc777');
  // A podcast feed's page: a type's narrations by their first store, newest first.
  await repository.withAudioNewestFirst(UID, null, { start: 0, limit: 50 });
  await repository.withAudioNewestFirst(UID, 'en', { start: 50, limit: 50 });
  // Segmented narrations: the articles awaiting their parts, and the parts' own queue.
  const parts = createPartRows(app);
  await repository.awaitingParts();
  await parts.claimable(now, 3);
  await parts.countInFlight();
  await parts.withExpiredLease(now);
  await parts.withCallbackOverdue(now);
  await parts.findByArticleId('doc4242-en~p0123456789abcdef');
  await parts.forNarration(4242);
  // The verifier's sweep of the stores since its last pass (verified narration), and its due checks.
  await repository.storedSince(new Date(now.getTime() - 3_600_000), [UID], 20);
  const checks = app.plugin('speech').service('check-rows');
  await checks.due(now, 20);
  await checks.nextDueAt();
  await checks.forNarrations([4242, 4243]);
  await transcriptions.duePolls(now, 5);
  await transcriptions.nextDueAt(now);
  await transcriptions.interruptedUploads(now);
  // A reconciliation pass (its cursor stands ten articles before the end): it reads the ten live
  // rows after the cursor and records them.
  await app.plugin('speech').service('narrations').reconcile();
}

/** The plugin's tables, and the site's article table as the reconciliation reads it. */
const PLUGIN_TABLES = /speech_(narrations|narration_parts|transcriptions|verifications)\b|\barticles\b/;
/** The tables that grow with the site: none may be read whole (the parts' table holds only parts on their way, filled here all the same). */
const LARGE_TABLES = new Set(['speech_narrations', 'speech_narration_parts', 'articles']);

async function explainAll(statements: Captured[], explain: (statement: Captured) => Promise<string[]>) {
  const scans: string[] = [];
  const explained: string[] = [];
  for (const statement of statements.filter((candidate) => PLUGIN_TABLES.test(candidate.sql) && /^\s*select/i.test(candidate.sql))) {
    const plan = await explain(statement);
    explained.push(statement.sql);
    for (const line of plan) if (line.startsWith('FULL SCAN')) scans.push(`${line}\n  in: ${statement.sql}`);
  }
  return { scans, explained };
}

type Explain = (knex: any, statement: Captured) => Promise<string[]>;

/**
 * Boots Strapi on a database, fills the narration table, has the database refresh its statistics
 * and explain every SELECT the plugin sends to its tables: none may read the narration table whole.
 */
async function expectIndexLookups(
  env: Record<string, string>,
  { chunk, analyze, explain }: { chunk: number; analyze: string[]; explain: Explain }
) {
  const { app, cleanup } = await bootStrapi(env);
  try {
    const knex = app.db.connection;
    await fillNarrations(knex, chunk);
    await fillParts(knex, chunk);
    await fillArticles(knex, chunk);
    for (const statement of analyze) await knex.raw(statement);
    // The reconciliation's cursor ten articles before the end, its last pass a minute before they
    // were published (an hour ago): published while it ran, and lost.
    const maxId = Number((await knex('articles').max({ id: 'id' }))[0].id);
    await app.store({ type: 'plugin', name: 'speech' }).set({
      key: 'reconcile',
      value: { [UID]: { afterId: maxId - 10, passedAt: new Date(Date.now() - 61 * 60_000).toISOString() } },
    });
    const statements = await capture(knex, () => runPluginQueries(app));
    const { scans, explained } = await explainAll(statements, (statement) => explain(knex, statement));
    expect(explained.length).toBeGreaterThanOrEqual(12);
    expect(explained.some((sql) => /\barticles\b/.test(sql) && /\bid\W+>/.test(sql))).toBe(true);
    expect(scans).toEqual([]);
    // The reconciliation recorded the ten articles published after its cursor, and only those.
    const recorded = await knex('speech_narrations').where('target_document_id', 'like', 'a%').count({ n: '*' });
    expect(Number(recorded[0].n)).toBe(10);
  } finally {
    await app.destroy();
    cleanup();
  }
}

describe('SQLite', () => {
  it('plans every plugin query on a 100,000-row narration table as an index lookup', async () => {
    await expectIndexLookups(
      { DATABASE_CLIENT: 'sqlite' },
      {
        // SQLite allows 500 terms in one compound SELECT (knex's multi-row insert).
        chunk: 400,
        analyze: ['ANALYZE'],
        async explain(knex, { sql, bindings }) {
          const plan = (await knex.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings)) as Array<{ detail: string }>;
          // "SCAN t" (the table) or "SCAN t USING INDEX i" (a whole index) read every row; "SEARCH" does not.
          return plan.map((step) => (/^SCAN (?!CONSTANT)/.test(step.detail) ? `FULL SCAN: ${step.detail}` : step.detail));
        },
      }
    );
  });
});

/** How each database server explains a statement, one line a step; a full read of the narration table starts with FULL SCAN. */
const SERVER_PLANS: Array<{ database: ServerDatabase; title: string; analyze: string[]; explain: Explain }> = [
  {
    database: postgres,
    title: 'plans every plugin query on a 100,000-row narration table without a sequential scan',
    analyze: ['ANALYZE'],
    async explain(knex, { sql, bindings }) {
      // knex hands PostgreSQL `$1`-style placeholders; knex.raw takes `?`.
      const result = await knex.raw(`EXPLAIN (FORMAT JSON) ${sql.replace(/\$\d+/g, '?')}`, bindings);
      const lines: string[] = [];
      const walk = (node: any) => {
        const line = `${node['Node Type']} on ${node['Relation Name'] ?? '-'}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}`;
        // The transcription table is empty here, and PostgreSQL rightly reads an empty table
        // whole: the narration table is the one that grows.
        lines.push(node['Node Type'] === 'Seq Scan' && LARGE_TABLES.has(node['Relation Name']) ? `FULL SCAN: ${line}` : line);
        for (const child of node.Plans ?? []) walk(child);
      };
      walk(result.rows[0]['QUERY PLAN'][0].Plan);
      return lines;
    },
  },
  {
    database: mariadb,
    title: 'plans every plugin query on a 100,000-row narration table without a full table or index scan',
    analyze: ['ANALYZE TABLE speech_narrations', 'ANALYZE TABLE speech_narration_parts', 'ANALYZE TABLE articles'],
    async explain(knex, { sql, bindings }) {
      const [steps] = (await knex.raw(`EXPLAIN ${sql}`, bindings)) as [
        Array<{ table: string | null; type: string | null; key: string | null }>,
      ];
      // Strapi aliases its tables (`speech_narrations` as `t0`): EXPLAIN names the alias.
      const tables = new Map([...sql.matchAll(/`(\w+)` as `(\w+)`/g)].map(([, table, alias]) => [alias, table]));
      return steps.map((step) => {
        const table = tables.get(step.table ?? '') ?? step.table;
        const line = `${step.type} on ${table ?? '-'}${step.key ? ` using ${step.key}` : ''}`;
        // `ALL` reads the table whole and `index` a whole index; as on PostgreSQL, the empty
        // transcription table may be read whole.
        return (step.type === 'ALL' || step.type === 'index') && LARGE_TABLES.has(table ?? '') ? `FULL SCAN: ${line}` : line;
      });
    },
  },
];

describe.each(SERVER_PLANS)('$database.name', ({ database, title, analyze, explain }) => {
  let server: DatabaseServer;

  beforeAll(async () => {
    server = await database.start();
    server.createDatabase('plans');
  });

  afterAll(() => server?.stop());

  it(title, async () => {
    await expectIndexLookups(server.strapiEnv('plans'), { chunk: 2_000, analyze, explain });
  });
});
