#!/usr/bin/env node
/**
 * What the reconciliation costs at a million live entries (issue 21: "cheaply at a million rows").
 * The playground Strapi is loaded in this process on a fresh SQLite database, with --rows published
 * articles written straight into its table (as years of publishing would leave them), then:
 *
 *  - idle: passes with nothing published since the cursor, the cost every instance pays every
 *    5 minutes; timed, with the SQL queries each sent (knex's `query` event);
 *  - catch-up: --lost more articles published while the plugin ran but never recorded (as after a
 *    database outage), found and recorded by one pass; timed per entry.
 *
 * Checked: the idle pass's queries do not grow with the rows (fewer than 10) and it stays under
 * 20 ms at p50; the catch-up records exactly the lost entries.
 *
 *   node scripts/bench-reconcile.mjs [--rows 1000000] [--lost 100] [--build]
 */
import { performance } from 'node:perf_hooks';
import { ensureBuilt, freePort, loadStrapiHere, numberOption, playgroundEnv, playgroundWorkDir, runBench } from './bench-support.mjs';
import { quantile } from './bench/figures.mjs';

const argv = process.argv.slice(2);
const ROWS = numberOption(argv, 'rows', 1_000_000);
const LOST = numberOption(argv, 'lost', 100);
const IDLE_RUNS = 20;
const UID = 'api::article.article';
const TARGETS = { idleP50Ms: 20, idleQueries: 10 };

const say = (message) => console.log(`[bench-reconcile] ${message}`);
const ms = (value) => `${value.toFixed(1)} ms`;

/** `count` published articles, written in bulk (SQLite takes 500 terms a statement). */
async function insertArticles(knex, from, count, publishedAt) {
  const CHUNK = 2_000;
  for (let start = from; start < from + count; start += CHUNK) {
    const rows = [];
    for (let i = start; i < Math.min(from + count, start + CHUNK); i += 1) {
      rows.push({
        document_id: `b${i.toString(36).padStart(23, '0')}`,
        title: `Article ${i}`,
        summary: `The summary of article ${i}.`,
        locale: 'en',
        created_at: publishedAt,
        updated_at: publishedAt,
        published_at: publishedAt,
      });
    }
    await knex.batchInsert('articles', rows, 70);
  }
}

async function main() {
  ensureBuilt(argv, say);
  const { workDir } = playgroundWorkDir('speech-bench-reconcile-');
  const port = await freePort();
  const nowhere = { info: { url: 'http://127.0.0.1:9', webUrl: 'http://127.0.0.1:9' } };
  const env = playgroundEnv({
    workDir,
    port,
    apiKey: 'bench-reconcile',
    emulator: nowhere,
    extra: {
      SPEECH_CONTENT_TYPES: JSON.stringify({ [UID]: { titleField: 'title', textFields: ['summary', 'body'], trigger: 'publish' } }),
      // The worker never ticks on its own here (the recorded entries would go to a service that is not there).
      SPEECH_POLL_INTERVAL_MS: '3600000',
    },
  });
  const { app } = await loadStrapiHere(env);
  app.log.level = 'warn';
  const knex = app.db.connection;
  const narrations = app.plugin('speech').service('narrations');
  const store = app.store({ type: 'plugin', name: 'speech' });

  const seeded = Date.now();
  await insertArticles(knex, 0, ROWS, new Date(Date.now() - 30 * 24 * 3_600_000));
  await knex.raw('ANALYZE');
  say(`seeded ${ROWS.toLocaleString('en')} published articles in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

  let queries = 0;
  knex.on('query', () => {
    queries += 1;
  });
  const timedPass = async () => {
    const before = queries;
    const started = performance.now();
    await narrations.reconcile();
    return { ms: performance.now() - started, queries: queries - before };
  };

  // The cursor after every row (a running site): idle passes.
  const maxId = async () => Number((await knex('articles').max({ id: 'id' }))[0].id);
  await store.set({ key: 'reconcile', value: { [UID]: { afterId: await maxId(), passedAt: new Date().toISOString() } } });
  const idle = [];
  let idleQueries = 0;
  for (let run = 0; run < IDLE_RUNS + 3; run += 1) {
    const pass = await timedPass();
    if (run >= 3) idle.push(pass.ms);
    idleQueries = pass.queries;
  }

  // Lost recordings: published three minutes ago, a minute after the last pass, never recorded.
  const cursor = await maxId();
  await store.set({
    key: 'reconcile',
    value: { [UID]: { afterId: cursor, passedAt: new Date(Date.now() - 4 * 60_000).toISOString() } },
  });
  await insertArticles(knex, ROWS, LOST, new Date(Date.now() - 3 * 60_000));
  const catchUp = await timedPass();
  const recorded = Number((await knex('speech_narrations').where('content_type', UID).count({ n: '*' }))[0].n);

  const figures = {
    rows: ROWS,
    idleP50Ms: quantile(idle, 0.5),
    idleP95Ms: quantile(idle, 0.95),
    idleQueries,
    lost: LOST,
    recorded,
    catchUpMs: catchUp.ms,
    catchUpPerEntryMs: catchUp.ms / LOST,
    catchUpQueries: catchUp.queries,
  };
  figures.ok = recorded === LOST && figures.idleQueries < TARGETS.idleQueries && figures.idleP50Ms < TARGETS.idleP50Ms;
  say(
    `${ROWS.toLocaleString('en')} live articles: idle pass p50 ${ms(figures.idleP50Ms)}, p95 ${ms(figures.idleP95Ms)} in ${idleQueries} queries; ` +
      `${LOST} lost recordings found and recorded in ${ms(catchUp.ms)} (${ms(figures.catchUpPerEntryMs)} each, ${catchUp.queries} queries)`
  );
  console.log('');
  console.log(JSON.stringify({ event: 'bench-reconcile', ...figures }));
  console.log('');
  console.log('| figure | measured | target | verdict |');
  console.log('|---|---|---|---|');
  console.log(
    `| reconciliation pass, ${ROWS.toLocaleString('en')} live articles, nothing lost | p50 ${ms(figures.idleP50Ms)}, p95 ${ms(figures.idleP95Ms)}, ${idleQueries} SQL queries | p50 < ${TARGETS.idleP50Ms} ms, < ${TARGETS.idleQueries} queries | ${figures.idleP50Ms < TARGETS.idleP50Ms && figures.idleQueries < TARGETS.idleQueries ? 'PASS' : 'MISS'} |`
  );
  console.log(
    `| reconciliation pass, ${LOST} lost recordings | ${ms(catchUp.ms)} (${ms(figures.catchUpPerEntryMs)} each), ${recorded} recorded | all ${LOST} recorded | ${recorded === LOST ? 'PASS' : 'MISS'} |`
  );
  if (!figures.ok) process.exitCode = 1;
}

runBench('bench-reconcile', main, say);
