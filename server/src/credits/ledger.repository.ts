import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import type { LedgerCause, LedgerKind, LedgerOutcome } from '../../../shared/contracts/usage';
import { LEDGER_ARTICLE_UID, LEDGER_DAY_UID, LEDGER_ENTRY_UID } from '../content-types';
import { addToTotals } from '../utils';
import { NO_LOCALE, dayKeyOf, deltaOnRecord, deltaOnSettle, spentOf, type DayDelta, type DayKey } from './domain/totals';

/**
 * The ledger's tables, entries and their totals written in one transaction. Totals are added by an
 * upsert on their unique key, so two instances recording at once both count.
 */

export interface NewLedgerEntry {
  articleId: string;
  kind: LedgerKind;
  cause: LedgerCause;
  causedBy: string | null;
  contentType: string | null;
  targetDocumentId: string | null;
  targetLocale: string | null;
  title: string | null;
  narrationId: number | null;
  characters: number;
  factor: number;
  regenerate: boolean;
  credits: number;
  outcome: LedgerOutcome;
  acceptedAt: Date;
  /** YYYY-MM-DD in the budget's time zone. */
  day: string;
  creditsRemaining: number | null;
}

export interface LedgerEntryRow extends Omit<NewLedgerEntry, 'acceptedAt'> {
  id: number;
  acceptedAt: string;
  settledAt: string | null;
}

export interface DayTotalRow extends DayKey, DayDelta {}

export interface ArticleMonthRow {
  month: string;
  contentType: string;
  targetDocumentId: string;
  targetLocale: string;
  title: string | null;
  spent: number;
  entries: number;
}

type Row = Record<string, unknown>;
const n = (value: unknown) => Number(value ?? 0);

/** An entry recorded or settled, with its day's and its article-month's totals in the same transaction. */
function ledgerWrites(strapi: Core.Strapi) {
  const entries = () => strapi.db.query(LEDGER_ENTRY_UID);
  const tableOf = (uid: string) => strapi.db.metadata.get(uid).tableName;

  async function addToDay(trx: Knex.Transaction, key: DayKey, delta: DayDelta, at: Date) {
    const columns = { day: key.day, source: key.source, target_locale: key.targetLocale, kind: key.kind };
    await addToTotals(trx, tableOf(LEDGER_DAY_UID), columns, { ...delta }, at);
  }

  async function addToArticle(
    trx: Knex.Transaction,
    entry: Pick<NewLedgerEntry, 'contentType' | 'targetDocumentId' | 'targetLocale' | 'title'>,
    month: string,
    spent: number,
    added: number,
    at: Date
  ) {
    if (!entry.contentType || !entry.targetDocumentId) return;
    const key = {
      month,
      content_type: entry.contentType,
      target_document_id: entry.targetDocumentId,
      target_locale: entry.targetLocale ?? NO_LOCALE,
    };
    await addToTotals(trx, tableOf(LEDGER_ARTICLE_UID), key, { spent, entries: added }, at, entry.title ? { title: entry.title } : {});
  }

  const monthOfDay = (day: string) => day.slice(0, 7);

  return {
    async record(entry: NewLedgerEntry): Promise<LedgerEntryRow> {
      return strapi.db.transaction(async ({ trx }) => {
        const row = (await entries().create({
          data: { ...entry, settledAt: entry.outcome === 'pending' ? null : entry.acceptedAt },
        })) as LedgerEntryRow;
        const delta = deltaOnRecord(entry);
        await addToDay(trx, dayKeyOf(entry, entry.day), delta, entry.acceptedAt);
        await addToArticle(trx, entry, monthOfDay(entry.day), spentOf(delta), 1, entry.acceptedAt);
        return row;
      });
    },

    /** False when another writer settled it first (a duplicate callback on another instance). */
    async settle(entry: LedgerEntryRow, outcome: LedgerOutcome, at: Date): Promise<boolean> {
      return strapi.db.transaction(async ({ trx }) => {
        const { count } = await entries().updateMany({ where: { id: entry.id, outcome: 'pending' }, data: { outcome, settledAt: at } });
        if (count !== 1) return false;
        const delta = deltaOnSettle(entry.credits, 'pending', outcome);
        await addToDay(trx, dayKeyOf(entry, entry.day), delta, at);
        if (delta.refunded !== 0) await addToArticle(trx, entry, monthOfDay(entry.day), -delta.refunded, 0, at);
        return true;
      });
    },
  };
}

