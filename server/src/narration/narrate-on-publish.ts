import type { Core } from '@strapi/strapi';
import { publishOrigin, type RequestState } from '../credits';
import { getService, withSavepoint } from '../utils';

/**
 * Records a new version on publish (or save) without waiting on the network. Inside a caller's
 * transaction it commits with the publish (a savepoint keeps a failed recording from undoing it);
 * otherwise it records right after Strapi's commit, and the reconciliation catches one lost there.
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

const ACTIONS_THAT_NARRATE = new Set(['create', 'update', 'publish', 'unpublish', 'delete']);

/** Recording around the caller's transaction: inside it where it can be, else after its commit, never on a rollback. */
function createRecorder(strapi: Core.Strapi) {
  // Recordings after a commit run one at a time, each in its own turn of the event loop: side by side,
  // a bulk publish's queries interleave (and SQLite's answer synchronously), so the worker's first
  // request would wait for nearly all of them.
  let committed: Promise<void> = Promise.resolve();
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const afterPrevious = (run: () => Promise<unknown>): Promise<void> =>
    (committed = committed
      .then(nextTurn)
      .then(run)
      .then(() => undefined));

  /** A failure is logged (the reconciliation records it later). */
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

  async function record(work: () => Promise<unknown>): Promise<boolean> {
    if (!strapi.db.inTransaction()) return logged(work)();
    return strapi.db.transaction(async ({ trx, onCommit }) => {
      try {
        await withSavepoint(trx, 'speech_record_narration', work);
        // The worker could not see the rows before the commit.
        onCommit(() => getService('queue').wake());
        return true;
      } catch (error) {
        strapi.log.warn(`[speech] recording a narration in the publish's transaction failed, trying after it: ${(error as Error).message}`);
        const run = logged(work);
        onCommit(() => void getService('narrations').track(afterPrevious(run)));
        return false;
      }
    });
  }

  return { afterCommit, record };
}

export function narrateOnPublish(strapi: Core.Strapi) {
  const { afterCommit, record } = createRecorder(strapi);

  /**
   * A save of a type without draft & publish changes its row in place, where the id cursor does not look:
   * it is noted first, and the note removed once recorded. Noting never makes a save fail.
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
