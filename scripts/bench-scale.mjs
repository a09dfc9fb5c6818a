#!/usr/bin/env node
/**
 * How the narration queue behaves with many rows (issue 15): the same figures at 1,000, 100,000
 * and 1,000,000 rows of `speech_narrations`, on SQLite and on PostgreSQL.
 *
 * For each database and size, on a fresh database:
 *  1. The emulator and the playground Strapi start once, so Strapi creates the schema (and its
 *     indexes); the bench registers an admin and creates 100 draft articles through the Content
 *     Manager, then stops Strapi and inserts N completed narrations straight into
 *     `speech_narrations` (better-sqlite3 prepared statements in transactions; PostgreSQL: one
 *     `INSERT ... SELECT FROM unnest($1::type[], ...)` per 10,000 rows), the first 100 of them for
 *     those 100 articles, and runs ANALYZE. Then Strapi starts again on that database
 *     (production mode, no admin panel, default worker tick: SPEECH_POLL_INTERVAL_MS unset = 2 s).
 *  2. Idle CPU: CPU time of the Strapi process's threads (/proc/<pid>/task/<tid>/schedstat) over 30 s
 *     after a 5 s settle, as % of one core, read in three 10 s parts: the figure is the median
 *     part (V8 may shrink the heap once, on its helper threads, at a random moment of the first
 *     minute), printed with the whole window and its main thread's share. On PostgreSQL the
 *     cluster's own processes are sampled as well (the queries a tick runs cost CPU there).
 *  3. Statuses: `POST /speech/narrations/statuses` for the 100 articles (100 rows answered),
 *     3 warm-ups then 20 timed requests, wall time seen by the bench; p50/p95.
 *  4. Publish -> submission: 5 articles created and published through the Content Manager one after
 *     another (each narration completed before the next publish, so the queue has room); time from
 *     the publish response to the emulator's arrival time of `POST /process-text` for that article.
 *  5. Claim: a queued row (next_attempt_at = now) inserted directly; a trigger the bench adds to
 *     `speech_narrations` records the moment the worker's claim (queued -> submitting) is written.
 *     The claim writes lease_expires_at = tick start + leaseMs, so
 *     claim ms = claim write - tick start = the worker tick's work up to and including that claim
 *     (lease recovery, callback time-outs, results to store, the claimable query, the dispatcher
 *     lease, the in-flight count, the conditional update). 5 claims; p50/max.
 *
 *   node scripts/bench-scale.mjs [--sizes 1000,100000,1000000] [--db sqlite,postgres]
 *                                [--idle-seconds 30] [--build]
 *
 * Needs a built plugin and playground (`--build` builds both first), Linux (/proc), and for
 * PostgreSQL Debian's `postgresql` package (initdb/pg_ctl from /usr/lib/postgresql/<v>/bin, PG_BIN
 * or PATH). As root the cluster runs as the `postgres` user (created as `benchpg` if missing).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  adminToken,
  cleanupAll,
  cleanUpOnSignals,
  contentManager,
  ensureBuilt,
  freePort,
  json,
  memoryOf,
  numberOption,
  onCleanup,
  optionOf,
  playgroundEnv,
  playgroundWorkDir,
  quantile,
  sleep,
  startEmulator,
  startPlayground,
  waitFor,
} from './bench-support.mjs';
import { startCluster } from './postgres-cluster.cjs';

const require = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------
// Options
const argv = process.argv.slice(2);
const option = (name) => optionOf(argv, name);
const SIZES = (option('sizes') ?? '1000,100000,1000000').split(',').map((s) => Number(s.replace(/[_\s]/g, '')));
const DATABASES = (option('db') ?? 'sqlite,postgres').split(',').map((s) => s.trim());
const IDLE_SECONDS = numberOption(argv, 'idle-seconds', 30);
const SETTLE_SECONDS = 5;
const IDLE_WINDOWS = 3;
const STATUS_WARMUPS = 3;
const STATUS_RUNS = 20;
const DOCUMENTS = 100;
const PUBLISHES = 5;
const CLAIMS = 5;
const LEASE_MS = 60_000; // the plugin's default (SPEECH_LEASE_MS unset)
const API_KEY = 'bench-key';
const CONTENT_TYPE = 'api::article.article';
const credentials = { email: 'bench@example.com', password: 'Bench-Passw0rd!' };

if (SIZES.some((n) => !Number.isInteger(n) || n < DOCUMENTS)) throw new Error(`--sizes: whole numbers of at least ${DOCUMENTS}`);
if (DATABASES.some((db) => db !== 'sqlite' && db !== 'postgres')) throw new Error('--db: sqlite, postgres or sqlite,postgres');

const say = (message) => console.log(`[bench-scale] ${message}`);
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

// ---------------------------------------------------------------------------------------------
// Processes

/** utime + stime of a process in clock ticks (all its threads). */
function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime field 15.
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * CPU time of a process split by thread, in ticks (1/CLK_TCK s) but read from schedstat's
 * nanoseconds, since a quiet 10 s part holds only a few ticks: the main thread (JavaScript, and on
 * SQLite the queries themselves: better-sqlite3 runs them on it) and every other thread (V8's
 * garbage-collector and compiler helpers, libuv's pool). A thread that ended between two readings
 * is missed, which only under-counts the helpers.
 */
function threadTicks(pid) {
  const ticksOf = (tid) => (Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e9) * CLK_TCK;
  let helpers = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    if (tid === String(pid)) continue;
    try {
      helpers += ticksOf(tid);
    } catch {
      /* the thread ended */
    }
  }
  return { main: ticksOf(pid), helpers };
}

function parentOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The PostgreSQL postmaster and its children (backends, checkpointer, autovacuum, ...). */
function clusterPids(postmasterPid) {
  const pids = [postmasterPid];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (parentOf(Number(name)) === postmasterPid) pids.push(Number(name));
    } catch {
      /* ended meanwhile */
    }
  }
  return pids;
}

// ---------------------------------------------------------------------------------------------
// Statistics and ids

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** A 24-character id like Strapi's documentIds (cuid2: lowercase, starts with a letter), unique by `n`. */
function idMaker(letter) {
  return (n) => {
    const bytes = randomBytes(14);
    let id = letter;
    for (const byte of bytes) id += ALPHABET[byte % 36];
    return id + n.toString(36).padStart(9, '0');
  };
}
const narrationDocumentId = idMaker('n');
const articleDocumentId = idMaker('a');
const hex = (bytes) => randomBytes(bytes).toString('hex');

// ---------------------------------------------------------------------------------------------
// The narration rows the bench inserts

/**
 * Column -> value for one narration row, as the plugin would have left it. Keys are the columns of
 * `speech_narrations`; the adapter keeps the ones the table has. Dates are ms since the epoch.
 */
function narrationRow(i, count, targetDocumentId, now, fingerprintBase) {
  const span = 2 * 365 * 86_400_000;
  const created = now - span + Math.floor((i / count) * span);
  const status = i % 200 === 199 ? 'failed' : i % 500 === 251 ? 'cancelled' : 'completed';
  const characters = 600 + ((i * 7919) % 9000);
  const fingerprint = fingerprintBase + i.toString(16).padStart(8, '0');
  const articleId = `${targetDocumentId}-en`;
  const completed = status === 'completed';
  return {
    document_id: narrationDocumentId(i),
    article_id: articleId,
    content_type: CONTENT_TYPE,
    target_document_id: targetDocumentId,
    target_locale: 'en',
    title: `Bench article ${i}: how the queue grows`,
    status,
    fingerprint,
    submitted_fingerprint: fingerprint,
    narrated_fingerprint: completed ? fingerprint : null,
    voice_id: 'en-female-1',
    preprocess_type: '0',
    characters,
    duration_seconds: completed ? Math.round((characters / 14.5) * 1000) / 1000 : null,
    credits: characters,
    regenerate: false,
    fresh_wanted: false,
    attempts: status === 'failed' ? 3 : 1,
    submissions: status === 'failed' ? 3 : 1,
    store_attempts: completed ? 1 : 0,
    next_attempt_at: null,
    lease_owner: null,
    lease_expires_at: null,
    submitted_at: created + 1_000,
    callback_deadline: null,
    pending_result: null,
    seen_results: completed ? JSON.stringify([{ audioFile: `${articleId}.mp3`, srtFile: `${articleId}.srt` }]) : '[]',
    last_error: status === 'failed' ? 'The speech service reported that the generation failed.' : null,
    last_error_code: status === 'failed' ? 'GENERATION_FAILED' : null,
    credits_may_be_lost: false,
    completed_at: completed ? created + 95_000 : null,
    created_at: created,
    updated_at: completed ? created + 95_000 : created + 60_000,
    published_at: created,
    created_by_id: null,
    updated_by_id: null,
    locale: null,
  };
}

