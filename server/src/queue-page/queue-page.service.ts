import { QUEUE_ACTION_MAX } from '../../../shared/contracts/queue';
import type * as Contract from '../../../shared/contracts/queue';
import {
  type ContentTypeFacts,
  coversLocale,
  type DocumentAction,
  type DocumentPermissions,
  readableRows,
  type TypeAccess,
} from '../access';
import type { Origin } from '../credits';
import type { NarrationListRow, Queue } from '../queue';
import type { SettingsService } from '../settings';
import { PAGE_ROW_STATUSES, summarize, WAITING_ROW_STATUSES, type StatusCell } from './domain/page-counts';
import { queueEntry } from './domain/entry';

/**
 * The queue page: the whole queue as the caller may read it in the Content Manager, and the
 * operator's retry and cancel. A role limited by type or locale is filtered in the query; a role
 * with conditions ("is creator") has each row's document checked, its first SCAN_LIMIT rows only.
 */

const SCAN_LIMIT = 5_000;
const WATCH_MAX = 100;

type Scope = Parameters<Queue['reads']['inScope']>[0];
type Ref = Awaited<ReturnType<Queue['reads']['refsInScope']>>[number];

export interface QueuePageDeps {
  settings: Pick<SettingsService, 'get'>;
  queue: Pick<Queue, 'reads' | 'readState' | 'inFlight' | 'cancel'>;
  permissions: Pick<DocumentPermissions, 'typeAccess' | 'permitted'>;
  types: ContentTypeFacts;
  /** Queues a document's published version again, as narrate now does. */
  record: (uid: string, documentId: string, locale: string | null, origin: Origin) => Promise<{ queued: boolean; reason?: string }>;
  /** The month's budget left (null: none) and the account's balance as last told. */
  credits: () => Promise<{ budgetRemaining: number | null; creditsRemaining: number | null }>;
}

/** What the caller may see of each narrated type. */
async function accessOf(deps: QueuePageDeps, userAbility: unknown, action: 'read' | 'narrate') {
  const types = Object.keys((await deps.settings.get()).contentTypes);
  const access = new Map<string, TypeAccess>();
  for (const uid of types) {
    const granted = deps.permissions.typeAccess(userAbility, uid, action);
    if (granted.kind !== 'none') access.set(uid, granted);
  }
  return access;
}

function scopeOf(access: Map<string, TypeAccess>, statuses: readonly string[], filter: Contract.QueueFilter = {}): Scope {
  const types = [...access]
    .filter(([uid]) => !filter.contentType || uid === filter.contentType)
    .map(([contentType, granted]) => (granted.kind === 'locales' ? { contentType, locales: [...granted.locales] } : { contentType }));
  return {
    statuses,
    types,
    ...(filter.locale ? { locale: filter.locale } : {}),
    ...(filter.reason ? { code: filter.reason === 'none' ? null : filter.reason } : {}),
  };
}

/** The refs whose document the caller may act on: `read`, or `read` and `narrate`. */
const permittedRefs = <R extends Ref>(deps: QueuePageDeps, userAbility: unknown, refs: readonly R[], actions: DocumentAction[]) =>
  readableRows(
    deps,
    userAbility,
    refs,
    (ref) => ({ contentType: ref.contentType, documentId: ref.targetDocumentId, locale: ref.targetLocale }),
    actions
  );

/** A list's page: counted and cut in the query, or, for a role with conditions, from its first rows checked one by one. */
async function listPage(
  deps: QueuePageDeps,
  userAbility: unknown,
  access: Map<string, TypeAccess>,
  scope: Scope,
  { page, pageSize, oldestFirst }: { page: number; pageSize: number; oldestFirst: boolean }
): Promise<{ rows: NarrationListRow[]; total: number; partial: boolean }> {
  const { reads } = deps.queue;
  const offset = (page - 1) * pageSize;
  if (!scope.types.some((type) => access.get(type.contentType)?.kind === 'per-document')) {
    const [total, rows] = await Promise.all([reads.countInScope(scope), reads.inScope(scope, { offset, limit: pageSize, oldestFirst })]);
    return { rows, total, partial: false };
  }
  const refs = await reads.refsInScope(scope, { limit: SCAN_LIMIT, oldestFirst });
  const readable = await permittedRefs(deps, userAbility, refs, ['read']);
  const shown = readable.slice(offset, offset + pageSize).map((ref) => ref.id);
  const byId = new Map((await reads.findByIds(shown)).map((row) => [row.id, row]));
  return {
    rows: shown.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
    total: readable.length,
    partial: refs.length === SCAN_LIMIT,
  };
}

/** Figures of the types filtered in the query, and of the others from their first rows, each checked. */
async function visibleCells(deps: QueuePageDeps, userAbility: unknown, access: Map<string, TypeAccess>) {
  const cells: StatusCell[] = (await deps.queue.reads.statusCells(PAGE_ROW_STATUSES, [...access.keys()])).filter((cell) => {
    const granted = access.get(cell.contentType);
    return granted !== undefined && coversLocale(granted, cell.locale);
  });
  const conditioned = [...access].filter(([, granted]) => granted.kind === 'per-document').map(([contentType]) => ({ contentType }));
  if (conditioned.length === 0) return { cells, partial: false };
  const refs = await deps.queue.reads.refsInScope(
    { statuses: PAGE_ROW_STATUSES, types: conditioned },
    { limit: SCAN_LIMIT, oldestFirst: true }
  );
  for (const ref of await permittedRefs(deps, userAbility, refs, ['read'])) {
    cells.push({ contentType: ref.contentType, locale: ref.targetLocale, status: ref.status, code: ref.lastErrorCode, count: 1 });
  }
  return { cells, partial: refs.length === SCAN_LIMIT };
}

