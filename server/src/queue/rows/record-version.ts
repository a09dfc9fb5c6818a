import { AUTOMATIC, type Origin } from '../../credits';
import { publishedLater, type ContentVersion, type NarrationRow } from '../domain/narration-row';
import { IN_FLIGHT_STATUSES, transition, type NarrationEvent, type NarrationState } from '../domain/states';
import { rowAfter, type createConditionalUpdate } from './compare-and-set';
import type { ApplyOutcome, CommittedChange } from './row-change';
import type { narrationQuery } from './narration-rows.reads';

/** The state of an article that has never been narrated (spec 3.1 "new"). */
const NEW_NARRATION: NarrationState = {
  status: 'cancelled',
  fingerprint: null,
  submittedFingerprint: null,
  narratedFingerprint: null,
  regenerate: false,
  attempts: 0,
  submissions: 0,
  seenResults: [],
};

interface RecorderDeps {
  query: ReturnType<typeof narrationQuery>;
  findByArticleId: (articleId: string) => Promise<NarrationRow | null>;
  conditionalUpdate: ReturnType<typeof createConditionalUpdate>;
  committed: (change: CommittedChange) => void;
}

/** A published version recorded on its article's row: the row made on a first publish, the state machine's `contentChanged` after. */
export function createVersionRecorder({ query, findByArticleId, conditionalUpdate, committed }: RecorderDeps) {
  /** Outside the state machine: one column, kept to the latest publish when two race. */
  async function noteLivePublish(id: number, livePublishedAt: string): Promise<void> {
    await query().updateMany({
      where: { $and: [{ id }, { $or: [{ livePublishedAt: null }, { livePublishedAt: { $lt: livePublishedAt } }] }] },
      data: { livePublishedAt },
    });
  }

  /** One write at most: none when the same text, voice and mode are already narrated or queued, unless a later publish. */
  async function recordContentVersion(version: ContentVersion, now = new Date(), origin: Origin = AUTOMATIC): Promise<ApplyOutcome> {
    const details = {
      contentType: version.contentType,
      targetDocumentId: version.documentId,
      targetLocale: version.locale,
      title: version.title.slice(0, 255),
      voiceId: version.voiceId,
      preprocessType: version.preprocessType,
      characters: version.characters,
      credits: version.credits,
    };
    const changed: NarrationEvent = { type: 'contentChanged', fingerprint: version.fingerprint, now };
    const cause = { cause: origin.cause, causedBy: origin.causedBy, backfill: origin.backfill ?? null };
    const existing = await findByArticleId(version.articleId);
    if (!existing) {
      const result = transition(NEW_NARRATION, changed);
      if (result.kind === 'ignore') return { applied: false, reason: result.reason };
      try {
        // The query engine, not the Document Service: that would announce an internal row as `entry.create`
        // and read it back in an unawaited promise (a database gone then crashes the process).
        const row = (await query().create({
          data: {
            articleId: version.articleId,
            ...details,
            ...cause,
            ...result.patch,
            livePublishedAt: version.livePublishedAt,
            seenResults: [],
            publishedAt: new Date(),
          },
        })) as NarrationRow;
        committed({ event: changed, from: result.from, patch: result.patch, row });
        return { applied: true, row, replaced: [] };
      } catch (error) {
        // Two publishes of one article at once: the database's unique index on article_id (the
        // schema's `column.unique`; Strapi's own `unique` is only a check before the insert) lets one win.
        const raced = await findByArticleId(version.articleId);
        if (!raced) throw error;
        return recordContentVersion(version, now, origin);
      }
    }
    const result = transition(existing, changed);
    const laterPublish = publishedLater(version.livePublishedAt, existing.livePublishedAt);
    if (result.kind === 'ignore') {
      if (laterPublish) await noteLivePublish(existing.id, version.livePublishedAt!);
      return { applied: false, reason: result.reason };
    }
    // The figures describe the version about to be narrated; while an older one is in flight they wait.
    const inFlight = IN_FLIGHT_STATUSES.includes(existing.status) || existing.status === 'storing';
    const patch = {
      ...(inFlight ? result.patch : { ...result.patch, ...details }),
      ...cause,
      ...(laterPublish ? { livePublishedAt: version.livePublishedAt } : {}),
    };
    const { won } = await conditionalUpdate(existing.id, result.from, patch, result.guard);
    if (!won) return recordContentVersion(version, now, origin);
    const row = rowAfter(existing, patch);
    committed({ event: changed, from: result.from, patch, row });
    return { applied: true, row, replaced: [] };
  }

  return recordContentVersion;
}
