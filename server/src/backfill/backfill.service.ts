import { errors } from '@strapi/utils';
import * as Contract from '../../../shared/contracts/backfills';
import { coversLocale, refusal } from '../access';
import { conflict } from '../http';
import type { BackfillDeps, Cursor } from './deps';
import { createBackfillRows, type BackfillRow, type BackfillRows } from './backfill-rows';
import { cellsOf, createBackfillFeeder, move } from './backfill-feeder';
import { estimateOf } from './domain/pace';
import { labelOf, progressOf } from './domain/status';

/**
 * Archive backfill: a type's published entries in one locale, newest first, each queued as a
 * publish would queue it. One instance at a time feeds the queue (its own lease), never past the
 * backlog (about a day of the queue's drain), and never past the month's budget; where it has
 * reached is written after each entry, so a restart resumes after the last one queued.
 */

interface Target {
  contentType: string;
  locale: string | null;
  publishedBefore: Date;
}

const LISTED = 20;
const ESTIMATE_PAGE = 200;
const PAST: Record<Contract.BackfillAction, string> = { pause: 'paused', resume: 'resumed', cancel: 'cancelled' };

/** Narrate and read: on the whole type, or on its locale; a role with conditions is refused (a backfill reads no one's documents for them). */
async function ensureMay(
  deps: Pick<BackfillDeps, 'permissions'>,
  userAbility: unknown,
  target: Pick<Target, 'contentType' | 'locale'>,
  actions: ReadonlyArray<'read' | 'narrate'>
) {
  for (const action of actions) {
    const granted = deps.permissions.typeAccess(userAbility, target.contentType, action);
    if (coversLocale(granted, target.locale)) continue;
    if (granted.kind === 'per-document')
      throw refusal(
        `A backfill ${action === 'read' ? 'reads' : 'narrates'} every entry of the type: it needs the Content Manager's ${action} permission without conditions.`
      );
    throw refusal(`You may not ${action} ${target.contentType}${target.locale ? ` in ${target.locale}` : ''}.`);
  }
}

async function resolve(deps: Pick<BackfillDeps, 'settings' | 'types'>, input: Contract.BackfillTarget, now: Date): Promise<Target> {
  const { contentTypes } = await deps.settings.get();
  if (!contentTypes[input.contentType] || !deps.types.exists(input.contentType))
    throw new errors.ValidationError(`${input.contentType} is not a narrated content type.`);
  let locale: string | null = null;
  if (deps.types.isLocalized(input.contentType)) {
    if (!input.locale) throw new errors.ValidationError('A localized type is backfilled one locale at a time: name the locale.');
    if (!(await deps.types.siteLocales()).includes(input.locale))
      throw new errors.ValidationError(`${input.locale} is not a locale of this site.`);
    locale = input.locale;
  } else if (input.locale) {
    throw new errors.ValidationError(`${input.contentType} has no locales: leave the locale out.`);
  }
  const before = input.publishedBefore ? new Date(input.publishedBefore) : now;
  // Nothing is published in the future: a later moment means every entry published so far.
  return { contentType: input.contentType, locale, publishedBefore: before > now ? now : before };
}

async function estimateTarget(
  deps: BackfillDeps,
  currentPace: () => Promise<Contract.BackfillPace>,
  target: Target
): Promise<Contract.BackfillEstimateResponse> {
  const scanned = { entries: 0, candidates: 0, credits: 0 };
  let after: Cursor | null = null;
  while (scanned.entries < Contract.BACKFILL_ESTIMATE_SCAN) {
    const page = await deps.archive(target.contentType, target.locale, {
      publishedBefore: target.publishedBefore,
      after,
      limit: ESTIMATE_PAGE,
    });
    for (const document of page) {
      scanned.entries += 1;
      if (document.narrated) continue;
      scanned.candidates += 1;
      scanned.credits += document.credits;
    }
    const last = page.at(-1);
    if (!last || page.length < ESTIMATE_PAGE) break;
    after = { publishedAt: last.publishedAt, documentId: last.documentId };
  }
  // Read whole: the count is what was read (an entry published meanwhile is not in it).
  const total =
    scanned.entries < Contract.BACKFILL_ESTIMATE_SCAN
      ? scanned.entries
      : await deps.archiveSize(target.contentType, target.locale, target.publishedBefore);
  const [paceNow, budgetRemaining] = await Promise.all([currentPace(), deps.budgetRemaining()]);
  return estimateOf({ total, scanned, pace: paceNow, budgetRemaining });
}

