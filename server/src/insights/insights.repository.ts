import { randomBytes } from 'crypto';
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { NO_LOCALE_KEY } from '../../../shared/contracts/common';
import { LISTENING_MILESTONES } from '../../../shared/contracts/insights';
import { LISTENING_DAY_UID, LISTENING_SALT_UID, LISTENING_UNIQUE_UID } from '../content-types';
import { addToTotals } from '../utils';
import { narrationDayKey, type DayDelta, type TallyBatch, type UniqueKind, type UniqueSighting } from './domain/tally';
import type { DayTotals } from './domain/views';

/**
 * The insights' tables. Flushes take turns on the day's salt row, so two instances flushing at once
 * add up exactly: each hash is new to one of them only.
 */

type Row = Record<string, unknown>;
const n = (value: unknown) => Number(value ?? 0);
/** SQLite binds at most 32,766 values; four a row. */
const UNIQUES_PER_INSERT = 500;
const IDS_PER_QUERY = 500;

/** The insights' three tables, by the names and columns Strapi gave them. */
function tablesOf(strapi: Core.Strapi) {
  const knex = () => strapi.db.connection;
  const meta = (uid: string) => strapi.db.metadata.get(uid);
  const column = (uid: string, attribute: string) => (meta(uid).attributes[attribute] as { columnName?: string }).columnName ?? attribute;
  const days = () => meta(LISTENING_DAY_UID).tableName;
  const uniques = () => meta(LISTENING_UNIQUE_UID).tableName;
  const salts = () => meta(LISTENING_SALT_UID).tableName;
  const reachedColumns = () => LISTENING_MILESTONES.map((milestone) => column(LISTENING_DAY_UID, `reached${milestone}`));

  return { knex, column, days, uniques, salts, reachedColumns };
}
type Tables = ReturnType<typeof tablesOf>;

async function addDay(t: Tables, trx: Knex.Transaction, delta: DayDelta, added: Record<UniqueKind, number>, at: Date) {
  const c = (attribute: string) => t.column(LISTENING_DAY_UID, attribute);
  const key = { [c('day')]: delta.day, [c('articleId')]: delta.target.articleId };
  const amounts: Record<string, number> = {
    [c('plays')]: delta.plays,
    [c('decisecondsHeard')]: delta.deciseconds,
    [c('listeners')]: added.listener,
    [c('downloads')]: added.download,
  };
  t.reachedColumns().forEach((name, index) => (amounts[name] = delta.reached[index]));
  // NO_LOCALE_KEY, not NULL: a unique key holds NULL differently per database.
  const replaced: Record<string, unknown> = {
    [c('contentType')]: delta.target.contentType,
    [c('targetDocumentId')]: delta.target.documentId,
    [c('targetLocale')]: delta.target.locale ?? NO_LOCALE_KEY,
  };
  await addToTotals(trx, t.days(), key, amounts, at, replaced);
}