/** A row the worker should claim at once: queued, due now, for an article that is not published. */
function queuedRow(n, now) {
  const target = articleDocumentId(900_000_000 + n);
  return {
    ...narrationRow(0, 1, target, now, hex(28)),
    status: 'queued',
    narrated_fingerprint: null,
    attempts: 0,
    submissions: 0,
    store_attempts: 0,
    duration_seconds: null,
    completed_at: null,
    submitted_at: null,
    seen_results: '[]',
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
    published_at: now,
  };
}

// ---------------------------------------------------------------------------------------------
// Databases

const KNOWN_COLUMNS = Object.keys(narrationRow(0, 1, 'x', 0, ''));

/** Which columns to insert; refuses a NOT NULL column without a default the bench does not fill. */
function insertColumns(columns) {
  const names = columns.map((c) => c.name);
  const missing = columns.filter((c) => c.notNull && !c.hasDefault && c.name !== 'id' && !KNOWN_COLUMNS.includes(c.name));
  if (missing.length)
    throw new Error(`speech_narrations has NOT NULL columns the bench does not fill: ${missing.map((c) => c.name).join(', ')}`);
  const unknown = names.filter((name) => name !== 'id' && !KNOWN_COLUMNS.includes(name));
  if (unknown.length) say(`columns left to their defaults: ${unknown.join(', ')}`);
  return KNOWN_COLUMNS.filter((name) => names.includes(name));
}

