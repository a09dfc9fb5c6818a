import type { Core } from '@strapi/strapi';
import type { QueueConfig } from './config';
import { backoffDelay } from '../../speech-client';
import { chaptersFromCues, type Chapter, type Cue } from '../../subtitles';
import type { NarrationRows, MediaFileRef, NarrationRow } from '../rows/narration-rows';
import type { DescribeLive } from '../domain/live-version';
import { PartsLostError, type JoinedMedia, type JoinedMediaStore } from '../media/joined-media';
import { DownloadRefusedError, NothingToStore, type MediaStore, type StoredMedia } from '../media/media';
import type { PartRows } from '../rows/part-rows';
import { holdLease, StoreStopped } from './row-lease';

/**
 * The worker's storing step: claims results the service has delivered (accepted callbacks), and
 * for each, under the row's lease, downloads its files, stores them in the Media Library
 * (media.ts) and records the stored narration on the row, then removes the files it replaced.
 * Stores run beside the worker's tick; the worker asks for them, and stops them when it stops.
 */

export interface StoreStepDeps {
  describeLive: DescribeLive;
  strapi: Core.Strapi;
  config: Pick<QueueConfig, 'leaseMs' | 'maxAttempts'>;
  repository: NarrationRows;
  media: MediaStore;
  /** Joins a segmented narration's parts (joined-media.ts); their rows are removed once joined. */
  joined: JoinedMediaStore;
  parts: Pick<PartRows, 'remove'>;
  /** This worker: each of its claims holds a row's lease as `<owner>/<claim number>` (see storeResults). */
  owner: string;
  now: () => Date;
  isStopped: () => boolean;
  /** A store ended: the worker looks for more work at once (unless it is stopping). */
  wake: () => void;
}

/**
 * The errors of @strapi/utils by which the upload plugin and its providers refuse a file itself
 * (over the size limit, a name or a type it does not accept): another attempt would be refused
 * alike. Known by name, as a provider may bring its own copy of @strapi/utils.
 */
const UPLOAD_REFUSALS = new Set([
  'ApplicationError',
  'ValidationError',
  'YupValidationError',
  'PayloadTooLargeError',
  'NotImplementedError',
]);

/**
 * A store failed in a way no later attempt can mend: the service's files refused for good, the
 * upload plugin refusing the file, or no result on the row. Anything else (the database or the
 * storage away for a while) is worth another attempt.
 */
function failedForGood(error: unknown): boolean {
  if (error instanceof DownloadRefusedError) return !error.retryable;
  return error instanceof NothingToStore || (error instanceof Error && UPLOAD_REFUSALS.has(error.name));
}