/** The entries and totals the budget, the usage page and its CSV read. */
function ledgerReads(strapi: Core.Strapi) {
  const entries = () => strapi.db.query(LEDGER_ENTRY_UID);
  const tableOf = (uid: string) => strapi.db.metadata.get(uid).tableName;
  const knex = () => strapi.db.connection;

  return {
    async pendingFor(articleId: string): Promise<LedgerEntryRow[]> {
      const rows = (await entries().findMany({ where: { articleId, outcome: 'pending' }, orderBy: [{ id: 'desc' }] })) as LedgerEntryRow[];
      return rows.filter((row) => row.articleId === articleId);
    },

    /** What a narration's requests (its parts' too) charged, and how each ended. */
    async ofNarration(narrationId: number): Promise<Array<Pick<LedgerEntryRow, 'acceptedAt' | 'credits' | 'outcome'>>> {
      return (await entries().findMany({
        where: { narrationId, kind: { $in: ['narration', 'part'] } },
        select: ['acceptedAt', 'credits', 'outcome'],
        orderBy: [{ id: 'asc' }],
      })) as Array<Pick<LedgerEntryRow, 'acceptedAt' | 'credits' | 'outcome'>>;
    },

    async hasEntryFor(articleId: string): Promise<boolean> {
      const row = (await entries().findOne({ where: { articleId }, select: ['id', 'articleId'] })) as { articleId: string } | null;
      return row !== null && row.articleId === articleId;
    },

    async days(first: string, last: string): Promise<DayTotalRow[]> {
      const rows = (await knex()(tableOf(LEDGER_DAY_UID))
        .select('day', 'source', 'target_locale', 'kind', 'charged', 'refunded', 'pending', 'entries', 'refunds', 'redeliveries')
        .where('day', '>=', first)
        .andWhere('day', '<=', last)) as Row[];
      return rows.map((row) => ({
        day: String(row.day),
        source: String(row.source),
        targetLocale: String(row.target_locale ?? NO_LOCALE),
        kind: row.kind as LedgerKind,
        charged: n(row.charged),
        refunded: n(row.refunded),
        pending: n(row.pending),
        entries: n(row.entries),
        refunds: n(row.refunds),
        redeliveries: n(row.redeliveries),
      }));
    },

    async spentBySource(first: string, last: string): Promise<Record<string, number>> {
      const rows = (await knex()(tableOf(LEDGER_DAY_UID))
        .select('source')
        .sum({ charged: 'charged' })
        .sum({ refunded: 'refunded' })
        .where('day', '>=', first)
        .andWhere('day', '<=', last)
        .groupBy('source')) as Row[];
      return Object.fromEntries(rows.map((row) => [String(row.source), n(row.charged) - n(row.refunded)]));
    },

    /** Everything ever spent: the balance's drift is measured against it. */
    async spentEver(): Promise<number> {
      const [row] = (await knex()(tableOf(LEDGER_DAY_UID)).sum({ charged: 'charged' }).sum({ refunded: 'refunded' })) as Row[];
      return n(row?.charged) - n(row?.refunded);
    },

    /** Ties in a stable order, for paging. */
    async topArticles(month: string, limit: number, offset = 0): Promise<ArticleMonthRow[]> {
      const rows = (await knex()(tableOf(LEDGER_ARTICLE_UID))
        .select('month', 'content_type', 'target_document_id', 'target_locale', 'title', 'spent', 'entries')
        .where('month', month)
        .orderBy([
          { column: 'spent', order: 'desc' },
          { column: 'id', order: 'asc' },
        ])
        .offset(offset)
        .limit(limit)) as Row[];
      return rows.map((row) => ({
        month: String(row.month),
        contentType: String(row.content_type),
        targetDocumentId: String(row.target_document_id),
        targetLocale: String(row.target_locale ?? NO_LOCALE),
        title: (row.title as string | null) ?? null,
        spent: n(row.spent),
        entries: n(row.entries),
      }));
    },

    async page(afterId: number, limit: number): Promise<LedgerEntryRow[]> {
      return (await entries().findMany({ where: { id: { $gt: afterId } }, orderBy: [{ id: 'asc' }], limit })) as LedgerEntryRow[];
    },
  };
}

/** What each causer of one cause spent: the backfills' credits. */
function causeTotals(strapi: Core.Strapi) {
  const knex = () => strapi.db.connection;
  const table = () => strapi.db.metadata.get(LEDGER_ENTRY_UID).tableName;
  return {
    /** What the requests of one cause charged, by causer, less what was refunded or re-delivered free. */
    async spentBy(cause: string, causedBy: readonly string[]): Promise<Map<string, number>> {
      if (causedBy.length === 0) return new Map();
      const rows = (await knex()(table())
        .select('caused_by')
        .sum({ credits: 'credits' })
        .where({ cause })
        .whereIn('caused_by', [...causedBy])
        .whereNotIn('outcome', ['refunded', 'redelivered'])
        .groupBy('caused_by')) as Array<{ caused_by: string; credits: number | string | null }>;
      return new Map(rows.map((row) => [row.caused_by, Number(row.credits ?? 0)]));
    },
  };
}

export function createLedgerRepository(strapi: Core.Strapi) {
  return { ...ledgerWrites(strapi), ...ledgerReads(strapi), ...causeTotals(strapi) };
}

export type LedgerRepository = ReturnType<typeof createLedgerRepository>;