async function sqliteDatabase(workDir) {
  const Database = require('better-sqlite3');
  const file = path.join(workDir, 'data.db');
  let db = null;
  const open = () => {
    if (!db) {
      db = new Database(file);
      db.pragma('busy_timeout = 5000');
    }
    return db;
  };
  onCleanup('sqlite connection', () => db?.close());
  // Strapi (knex + better-sqlite3) stores datetimes as ms since the epoch and booleans as 0/1.
  const encode = (value) => (typeof value === 'boolean' ? Number(value) : value);
  return {
    label: 'SQLite',
    env: { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: file },
    cpuPids: () => [],
    async columns() {
      return open()
        .prepare('PRAGMA table_info(speech_narrations)')
        .all()
        .map((c) => ({ name: c.name, notNull: c.notnull === 1, hasDefault: c.dflt_value !== null }));
    },
    async insert(columns, count, rowAt) {
      const statement = open().prepare(
        `INSERT INTO speech_narrations (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`
      );
      const batch = open().transaction((from, to) => {
        for (let i = from; i < to; i += 1) {
          const row = rowAt(i);
          statement.run(columns.map((name) => encode(row[name])));
        }
      });
      for (let from = 0; from < count; from += 10_000) batch(from, Math.min(count, from + 10_000));
    },
    async insertOne(columns, row) {
      const info = open()
        .prepare(`INSERT INTO speech_narrations (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
        .run(columns.map((name) => encode(row[name])));
      return Number(info.lastInsertRowid);
    },
    async analyze() {
      open().exec('ANALYZE');
    },
    async count() {
      return open().prepare('SELECT count(*) AS n FROM speech_narrations').get().n;
    },
    async status(articleId) {
      return open().prepare('SELECT status FROM speech_narrations WHERE article_id = ?').get(articleId)?.status ?? null;
    },
    async statusById(id) {
      return open().prepare('SELECT status FROM speech_narrations WHERE id = ?').get(id)?.status ?? null;
    },
    /** A side table and a trigger recording when a row goes queued -> submitting (ms since the epoch). */
    async installClaimProbe() {
      open().exec(`
        CREATE TABLE IF NOT EXISTS bench_claims (narration_id INTEGER, lease_expires_at NUMERIC, claimed_at_ms REAL);
        CREATE TRIGGER IF NOT EXISTS bench_claims_trigger AFTER UPDATE OF status ON speech_narrations
          WHEN OLD.status = 'queued' AND NEW.status = 'submitting'
          BEGIN
            INSERT INTO bench_claims VALUES (NEW.id, NEW.lease_expires_at, (julianday('now') - 2440587.5) * 86400000.0);
          END;`);
    },
    async claimRecord(id) {
      const row = open().prepare('SELECT lease_expires_at AS lease, claimed_at_ms AS at FROM bench_claims WHERE narration_id = ?').get(id);
      if (!row) return null;
      const lease = typeof row.lease === 'number' ? row.lease : Date.parse(row.lease);
      return { tickStart: lease - LEASE_MS, claimedAt: row.at };
    },
    async close() {
      db?.close();
      db = null;
    },
  };
}

async function postgresDatabase() {
  // The integration tests' throwaway cluster, its clock in UTC.
  const cluster = startCluster({ port: await freePort(), settings: { timezone: 'UTC' } });
  const stopCluster = onCleanup('postgres cluster', cluster.stop);
  const { url } = cluster;
  const postmasterPid = Number(readFileSync(path.join(cluster.data, 'postmaster.pid'), 'utf8').split('\n')[0]);

  const { Client } = require('pg');
  const admin = new Client({ connectionString: url('postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE strapi');
  await admin.end();

  let client = null;
  const connect = async () => {
    if (!client) {
      client = new Client({ connectionString: url('strapi') });
      await client.connect();
    }
    return client;
  };
  const closeClient = onCleanup('postgres connection', async () => {
    const c = client;
    client = null;
    await c?.end();
  });
  let types = null;

  const arrays = (columns, rows) => columns.map((name) => rows.map((row) => encodePg(row[name], types[name])));
  const encodePg = (value, type) => {
    if (value === null || value === undefined) return null;
    if (type.startsWith('timestamp')) return new Date(value).toISOString();
    return value;
  };
  const insertSql = (columns) =>
    `INSERT INTO speech_narrations (${columns.map((c) => `"${c}"`).join(', ')}) SELECT * FROM unnest(${columns.map((c, i) => `$${i + 1}::${types[c]}[]`).join(', ')})`;

  return {
    label: 'PostgreSQL',
    env: { DATABASE_CLIENT: 'postgres', DATABASE_URL: url('strapi') },
    cpuPids: () => clusterPids(postmasterPid),
    async columns() {
      const { rows } = await (
        await connect()
      ).query(
        `SELECT column_name, udt_name, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'speech_narrations'`
      );
      types = Object.fromEntries(rows.map((r) => [r.column_name, r.udt_name]));
      return rows.map((r) => ({ name: r.column_name, notNull: r.is_nullable === 'NO', hasDefault: r.column_default !== null }));
    },
    async insert(columns, count, rowAt) {
      const c = await connect();
      await c.query('BEGIN');
      try {
        for (let from = 0; from < count; from += 10_000) {
          const rows = [];
          for (let i = from; i < Math.min(count, from + 10_000); i += 1) rows.push(rowAt(i));
          await c.query(insertSql(columns), arrays(columns, rows));
        }
        await c.query('COMMIT');
      } catch (error) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    async insertOne(columns, row) {
      const { rows } = await (await connect()).query(`${insertSql(columns)} RETURNING id`, arrays(columns, [row]));
      return rows[0].id;
    },
    async analyze() {
      await (await connect()).query('ANALYZE');
    },
    async count() {
      return Number((await (await connect()).query('SELECT count(*) AS n FROM speech_narrations')).rows[0].n);
    },
    async status(articleId) {
      return (
        (await (await connect()).query('SELECT status FROM speech_narrations WHERE article_id = $1', [articleId])).rows[0]?.status ?? null
      );
    },
    async statusById(id) {
      return (await (await connect()).query('SELECT status FROM speech_narrations WHERE id = $1', [id])).rows[0]?.status ?? null;
    },
    async installClaimProbe() {
      const c = await connect();
      await c.query(
        `CREATE TABLE IF NOT EXISTS bench_claims (narration_id integer, lease_expires_ms double precision, claimed_at_ms double precision)`
      );
      await c.query(`
        CREATE OR REPLACE FUNCTION bench_record_claim() RETURNS trigger AS $$
        BEGIN
          INSERT INTO bench_claims VALUES (NEW.id, extract(epoch FROM NEW.lease_expires_at) * 1000, extract(epoch FROM clock_timestamp()) * 1000);
          RETURN NEW;
        END $$ LANGUAGE plpgsql`);
      await c.query(`
        CREATE OR REPLACE TRIGGER bench_claims_trigger AFTER UPDATE OF status ON speech_narrations
        FOR EACH ROW WHEN (OLD.status = 'queued' AND NEW.status = 'submitting') EXECUTE FUNCTION bench_record_claim()`);
    },
    async claimRecord(id) {
      const row = (await (await connect()).query('SELECT lease_expires_ms, claimed_at_ms FROM bench_claims WHERE narration_id = $1', [id]))
        .rows[0];
      return row ? { tickStart: Number(row.lease_expires_ms) - LEASE_MS, claimedAt: Number(row.claimed_at_ms) } : null;
    },
    async close() {
      await closeClient();
      await stopCluster();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// One database at one size

async function runOne(kind, size) {
  const { workDir, remove: removeWorkDir } = playgroundWorkDir('speech-bench-scale-');
  const db = kind === 'sqlite' ? await sqliteDatabase(workDir) : await postgresDatabase();
  const label = `${db.label} ${size.toLocaleString('en-US')}`;
  const result = { db: kind, rows: size };
  try {
    const emulator = await startEmulator(API_KEY, ['--delay', '100', '--credits', '100000000', '--rate-limit', '1000/60']);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = playgroundEnv({ workDir, port, apiKey: API_KEY, emulator, extra: db.env });
    const startStrapi = () => startPlayground(workDir, env);
    const cm = (token) => contentManager(url, token, CONTENT_TYPE);
    const article = (n) => ({
      title: `Bench article ${n}`,
      summary: 'A short summary that the narration reads before the body.',
      body: [
        {
          type: 'paragraph',
          children: [{ type: 'text', text: `Paragraph one of article ${n}. The queue has room, so this goes out at once.` }],
        },
        { type: 'paragraph', children: [{ type: 'text', text: 'Paragraph two: a few more words for the speech service to read aloud.' }] },
      ],
    });

    // 1. Schema, an admin and 100 draft articles; then the rows, straight into the table.
    let started = Date.now();
    let strapi = await startStrapi();
    say(`${label}: schema created (first start ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    const firstToken = await adminToken(url, credentials);
    const drafts = [];
    for (let n = 0; n < DOCUMENTS; n += 1) drafts.push(await cm(firstToken).create(article(`draft-${n}`)));
    const locale = drafts[0].locale ?? 'en';
    await strapi.stop();

    const columns = insertColumns(await db.columns());
    const now = Date.now();
    const fingerprintBase = hex(28);
    const targetOf = (i) => (i < DOCUMENTS ? drafts[i].documentId : articleDocumentId(i));
    started = Date.now();
    await db.insert(columns, size, (i) => ({
      ...narrationRow(i, size, targetOf(i), now, fingerprintBase),
      target_locale: locale,
      article_id: `${targetOf(i)}-${locale}`,
    }));
    result.insertSeconds = (Date.now() - started) / 1000;
    started = Date.now();
    await db.analyze();
    result.analyzeSeconds = (Date.now() - started) / 1000;
    const count = await db.count();
    if (count !== size) throw new Error(`expected ${size} rows, the table has ${count}`);
    say(
      `${label}: inserted ${size.toLocaleString('en-US')} rows in ${result.insertSeconds.toFixed(1)} s, ANALYZE ${result.analyzeSeconds.toFixed(1)} s`
    );
    if (kind === 'sqlite') await db.close(); // no second connection while Strapi starts and idles

    // 2. Idle CPU with the default worker tick.
    started = Date.now();
    strapi = await startStrapi();
    result.startSeconds = (Date.now() - started) / 1000;
    await sleep(SETTLE_SECONDS * 1000);
    const dbPids = db.cpuPids();
    // The window is read in IDLE_WINDOWS equal parts: V8 sometimes shrinks Strapi's heap (about
    // 150 MB, whatever the table holds) once in the first minute of quiet, a burst on its helper
    // threads of up to a second of CPU at a random moment. The median part is the steady cost of
    // the worker's ticks; the whole window and the split by thread are printed beside it.
    const ticks = () => ({
      threads: threadTicks(strapi.pid),
      db: dbPids.reduce((sum, pid) => sum + (existsSafe(pid) ? cpuTicks(pid) : 0), 0),
      at: performance.now(),
    });
    const readings = [ticks()];
    for (let part = 0; part < IDLE_WINDOWS; part += 1) {
      await sleep((IDLE_SECONDS * 1000) / IDLE_WINDOWS);
      readings.push(ticks());
    }
    const percent = (ticksUsed, from, to) => (ticksUsed / CLK_TCK / ((to.at - from.at) / 1000)) * 100;
    const first = readings[0];
    const last = readings[readings.length - 1];
    const seconds = (last.at - first.at) / 1000;
    const parts = readings.slice(1).map((to, i) => {
      const from = readings[i];
      return percent(to.threads.main + to.threads.helpers - from.threads.main - from.threads.helpers, from, to);
    });
    result.idleCpuWindowsPercent = parts.map((p) => Math.round(p * 100) / 100);
    result.idleCpuPercent = quantile(parts, 0.5);
    result.idleCpuWholePercent = percent(
      last.threads.main + last.threads.helpers - first.threads.main - first.threads.helpers,
      first,
      last
    );
    result.idleCpuMainPercent = percent(last.threads.main - first.threads.main, first, last);
    result.dbIdleCpuPercent = dbPids.length ? percent(last.db - first.db, first, last) : null;
    result.rssBytes = memoryOf(strapi.pid).rss;
    say(
      `${label}: idle CPU ${result.idleCpuPercent.toFixed(2)} % of a core (median of ${IDLE_WINDOWS} parts: ${parts.map((p) => p.toFixed(2)).join(', ')}); ` +
        `whole ${seconds.toFixed(1)} s ${result.idleCpuWholePercent.toFixed(2)} %, of which main thread ${result.idleCpuMainPercent.toFixed(2)} % ` +
        `(Strapi start ${result.startSeconds.toFixed(1)} s, RSS ${(result.rssBytes / 1048576).toFixed(0)} MB)` +
        (result.dbIdleCpuPercent === null ? '' : `; PostgreSQL processes ${result.dbIdleCpuPercent.toFixed(2)} %`)
    );

    // 3. Statuses of 100 documents.
    const token = await adminToken(url, credentials, { registered: true });
    const statusesBody = { contentType: CONTENT_TYPE, documentIds: drafts.map((d) => d.documentId) };
    // Interleaved with a control: the admin's own `GET /admin/users/me` passes the same
    // authentication (token, user, roles, the permission engine building the ability) and does
    // almost nothing else, so it is the floor any admin request pays on this machine.
    const timings = [];
    const floor = [];
    for (let run = 0; run < STATUS_WARMUPS + STATUS_RUNS; run += 1) {
      let t0 = performance.now();
      const me = await json(`${url}/admin/users/me`, 'GET', undefined, token);
      const floorMs = performance.now() - t0;
      if (me.status !== 200) throw new Error(`users/me failed: ${me.status} ${JSON.stringify(me.body)}`);
      t0 = performance.now();
      const res = await json(`${url}/speech/narrations/statuses`, 'POST', statusesBody, token);
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`statuses failed: ${res.status} ${JSON.stringify(res.body)}`);
      if (res.body.data.length !== DOCUMENTS) throw new Error(`statuses answered ${res.body.data.length} rows, expected ${DOCUMENTS}`);
      if (run >= STATUS_WARMUPS) {
        timings.push(ms);
        floor.push(floorMs);
      }
    }
    result.statusesMs = { p50: quantile(timings, 0.5), p95: quantile(timings, 0.95), runs: timings.map((t) => Math.round(t * 10) / 10) };
    result.adminFloorMs = { p50: quantile(floor, 0.5), p95: quantile(floor, 0.95) };
    say(
      `${label}: statuses of ${DOCUMENTS} documents p50 ${result.statusesMs.p50.toFixed(1)} ms, p95 ${result.statusesMs.p95.toFixed(1)} ms; ` +
        `the admin's own GET /admin/users/me (same authentication) p50 ${result.adminFloorMs.p50.toFixed(1)} ms, p95 ${result.adminFloorMs.p95.toFixed(1)} ms`
    );

    // 4. Publish -> submission, one article at a time, each narration completed before the next.
    const publishes = [];
    for (let n = 0; n < PUBLISHES; n += 1) {
      const draft = await cm(token).create(article(`publish-${n}`));
      const articleId = `${draft.documentId}-${draft.locale ?? locale}`;
      const sent = Date.now();
      await cm(token).publish(draft.documentId);
      const answered = Date.now();
      const request = await waitFor(
        async () => {
          const log = await json(`${emulator.info.url}/__control/requests?path=/process-text&method=POST`, 'GET');
          return (log.body.requests ?? []).find((entry) => entry.body?.postData?.articleId === articleId);
        },
        { timeoutMs: 60_000, intervalMs: 25, what: `the submission of ${articleId}` }
      );
      const arrived = Date.parse(request.at);
      publishes.push({ articleId, publishMs: answered - sent, fromResponseMs: arrived - answered, fromRequestMs: arrived - sent });
      await waitFor(async () => ['completed', 'failed'].includes(await db.status(articleId)), {
        timeoutMs: 60_000,
        intervalMs: 50,
        what: `the narration of ${articleId} to complete`,
      });
    }
    const fromResponse = publishes.map((p) => p.fromResponseMs);
    result.publishToSubmitMs = { p50: quantile(fromResponse, 0.5), max: Math.max(...fromResponse), runs: publishes };
    say(
      `${label}: publish response -> POST /process-text p50 ${result.publishToSubmitMs.p50} ms, max ${result.publishToSubmitMs.max} ms (${fromResponse.join(', ')})`
    );

    // 5. Claims of a queued row inserted straight into the table.
    await db.installClaimProbe();
    const claims = [];
    for (let n = 0; n < CLAIMS; n += 1) {
      const inserted = Date.now();
      const id = await db.insertOne(columns, { ...queuedRow(n, inserted), target_locale: locale });
      const record = await waitFor(() => db.claimRecord(id), { timeoutMs: 30_000, intervalMs: 20, what: `the claim of queued row ${id}` });
      claims.push({ claimMs: record.claimedAt - record.tickStart, insertToClaimMs: record.claimedAt - inserted });
      // The worker rejects it (no such article) right after the claim; wait so the next one starts clean.
      await waitFor(async () => (await db.statusById(id)) !== 'submitting', {
        timeoutMs: 30_000,
        intervalMs: 20,
        what: `row ${id} to leave submitting`,
      });
    }
    const claimMs = claims.map((c) => c.claimMs);
    result.claimMs = {
      p50: quantile(claimMs, 0.5),
      max: Math.max(...claimMs),
      runs: claims.map((c) => ({ claimMs: Math.round(c.claimMs * 10) / 10, insertToClaimMs: Math.round(c.insertToClaimMs) })),
    };
    say(`${label}: claim (tick start -> claim written) p50 ${result.claimMs.p50.toFixed(1)} ms, max ${result.claimMs.max.toFixed(1)} ms`);

    await strapi.stop();
    await emulator.stop();
    return result;
  } finally {
    await db.close();
    await removeWorkDir();
  }
}

function existsSafe(pid) {
  return existsSync(`/proc/${pid}/stat`);
}

// ---------------------------------------------------------------------------------------------
// Output

function table(kind, results) {
  const rows = results.filter((r) => r.db === kind);
  if (rows.length === 0) return;
  const withDb = rows.some((r) => r.dbIdleCpuPercent !== null);
  const header = [
    'rows',
    'idle CPU %',
    'whole / main %',
    ...(withDb ? ['db idle CPU %'] : []),
    'statuses p50/p95 ms',
    'users/me p50 ms',
    'publish->submit p50/max ms',
    'claim p50/max ms',
    'insert s',
  ];
  const lines = rows.map((r) => [
    r.rows.toLocaleString('en-US'),
    r.idleCpuPercent.toFixed(2),
    `${r.idleCpuWholePercent.toFixed(2)} / ${r.idleCpuMainPercent.toFixed(2)}`,
    ...(withDb ? [r.dbIdleCpuPercent.toFixed(2)] : []),
    `${r.statusesMs.p50.toFixed(1)} / ${r.statusesMs.p95.toFixed(1)}`,
    r.adminFloorMs.p50.toFixed(1),
    `${r.publishToSubmitMs.p50} / ${r.publishToSubmitMs.max}`,
    `${r.claimMs.p50.toFixed(1)} / ${r.claimMs.max.toFixed(1)}`,
    r.insertSeconds.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells) => `| ${cells.map((c, i) => c.padStart(widths[i])).join(' | ')} |`;
  console.log('');
  console.log(
    kind === 'sqlite'
      ? 'SQLite (queries run inside the Strapi process)'
      : 'PostgreSQL (private cluster; "db idle CPU" = its processes, fsync off)'
  );
  console.log(format(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const line of lines) console.log(format(line));
  const small = rows[0];
  const large = rows[rows.length - 1];
  if (rows.length > 1) {
    const ratio = large.idleCpuPercent / small.idleCpuPercent;
    console.log(
      `idle CPU ${large.rows.toLocaleString('en-US')} / ${small.rows.toLocaleString('en-US')} rows: ${ratio.toFixed(2)}x (target < 2x)`
    );
  }
  if (withDb) {
    // The targets name the Strapi process; on PostgreSQL the tick's queries cost CPU in the cluster instead.
    const total = (r) => r.idleCpuPercent + r.dbIdleCpuPercent;
    console.log(
      `Strapi + PostgreSQL processes idle (not a target, for comparison): ${rows.map((r) => `${total(r).toFixed(2)} %`).join(' -> ')}` +
        (rows.length > 1 ? ` (${(total(large) / total(small)).toFixed(2)}x)` : '')
    );
  }
  const verdict = (ok) => (ok ? 'OK' : 'OVER');
  const idleOk = rows.every((r) => r.idleCpuPercent < 1);
  const statusesOk = rows.every((r) => r.statusesMs.p50 < 20);
  const publishOk = rows.every((r) => r.publishToSubmitMs.p50 < 200);
  const ratioOk = rows.length < 2 || large.idleCpuPercent / small.idleCpuPercent < 2;
  console.log(
    `targets: idle CPU < 1 % ${verdict(idleOk)}; growth < 2x ${verdict(ratioOk)}; statuses p50 < 20 ms ${verdict(statusesOk)}; publish->submit p50 < 200 ms ${verdict(publishOk)}`
  );
  return idleOk && statusesOk && publishOk && ratioOk;
}

function explain() {
  console.log('');
  console.log(
    `idle CPU: CPU time of the Strapi process (all its threads, schedstat), % of one core, default 2 s worker tick; the median of ${IDLE_WINDOWS} equal parts of the idle window ` +
      '(a one-off heap reduction by V8 on its helper threads lands in one part); "whole / main": the whole window, and its main thread alone (JavaScript and SQLite queries).'
  );
  console.log(
    `statuses: POST /speech/narrations/statuses for ${DOCUMENTS} documents that have rows, wall time at the client, ${STATUS_RUNS} runs after ${STATUS_WARMUPS} warm-ups.`
  );
  console.log(
    "users/me: the admin's own GET /admin/users/me, interleaved with the statuses requests: the same authentication and almost nothing else (the floor of an admin request here)."
  );
  console.log(
    `publish->submit: Content Manager publish response -> emulator receives POST /process-text for that article, ${PUBLISHES} articles one at a time.`
  );
  console.log(
    `claim: start of the worker tick that claims a queued row -> its claim (queued -> submitting) written, read from lease_expires_at and a trigger; ${CLAIMS} rows.`
  );
}

async function main() {
  if (process.platform !== 'linux') throw new Error('this benchmark reads /proc and runs on Linux only');
  ensureBuilt(argv, say);
  say(
    `sizes ${SIZES.map((n) => n.toLocaleString('en-US')).join(', ')} on ${DATABASES.join(', ')}; idle window ${IDLE_SECONDS} s after ${SETTLE_SECONDS} s`
  );
  const results = [];
  const benchStarted = Date.now();
  for (const kind of DATABASES) {
    for (const size of SIZES) {
      const started = Date.now();
      results.push(await runOne(kind, size));
      say(`${kind} ${size.toLocaleString('en-US')} done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  console.log('');
  console.log(JSON.stringify({ event: 'bench-scale', idleSeconds: IDLE_SECONDS, results }));
  explain();
  let ok = true;
  for (const kind of DATABASES) ok = table(kind, results) && ok;
  console.log('');
  say(`total ${((Date.now() - benchStarted) / 60000).toFixed(1)} min`);
  if (!ok) process.exitCode = 1;
}

cleanUpOnSignals(say);
main()
  .catch((error) => {
    console.error(`[bench-scale] ${error.stack ?? error}`);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