export function createStoreStep(deps: StoreStepDeps) {
  const { strapi, config, repository, media, now } = deps;
  const log = (message: string) => strapi.log.info(`[speech] ${message}`);

  /** Downloads run beside the tick, so a slow media host never holds up submissions. */
  const activeStores = new Map<Promise<void>, AbortController>();
  const MAX_PARALLEL_STORES = 2;
  let claims = 0;

  /** `owner`: this claim's lease holder; no other store, not even another of this worker's, writes as it. */
  async function storeOne(narration: NarrationRow, owner: string, controller: AbortController) {
    const lease = holdLease({ ...deps, owner }, narration, controller);
    let stored: StoredMedia;
    // A segmented narration's parts, joined: where each is in the audio, and the part rows it used.
    let joined: JoinedMedia | null = null;
    try {
      if (narration.narrationMode === 'segmented') stored = joined = await deps.joined.join(narration, controller.signal);
      else stored = await media.store(narration, controller.signal);
    } catch (error) {
      await lease.release();
      if (controller.signal.aborted) return handOff(narration, owner, controller);
      if (error instanceof PartsLostError) {
        strapi.log.warn(`[speech] ${narration.articleId}: ${error.message}`);
        await repository.apply(narration, { type: 'partsLost', owner, reason: error.message, segments: error.segments, now: now() });
        return;
      }
      const refused = error instanceof DownloadRefusedError;
      const reason = refused
        ? `The narration could not be downloaded: ${(error as Error).message}`
        : `The narration could not be stored: ${(error as Error).message}`;
      const code = refused ? (error as DownloadRefusedError).code : 'STORE_FAILED';
      strapi.log.warn(`[speech] ${narration.articleId}: ${reason}`);
      if (!failedForGood(error)) {
        const retryAt = new Date(now().getTime() + backoffDelay(narration.storeAttempts ?? 1));
        await repository.apply(narration, { type: 'storeDeferred', owner, retryAt, reason, code, maxAttempts: config.maxAttempts });
      } else {
        await repository.apply(narration, { type: 'storeFailed', owner, reason, code });
      }
      return;
    }

    const files = [stored.audio, stored.subtitles, stored.subtitlesVtt];
    await lease.release();
    if (controller.signal.aborted) {
      await media.remove(files);
      return handOff(narration, owner, controller);
    }
    // Links the files in the write that completes the row, and only while the lease is ours. Should
    // it fail, the files are not removed here: the write may have committed although its answer was
    // lost (the database went away during the commit). Either they are now the narration, or they
    // are still among the row's pending uploads, which its next store or its deletion removes
    // (file-links.ts).
    const chapters = await chaptersOf(narration, stored.cues);
    const outcome = await repository.apply(narration, {
      type: 'stored',
      owner,
      files: { audio: stored.audio.id, subtitles: stored.subtitles.id, subtitlesVtt: stored.subtitlesVtt.id },
      durationSeconds: stored.durationSeconds,
      audioBytes: stored.audioBytes,
      chapters,
      ...(joined ? { segments: joined.segments } : {}),
      now: now(),
    });
    if (!outcome.applied) {
      // Cancelled, deleted or taken over while downloading: nothing links to the new files.
      await media.remove(files);
      log(`did not store ${narration.articleId}: ${outcome.reason}`);
      return;
    }
    // The joined parts' results are in the linked audio now; a part row left by a failure here is planned again harmlessly.
    if (joined) await deps.parts.remove(joined.consumed);
    // Replace, then delete: the old files are removed only once the new ones are linked.
    await removeReplacedFiles(outcome.row, outcome.replaced);
    log(`stored narration of ${narration.articleId}`);
  }

  /**
   * Removes the files a store replaced (they wait in the row's `replacedFiles`, file-links.ts),
   * then says so on the row; a file that could not be removed keeps the row listed for next time.
   */
  async function removeReplacedFiles(row: NarrationRow, replaced: MediaFileRef[]) {
    if (await media.remove(replaced)) await repository.apply(row, { type: 'replacedFilesRemoved' });
  }

  /**
   * The chapters of a stored narration: the headings of the text as it is narrated now (the
   * version just read, unless it was edited and published again meanwhile, when only the cues
   * still found in it count), placed on the SRT's cues ('stored' records none as null). None
   * rather than a failed store.
   */
  async function chaptersOf(narration: NarrationRow, cues: Cue[]): Promise<Chapter[] | null> {
    try {
      const version = await deps.describeLive(narration);
      return version && chaptersFromCues(version.text, version.headings, cues, version.title);
    } catch (error) {
      strapi.log.warn(`[speech] no chapters for ${narration.articleId}: ${(error as Error).message}`);
      return null;
    }
  }

  /** A store stopped from outside: a lost lease means hands off; a shutdown hands the row back. */
  async function handOff(narration: NarrationRow, owner: string, controller: AbortController) {
    const reason = controller.signal.reason as StoreStopped | undefined;
    log(`stopped storing ${narration.articleId}: ${reason?.message ?? 'aborted'}`);
    if (reason?.why === 'shutdown') await repository.apply(narration, { type: 'storeAbandoned', owner, now: now() });
  }

  return {
    /** How many stores are under way. */
    activeCount: () => activeStores.size,

    /** Claims the results ready to store (while fewer than the most that run at once are under way) and starts storing them. */
    async storeResults(at: Date) {
      const free = MAX_PARALLEL_STORES - activeStores.size;
      if (free <= 0) return;
      for (const row of await repository.readyToStore(at, free)) {
        // A lease per claim, not per worker: should this claim's lease run out (the database away
        // past leaseMs) and the row be claimed again here, the first store's renewals and final
        // write must lose, since the second claim removed its uploads as leftovers.
        const owner = `${deps.owner}/${++claims}`;
        const claimed = await repository.apply(row, {
          type: 'storeClaimed',
          owner,
          leaseMs: config.leaseMs,
          maxAttempts: config.maxAttempts,
          now: now(),
        });
        if (!claimed.applied) continue;
        // Uploads a store left unlinked (it was killed before its final write): the store that made
        // them lost the row's lease, so it can never link them. And uploads whose link to the row the
        // database lost as it went away (media.ts). Removed before any upload of ours.
        const leftoversRemoved =
          (await media.remove(await repository.pendingUploadsOf(row.id))) && (await media.removeUnlinkedUploads(row));
        // The attempts ran out (the claim then marked it failed).
        if (claimed.row.leaseOwner !== owner) continue;
        if (!leftoversRemoved) {
          // Not stored on top of them (the database or the storage is still coming back): our final
          // write would complete the row with them still pending, where nothing would remove them.
          // The claim counted an attempt, so this waits its backoff and gives up like a download.
          await repository.apply(claimed.row, {
            type: 'storeDeferred',
            owner,
            retryAt: new Date(now().getTime() + backoffDelay(claimed.row.storeAttempts ?? 1)),
            reason: 'The files of an earlier attempt could not be removed yet.',
            code: 'STORE_FAILED',
            maxAttempts: config.maxAttempts,
          });
          continue;
        }
        const controller = new AbortController();
        const task = storeOne(claimed.row, owner, controller)
          .catch((error) => {
            strapi.log.error(`[speech] storing ${row.articleId} failed: ${(error as Error).message}`);
          })
          .finally(() => {
            activeStores.delete(task);
            deps.wake();
          });
        activeStores.set(task, controller);
      }
    },

    /** At start: the replaced files whose removal a crash or a failed delete cut short, on any instance. */
    async removeReplacedFilesLeft() {
      let afterId = 0;
      while (!deps.isStopped()) {
        const rows = await repository.withReplacedFilesWaiting(afterId, 50);
        for (const row of rows) await removeReplacedFiles(row, row.replacedFiles ?? []);
        if (rows.length < 50) return;
        afterId = rows[rows.length - 1].id;
      }
    },

    /**
     * Shutdown: a store close to the end may finish; the others are stopped and handed back, so the
     * next start (or another instance) takes them over without waiting for their leases to run out.
     */
    async stop() {
      const settled = () =>
        Promise.race([Promise.allSettled([...activeStores.keys()]), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      await settled();
      for (const controller of activeStores.values()) controller.abort(new StoreStopped('shutdown', 'this instance is stopping'));
      await settled();
    },
  };
}