/** The failures a selection names: those listed by id, or every one a filter matches (oldest first, at most QUEUE_ACTION_MAX). */
async function selectedFailures(deps: QueuePageDeps, userAbility: unknown, selection: Contract.QueueSelection) {
  const access = await accessOf(deps, userAbility, 'narrate');
  const { reads } = deps.queue;
  if ('articleIds' in selection) {
    const failed = (await reads.findByArticleIds(selection.articleIds)).filter(
      (row) => row.status === 'failed' && access.has(row.contentType)
    );
    const rows = await permittedRefs(deps, userAbility, failed, ['read', 'narrate']);
    return { rows, refused: new Set(selection.articleIds).size - rows.length, left: 0 };
  }
  const scope = scopeOf(access, ['failed'], selection.filter);
  const [matching, refs] = await Promise.all([
    reads.countInScope(scope),
    reads.refsInScope(scope, { limit: QUEUE_ACTION_MAX, oldestFirst: true }),
  ]);
  // Only the rows the caller may act on are read whole.
  const allowed = await permittedRefs(deps, userAbility, refs, ['read', 'narrate']);
  const rows = await reads.findByIds(allowed.map((ref) => ref.id));
  return { rows, refused: refs.length - allowed.length, left: Math.max(0, matching - refs.length) };
}

export function createQueuePage(deps: QueuePageDeps) {
  return {
    async summary(userAbility: unknown, watch: readonly string[]): Promise<Contract.QueueSummaryResponse> {
      const access = await accessOf(deps, userAbility, 'read');
      const [queue, inFlight, visible, oldest, watchedRows] = await Promise.all([
        deps.queue.readState(),
        deps.queue.inFlight(),
        visibleCells(deps, userAbility, access),
        listPage(deps, userAbility, access, scopeOf(access, ['queued']), { page: 1, pageSize: 1, oldestFirst: true }),
        deps.queue.reads.findByArticleIds(watch.slice(0, WATCH_MAX)),
      ]);
      const watched = await permittedRefs(
        deps,
        userAbility,
        watchedRows.filter((row) => access.has(row.contentType)),
        ['read']
      );
      return {
        ...summarize(visible.cells, queue.paused),
        oldestWaiting: oldest.rows[0] ? queueEntry(oldest.rows[0]) : null,
        inFlight,
        queue,
        watched: watched.map((row) => ({
          articleId: row.articleId,
          title: row.title,
          status: row.status,
          lastErrorCode: row.lastErrorCode,
        })),
        partial: visible.partial || oldest.partial,
      };
    },

    async entries(
      userAbility: unknown,
      list: 'failed' | 'waiting',
      filter: Contract.QueueFilter,
      { page, pageSize }: { page: number; pageSize: number }
    ): Promise<Contract.QueueEntriesResponse> {
      const access = await accessOf(deps, userAbility, 'read');
      const statuses = list === 'failed' ? ['failed'] : WAITING_ROW_STATUSES;
      const scope = scopeOf(access, statuses, list === 'failed' ? filter : { ...filter, reason: undefined });
      const { rows, total } = await listPage(deps, userAbility, access, scope, { page, pageSize, oldestFirst: list === 'waiting' });
      return { data: rows.map(queueEntry), pagination: { page, pageSize, total } };
    },

    async estimateRetry(userAbility: unknown, selection: Contract.QueueSelection): Promise<Contract.QueueRetryEstimateResponse> {
      const [{ rows, refused }, credits] = await Promise.all([selectedFailures(deps, userAbility, selection), deps.credits()]);
      return { count: rows.length, credits: rows.reduce((sum, row) => sum + (row.credits ?? 0), 0), refused, ...credits };
    },

    /** Each one as narrate now: its published version queued again; the budget and the cap hold it as any other. */
    async retry(userAbility: unknown, selection: Contract.QueueSelection, origin: Origin): Promise<Contract.QueueRetryResponse> {
      const { rows, refused, left } = await selectedFailures(deps, userAbility, selection);
      const skipped: Contract.QueueRetryResponse['skipped'] = [];
      let retried = 0;
      for (const row of rows) {
        const outcome = await deps.record(row.contentType, row.targetDocumentId, row.targetLocale, origin);
        if (outcome.queued) retried += 1;
        else skipped.push({ articleId: row.articleId, reason: outcome.reason ?? 'not queued' });
      }
      return { retried, skipped, refused, left };
    },

    /** Only narrations still queued (held by the budget among them): nothing the service is generating is touched. */
    async cancel(userAbility: unknown, articleIds: readonly string[]): Promise<Contract.QueueCancelResponse> {
      const access = await accessOf(deps, userAbility, 'narrate');
      const queued = (await deps.queue.reads.findByArticleIds(articleIds)).filter(
        (row) => row.status === 'queued' && access.has(row.contentType)
      );
      const allowed = await permittedRefs(deps, userAbility, queued, ['read', 'narrate']);
      for (const row of allowed) await deps.queue.cancel(row);
      return { cancelled: allowed.length, refused: new Set(articleIds).size - allowed.length };
    },
  };
}

export type QueuePage = ReturnType<typeof createQueuePage>;
