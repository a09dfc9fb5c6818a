/**
 * The usage bench's databases: the playground's SQLite file, or a private PostgreSQL cluster
 * (scripts/postgres-cluster.cjs, as the scale bench), and the seeding of the ledger's three tables
 * straight into them: better-sqlite3 prepared statements in one transaction; PostgreSQL one
 * `INSERT ... SELECT FROM unnest($1::type[], ...)` per 10,000 rows, in one transaction. Rows are
 * given in the plugin's camelCase shape and written to the columns Strapi made (snake_case); the
 * columns Strapi adds itself (document_id, created_at, updated_at, published_at) are filled too.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { onCleanup } from '../../bench-support.mjs';
import { startStrapiPostgres } from '../postgres-strapi.mjs';

const require = createRequire(import.meta.url);
const BATCH = 10_000;
export const TABLES = { entries: 'speech_ledger_entries', days: 'speech_ledger_days', articles: 'speech_ledger_articles' };

/** A row's value for a column: its own field, or what Strapi writes itself. */
function valueOf(row, column, index) {
  switch (column) {
    case 'id':
      return undefined;
    case 'document_id':
      return `bench${index.toString(36).padStart(19, '0')}`;
    case 'created_at':
    case 'updated_at':
    case 'published_at':
      return row.at ?? row.acceptedAt;
    default: {
      const field = column.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
      return row[field] ?? null;
    }
  }
}

/** The columns of a table the rows fill: all but the id, which is the database's. */
const fillable = (columns) => columns.filter((name) => name !== 'id');

export async function sqliteDatabase(workDir) {
  const Database = require('better-sqlite3');
  const file = path.join(workDir, 'data.db');
  let db = null;
  const open = () => (db ??= new Database(file));
  onCleanup('sqlite connection', () => db?.close());
  const encode = (value) => (typeof value === 'boolean' ? Number(value) : value);
  return {
    label: 'SQLite',
    env: { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: file },
    /** Writes the entries (an iterable) and then the totals `after()` gives, in one transaction. */
    async seed(entries, add, after) {
      const connection = open();
      const columnsOf = (table) =>
        connection
          .prepare(`PRAGMA table_info(${table})`)
          .all()
          .map((c) => c.name);
      const statementFor = (table, columns) =>
        connection.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      const write = (table, rows) => {
        let statement = null;
        let columns = null;
        let index = 0;
        for (const row of rows) {
          columns ??= fillable(columnsOf(table));
          statement ??= statementFor(table, columns);
          statement.run(columns.map((name) => encode(valueOf(row, name, index))));
          index += 1;
        }
        return index;
      };
      const counts = {};
      connection.transaction(() => {
        counts.entries = write(
          TABLES.entries,
          (function* each() {
            for (const entry of entries) {
              add(entry);
              yield entry;
            }
          })()
        );
        const totals = after();
        counts.days = write(TABLES.days, totals.days);
        counts.articles = write(TABLES.articles, totals.articles);
      })();
      return counts;
    },
    async analyze() {
      open().exec('ANALYZE');
    },
    async count(table) {
      return open().prepare(`SELECT count(*) AS n FROM ${table}`).get().n;
    },
    async close() {
      db?.close();
      db = null;
    },
  };
}

export async function postgresDatabase() {
  const { url, stopCluster, connect, closeClient } = await startStrapiPostgres();

  async function typesOf(table) {
    const { rows } = await (
      await connect()
    ).query(`SELECT column_name, udt_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`, [table]);
    return Object.fromEntries(rows.map((r) => [r.column_name, r.udt_name]));
  }
  const encode = (value, type) => {
    if (value === null || value === undefined) return null;
    if (type.startsWith('timestamp')) return new Date(value).toISOString();
    return value;
  };

  async function write(c, table, rows) {
    const types = await typesOf(table);
    let columns = null;
    let batch = [];
    let index = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const arrays = columns.map((name) => batch.map(([row, i]) => encode(valueOf(row, name, i), types[name])));
      await c.query(
        `INSERT INTO ${table} (${columns.map((name) => `"${name}"`).join(', ')}) SELECT * FROM unnest(${columns.map((name, i) => `$${i + 1}::${types[name]}[]`).join(', ')})`,
        arrays
      );
      batch = [];
    };
    for (const row of rows) {
      columns ??= fillable(Object.keys(types));
      batch.push([row, index]);
      index += 1;
      if (batch.length === BATCH) await flush();
    }
    await flush();
    return index;
  }

  return {
    label: 'PostgreSQL',
    env: { DATABASE_CLIENT: 'postgres', DATABASE_URL: url('strapi') },
    async seed(entries, add, after) {
      const c = await connect();
      await c.query('BEGIN');
      try {
        const counts = {};
        counts.entries = await write(
          c,
          TABLES.entries,
          (function* each() {
            for (const entry of entries) {
              add(entry);
              yield entry;
            }
          })()
        );
        const totals = after();
        counts.days = await write(c, TABLES.days, totals.days);
        counts.articles = await write(c, TABLES.articles, totals.articles);
        await c.query('COMMIT');
        return counts;
      } catch (error) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    async analyze() {
      await (await connect()).query('ANALYZE');
    },
    async count(table) {
      return Number((await (await connect()).query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
    },
    async close() {
      await closeClient();
      await stopCluster();
    },
  };
}