async function unseen(t: Tables, trx: Knex.Transaction, sightings: UniqueSighting[]): Promise<UniqueSighting[]> {
  const u = (attribute: string) => t.column(LISTENING_UNIQUE_UID, attribute);
  const groups = new Map<string, UniqueSighting[]>();
  for (const sighting of sightings) {
    const key = `${sighting.day}\n${sighting.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), sighting]);
  }
  const fresh: UniqueSighting[] = [];
  for (const group of groups.values()) {
    for (let start = 0; start < group.length; start += IDS_PER_QUERY) {
      const chunk = group.slice(start, start + IDS_PER_QUERY);
      const stored = new Set(
        (
          (await trx(t.uniques())
            .select(u('hash'))
            .where(u('day'), chunk[0].day)
            .andWhere(u('kind'), chunk[0].kind)
            .whereIn(
              u('hash'),
              chunk.map((sighting) => sighting.hash)
            )) as Row[]
        ).map((row) => String(row[u('hash')]))
      );
      fresh.push(...chunk.filter((sighting) => !stored.has(sighting.hash)));
    }
  }
  return fresh;
}

function toDayRow(t: Tables, row: Row): DayTotals {
  const c = (attribute: string) => row[t.column(LISTENING_DAY_UID, attribute)];
  return {
    day: String(c('day')),
    articleId: String(c('articleId')),
    contentType: (c('contentType') as string | null) ?? null,
    documentId: (c('targetDocumentId') as string | null) ?? null,
    locale: String(c('targetLocale') ?? NO_LOCALE_KEY),
    plays: n(c('plays')),
    listeners: n(c('listeners')),
    reached: LISTENING_MILESTONES.map((milestone) => n(c(`reached${milestone}`))),
    deciseconds: n(c('decisecondsHeard')),
    downloads: n(c('downloads')),
  };
}

/** A flush's totals and hashes written, the day's salt, and what is past its keeping. */
function tallyWrites(t: Tables) {
  return {
    /**
     * All or nothing, so a failed batch is kept whole for the next flush. Rows are written in one
     * order (day, narration), so two flushes never wait on each other in a cycle.
     */
    async write(batch: TallyBatch, at: Date, lockDay: string) {
      const u = (attribute: string) => t.column(LISTENING_UNIQUE_UID, attribute);
      const sightings = [...batch.uniques].sort(
        (a, b) => a.day.localeCompare(b.day) || a.kind.localeCompare(b.kind) || a.hash.localeCompare(b.hash)
      );
      const deltas = [...batch.days].sort((a, b) => a.day.localeCompare(b.day) || a.target.articleId.localeCompare(b.target.articleId));
      await t.knex().transaction(async (trx) => {
        await trx(t.salts())
          .select(t.column(LISTENING_SALT_UID, 'day'))
          .where(t.column(LISTENING_SALT_UID, 'day'), lockDay)
          .forUpdate()
          .first();
        const fresh = await unseen(t, trx, sightings);
        for (let start = 0; start < fresh.length; start += UNIQUES_PER_INSERT) {
          const rows = fresh.slice(start, start + UNIQUES_PER_INSERT).map((sighting) => ({
            [u('day')]: sighting.day,
            [u('kind')]: sighting.kind,
            [u('articleId')]: sighting.articleId,
            [u('hash')]: sighting.hash,
            created_at: at,
            updated_at: at,
          }));
          await trx(t.uniques()).insert(rows);
        }
        const added = new Map<string, Record<UniqueKind, number>>();
        for (const sighting of fresh) {
          const key = narrationDayKey(sighting.day, sighting.articleId);
          const counts = added.get(key) ?? { listener: 0, download: 0 };
          counts[sighting.kind] += 1;
          added.set(key, counts);
        }
        for (const delta of deltas)
          await addDay(t, trx, delta, added.get(narrationDayKey(delta.day, delta.target.articleId)) ?? { listener: 0, download: 0 }, at);
      });
    },

    /** The unique day decides a race between instances: the loser reads the winner's. */
    async saltOf(day: string, at: Date): Promise<string> {
      const s = (attribute: string) => t.column(LISTENING_SALT_UID, attribute);
      const read = async () =>
        ((await t.knex()(t.salts()).select(s('salt')).where(s('day'), day).first()) as Row | undefined)?.[s('salt')] as string | undefined;
      const existing = await read();
      if (existing) return existing;
      await t
        .knex()(t.salts())
        .insert({ [s('day')]: day, [s('salt')]: randomBytes(32).toString('hex'), created_at: at, updated_at: at })
        .onConflict([s('day')])
        .ignore();
      const salt = await read();
      if (!salt) throw new Error(`No listening salt for ${day}.`);
      return salt;
    },

    async forget(day: string, hashesBefore: string): Promise<void> {
      await t.knex()(t.salts()).where(t.column(LISTENING_SALT_UID, 'day'), '<', day).delete();
      await t.knex()(t.uniques()).where(t.column(LISTENING_UNIQUE_UID, 'day'), '<', hashesBefore).delete();
    },

    async pruneDays(day: string): Promise<number> {
      return t.knex()(t.days()).where(t.column(LISTENING_DAY_UID, 'day'), '<', day).delete();
    },
  };
}

/** The daily totals, as they are or summed by article or day. */
function dayReads(t: Tables) {
  return {
    async days(first: string, last: string, articleIds?: string | string[]): Promise<DayTotals[]> {
      const c = (attribute: string) => t.column(LISTENING_DAY_UID, attribute);
      const range = () => t.knex()(t.days()).where(c('day'), '>=', first).andWhere(c('day'), '<=', last);
      if (articleIds === undefined) return ((await range()) as Row[]).map((row) => toDayRow(t, row));
      const ids = typeof articleIds === 'string' ? [articleIds] : articleIds;
      const rows: DayTotals[] = [];
      for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
        const chunk = ids.slice(start, start + IDS_PER_QUERY);
        rows.push(...((await range().whereIn(c('articleId'), chunk)) as Row[]).map((row) => toDayRow(t, row)));
      }
      return rows;
    },

    /** Summed in the database, so the site's view never reads every narration's every day. */
    async sums(first: string, last: string, group: 'article' | 'day'): Promise<DayTotals[]> {
      const c = (attribute: string) => t.column(LISTENING_DAY_UID, attribute);
      const keys =
        group === 'article' ? ['articleId', 'contentType', 'targetDocumentId', 'targetLocale'] : ['day', 'contentType', 'targetLocale'];
      const summed = [
        'plays',
        'listeners',
        ...LISTENING_MILESTONES.map((milestone) => `reached${milestone}`),
        'decisecondsHeard',
        'downloads',
      ];
      const db = t.knex();
      const rows = (await db(t.days())
        .select(keys.map(c))
        .select(summed.map((attribute) => db.raw('sum(??) as ??', [c(attribute), c(attribute)])))
        .where(c('day'), '>=', first)
        .andWhere(c('day'), '<=', last)
        .groupBy(keys.map(c))) as Row[];
      return rows.map((row) => toDayRow(t, { [c('day')]: '', [c('articleId')]: '', ...row }));
    },
  };
}

export function createInsightsRepository(strapi: Core.Strapi) {
  const tables = tablesOf(strapi);
  return { ...tallyWrites(tables), ...dayReads(tables) };
}

export type InsightsRepository = ReturnType<typeof createInsightsRepository>;
