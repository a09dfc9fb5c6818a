/**
 * The scale bench's two databases behind one interface: the environment that points Strapi at it,
 * the columns of `speech_narrations`, bulk inserts, counts and statuses, and a trigger recording
 * when the worker claims a queued row (`leaseMs`: the lease the claim writes, to find the tick's start).
 * SQLite is the playground's file; PostgreSQL a private cluster (scripts/postgres-cluster.cjs).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { onCleanup } from '../../bench-support.mjs';
import { clusterPids } from '../process-cpu.mjs';
import { startStrapiPostgres } from '../postgres-strapi.mjs';

const require = createRequire(import.meta.url);

export async function sqliteDatabase(workDir, { leaseMs }) {
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
      return { tickStart: lease - leaseMs, claimedAt: row.at };
    },
    async close() {
      db?.close();
      db = null;
    },
  };
}

export async function postgresDatabase({ leaseMs }) {
  const { cluster, url, stopCluster, connect, closeClient } = await startStrapiPostgres();
  const postmasterPid = Number(readFileSync(path.join(cluster.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
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
      return row ? { tickStart: Number(row.lease_expires_ms) - leaseMs, claimedAt: Number(row.claimed_at_ms) } : null;
    },
    async close() {
      await closeClient();
      await stopCluster();
    },
  };
}
