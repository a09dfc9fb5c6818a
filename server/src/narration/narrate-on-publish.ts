import type { Core } from '@strapi/strapi';
import { publishOrigin, type RequestState } from '../credits';
import { getService, withSavepoint } from '../utils';

/**
 * Document Service middleware: publishing (and, for types configured `save`, creating or
 * updating) records a new version for narration. It never waits on the network; the queue
 * worker submits later.
 *
 * Where Strapi runs the action inside a transaction of the caller's (the Content Manager's bulk
 * publish), the version is recorded in that same transaction, so the publish and its narration
 * commit together or not at all; a savepoint keeps a failed recording from undoing the publish, and
 * that recording is then tried again after the commit. Otherwise Strapi's own transaction has
 * committed before this middleware sees the result, and the version is recorded right after it.
 * Should that recording be lost (the database went away, the process died), the reconciliation
 * (narration/reconciler.ts) records the live version later.
 */

type DocumentActionContext = {
  uid: string;
  action: string;
  params: Record<string, unknown>;
};

type Entry = { documentId: string; locale?: string | null };

function entriesOf(result: unknown): Entry[] {
  if (!result || typeof result !== 'object') return [];
  const withEntries = result as { entries?: Entry[] };
  if (Array.isArray(withEntries.entries)) return withEntries.entries;
  const single = result as Entry;
  return typeof single.documentId === 'string' ? [single] : [];
}

/** The locales an action names: one, several (bulk actions pass arrays), or every one (null). */
export function localesOf(locale: unknown): Array<string | null> {
  if (typeof locale === 'string' && locale !== '*') return [locale];
  if (Array.isArray(locale)) {
    const named = locale.filter((value): value is string => typeof value === 'string' && value !== '*');
    if (named.length && named.length === locale.length) return named;
  }
  return [null];
}

/** The actions that may record, cancel or forget a narration; every other one passes untouched. */
const ACTIONS_THAT_NARRATE = new Set(['create', 'update', 'publish', 'unpublish', 'delete']);

export function narrateOnPublish(strapi: Core.Strapi) {
  // Recordings that wait for a commit run one after another, each in a turn of its own of the event
  // loop. A bulk publish commits many documents at once; recorded side by side, their queries
  // interleave on the database connection and the first is ready (and wakes the worker) only when
  // nearly all are; and SQLite's queries answer synchronously, so a chain of recordings can run
  // from one microtask to the next without ever letting the worker's request to the service out
  // of the socket. In turn, the first document goes to the service while the others are recorded.
  let committed: Promise<void> = Promise.resolve();
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const afterPrevious = (run: () => Promise<unknown>): Promise<void> =>
    (committed = committed
      .then(nextTurn)
      .then(run)
      .then(() => undefined));

  /** Runs a recording; a failure is logged (the reconciliation records it later). True when it worked. */
  const logged = (work: () => Promise<unknown>) => async (): Promise<boolean> => {
    try {
      await work();
      return true;
    } catch (error) {
      strapi.log.error(`[speech] could not record a narration (the reconciliation will): ${(error as Error).message}`);
      return false;
    }
  };

  /** Cancels and removals: after the commit, so a rollback changes nothing. */
  async function afterCommit(work: () => Promise<unknown>): Promise<void> {
    const run = logged(work);
    if (strapi.db.inTransaction()) {
      // Joining the outer transaction only to register a commit hook; nothing is written in it.
      await strapi.db.transaction(async ({ onCommit }) => {
        onCommit(() => void getService('narrations').track(afterPrevious(run)));
      });
      return;
    }
    await run();
  }

  /** New versions: inside the caller's transaction when there is one, else right after Strapi's own commit. */
  async function record(work: () => Promise<unknown>): Promise<boolean> {
    if (!strapi.db.inTransaction()) return logged(work)();
    return strapi.db.transaction(async ({ trx, onCommit }) => {
      try {
        await withSavepoint(trx, 'speech_record_narration', work);
        // The worker could not see the rows before the commit.
        onCommit(() => getService('worker').wake());
        return true;
      } catch (error) {
        strapi.log.warn(`[speech] recording a narration in the publish's transaction failed, trying after it: ${(error as Error).message}`);
        const run = logged(work);
        onCommit(() => void getService('narrations').track(afterPrevious(run)));
        return false;
      }
    });
  }

  /**
   * A save of an entry of a type without draft & publish changes its row in place, where the
   * reconciliation's id cursor does not look: it is noted before Strapi writes it, and the note is
   * removed once the narration is recorded. Inside a caller's transaction the recording commits
   * with the save, and no note is needed. Null when there is nothing to note, or noting failed (the
   * save then goes on: noting is never why a save fails).
   */
  async function noteSave(ctx: DocumentActionContext, trigger: string): Promise<number | null> {
    const documentId = ctx.params?.documentId;
    if (trigger !== 'save' || ctx.action !== 'update' || typeof documentId !== 'string' || strapi.db.inTransaction()) return null;
    const [locale] = localesOf(ctx.params?.locale);
    return getService('pending-recordings')
      .note(ctx.uid, documentId, locale)
      .catch(() => null);
  }

  // Generic in what the action returns, so that it is Strapi's `Middleware`: whatever `next`
  // resolves to is passed back unchanged.
  return async <Next extends Promise<unknown>>(ctx: DocumentActionContext, next: () => Next): Promise<Awaited<Next>> => {
    // Reads (findOne, findMany, count: the recording's own loadLive among them) never narrate, so
    // they do not read the settings either.
    if (ctx.uid.startsWith('plugin::speech.') || !ACTIONS_THAT_NARRATE.has(ctx.action)) return await next();
    const narrations = getService('narrations');
    const trigger = await narrations.triggerFor(ctx.uid);
    if (trigger === 'off' || trigger === null) return await next();
    const note = await noteSave(ctx, trigger);
    const pending = getService('pending-recordings');
    let result: Awaited<Next>;
    try {
      result = await next();
    } catch (error) {
      // Nothing was saved: nothing to record later either.
      if (note !== null) await pending.remove(note).catch(() => undefined);
      throw error;
    }

    const { action, params } = ctx;
    // Who published: the admin, an API token or user, or nobody (code, the reconciliation). Read
    // now, while Strapi's request context is this request's (a commit hook may run outside it).
    const origin = publishOrigin(strapi.requestContext.get()?.state as RequestState | undefined);
    const publishes =
      (trigger === 'publish' &&
        (action === 'publish' || ((action === 'create' || action === 'update') && params?.status === 'published'))) ||
      (trigger === 'save' && (action === 'create' || action === 'update'));

    if (publishes) {
      const entries = entriesOf(result);
      const recorded = await record(async () => {
        for (const entry of entries) await narrations.recordFromDocument(ctx.uid, entry.documentId, entry.locale ?? null, { origin });
      });
      if (note !== null && recorded) await pending.remove(note).catch(() => undefined);
    } else if (action === 'unpublish' || action === 'delete') {
      const documentId = params?.documentId as string | undefined;
      if (documentId) {
        await afterCommit(async () => {
          for (const locale of localesOf(params?.locale)) {
            if (action === 'delete') await narrations.forgetDocument(ctx.uid, documentId, locale);
            else await narrations.cancelDocument(ctx.uid, documentId, locale);
          }
        });
      }
    }
    return result;
  };
}