/** Each backfill with its progress from the queue's rows and its credits from the ledger: two reads for all of them. */
async function views(deps: BackfillDeps, rows: readonly BackfillRow[]): Promise<Contract.BackfillResponse[]> {
  const [cells, spent] = await Promise.all([
    cellsOf(
      deps,
      rows.map((row) => row.id)
    ),
    deps.spentBy(rows.map(labelOf)),
  ]);
  return rows.map((row) => {
    const progress = progressOf(cells.get(row.id) ?? []);
    return {
      id: row.id,
      contentType: row.contentType,
      locale: row.targetLocale,
      publishedBefore: row.publishedBefore,
      status: row.status,
      done: progress.done,
      queued: progress.queued,
      failed: progress.failed,
      left: row.exhausted || row.status === 'cancelled' ? 0 : Math.max(0, row.total - row.fed),
      credits: spent.get(labelOf(row)) ?? 0,
      total: row.total,
      createdAt: row.createdAt,
      createdBy: row.causedBy,
    };
  });
}

const view = async (deps: BackfillDeps, row: BackfillRow) => (await views(deps, [row]))[0];

const visible = (deps: Pick<BackfillDeps, 'permissions'>, userAbility: unknown, row: BackfillRow) =>
  coversLocale(deps.permissions.typeAccess(userAbility, row.contentType, 'read'), row.targetLocale);

export function createBackfills(deps: BackfillDeps) {
  const rows: BackfillRows = createBackfillRows(deps.strapi);
  const feeder = createBackfillFeeder(deps, rows);

  return {
    async estimate(userAbility: unknown, input: Contract.BackfillTarget): Promise<Contract.BackfillEstimateResponse> {
      const target = await resolve(deps, input, new Date());
      await ensureMay(deps, userAbility, target, ['read', 'narrate']);
      return estimateTarget(deps, feeder.currentPace, target);
    },

    async start(userAbility: unknown, input: Contract.BackfillTarget, causedBy: string | null): Promise<Contract.BackfillStartResponse> {
      const target = await resolve(deps, input, new Date());
      await ensureMay(deps, userAbility, target, ['read', 'narrate']);
      const { documents } = await estimateTarget(deps, feeder.currentPace, target);
      const row = await rows.create({
        contentType: target.contentType,
        targetLocale: target.locale,
        publishedBefore: target.publishedBefore,
        total: documents,
        causedBy,
      });
      feeder.wake();
      return { id: row.id };
    },

    async list(userAbility: unknown): Promise<Contract.BackfillListResponse> {
      const shown: BackfillRow[] = [];
      for (const row of await rows.newestFirst(LISTED * 5)) if (shown.length < LISTED && visible(deps, userAbility, row)) shown.push(row);
      const [data, pace] = await Promise.all([views(deps, shown), feeder.currentPace()]);
      return { data, pace };
    },

    async findOne(userAbility: unknown, id: number): Promise<Contract.BackfillResponse> {
      const row = await rows.find(id);
      if (!row || !visible(deps, userAbility, row)) throw new errors.NotFoundError('No such backfill.');
      return view(deps, row);
    },

    /** Pause stops the queuing (what is queued still goes); cancel also withdraws what it queued and nothing was sent for. */
    async act(userAbility: unknown, id: number, action: Contract.BackfillAction): Promise<Contract.BackfillActionResponse> {
      const row = await rows.find(id);
      if (!row || !visible(deps, userAbility, row)) throw new errors.NotFoundError('No such backfill.');
      await ensureMay(deps, userAbility, { contentType: row.contentType, locale: row.targetLocale }, ['read', 'narrate']);
      if (!(await move(rows, row, action))) throw conflict(`A backfill that is ${row.status} cannot be ${PAST[action]}.`);
      if (action === 'cancel') for (const queued of await deps.queue.reads.queuedOfBackfill(row.id)) await deps.queue.cancel(queued);
      if (action === 'resume') feeder.wake();
      return view(deps, (await rows.find(id))!);
    },

    /** A narration of a backfill ended: there may be room for the next. */
    wake: feeder.wake,
    startLoop: feeder.start,
    stop: feeder.stop,
  };
}

export type Backfills = ReturnType<typeof createBackfills>;
