import type { Core } from '@strapi/strapi';
import { NARRATION_PART_UID } from '../../content-types';
import type { NarrationPartRow } from '../domain/narration-row';
import { IN_FLIGHT_STATUSES, transition, type NarrationEvent } from '../domain/states';
import { createConditionalUpdate, rowAfter } from './compare-and-set';

/** Parts of segmented narrations: items of the same state machine, in their own table; they never link files. */

export type PartApplyOutcome = { applied: true; row: NarrationPartRow } | { applied: false; reason: string };

export interface NewPart {
  narrationId: number;
  key: string;
  turn: number;
  partsAfter: number;
  text: string;
  title: string;
  voiceId: string;
  preprocessType: string;
  characters: number;
  credits: number;
  /** A fresh generation of a key the service has (the editor asked to regenerate): paid. */
  regenerate?: boolean;
}

const MOST_READ = 50;

export function createPartRows(strapi: Core.Strapi) {
  const query = () => strapi.db.query(NARRATION_PART_UID);
  const conditionalUpdate = createConditionalUpdate(strapi, null, query);

  async function apply(row: NarrationPartRow, event: NarrationEvent): Promise<PartApplyOutcome> {
    const result = transition(row, event);
    if (result.kind === 'ignore') return { applied: false, reason: result.reason };
    const { won } = await conditionalUpdate(row.id, result.from, result.patch, result.guard);
    if (!won) return { applied: false, reason: 'the part changed under us (another worker or callback won)' };
    return { applied: true, row: rowAfter(row, result.patch) };
  }

  async function findByArticleId(articleId: string): Promise<NarrationPartRow | null> {
    const row = (await query().findOne({ where: { articleId } })) as NarrationPartRow | null;
    // Case-insensitive collations (MySQL, MariaDB): another key there too.
    return row && row.articleId === articleId ? row : null;
  }

  return {
    apply,
    findByArticleId,

    async forNarration(narrationId: number): Promise<NarrationPartRow[]> {
      return (await query().findMany({ where: { narrationId }, orderBy: [{ id: 'asc' }] })) as NarrationPartRow[];
    },

    async claimable(now: Date, limit: number): Promise<NarrationPartRow[]> {
      if (limit <= 0) return [];
      return (await query().findMany({
        where: { status: 'queued', $or: [{ nextAttemptAt: null }, { nextAttemptAt: { $lte: now } }] },
        orderBy: [{ turn: 'asc' }, { partsAfter: 'asc' }, { nextAttemptAt: 'asc' }, { id: 'asc' }],
        limit,
      })) as NarrationPartRow[];
    },

    async countInFlight(): Promise<number> {
      return query().count({ where: { status: { $in: [...IN_FLIGHT_STATUSES] } } });
    },

    async withExpiredLease(now: Date): Promise<NarrationPartRow[]> {
      return (await query().findMany({
        where: { status: 'submitting', leaseExpiresAt: { $lt: now } },
        limit: MOST_READ,
      })) as NarrationPartRow[];
    },

    async withCallbackOverdue(now: Date): Promise<NarrationPartRow[]> {
      return (await query().findMany({
        where: { status: 'awaiting_callback', callbackDeadline: { $lt: now } },
        limit: MOST_READ,
      })) as NarrationPartRow[];
    },

    /** New parts, queued: asked with regenerate false unless said otherwise (a key the service generated before is then re-delivered free). */
    async create(parts: readonly NewPart[], now: Date): Promise<void> {
      for (const part of parts) {
        const { key, regenerate = false, ...fields } = part;
        try {
          await query().create({
            data: {
              ...fields,
              articleId: key,
              status: 'queued',
              fingerprint: key,
              regenerate,
              attempts: 0,
              submissions: 0,
              seenResults: [],
              nextAttemptAt: now,
              publishedAt: now,
            },
          });
        } catch (error) {
          // Two plans of one article at once: the unique index on article_id lets one row win.
          if (!(await findByArticleId(key))) throw error;
        }
      }
    },

    async remove(ids: readonly number[]): Promise<void> {
      if (ids.length) await query().deleteMany({ where: { id: { $in: [...ids] } } });
    },

    /** The article is gone, cancelled or narrated whole: its parts on their way are of no use any more. */
    async removeForNarration(narrationId: number): Promise<void> {
      await query().deleteMany({ where: { narrationId } });
    },
  };
}

export type PartRows = ReturnType<typeof createPartRows>;
