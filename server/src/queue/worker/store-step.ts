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

export interface StoreStepDeps {
  describeLive: DescribeLive;
  strapi: Core.Strapi;
  config: Pick<QueueConfig, 'leaseMs' | 'maxAttempts'>;
  repository: NarrationRows;
  media: MediaStore;
  joined: JoinedMediaStore;
  parts: Pick<PartRows, 'remove'>;
  /** This worker: each of its claims holds a row's lease as `<owner>/<claim number>` (see storeResults). */
  owner: string;
  now: () => Date;
  isStopped: () => boolean;
  wake: () => void;
}

/** Known by name: a provider may bring its own copy of @strapi/utils. */
const UPLOAD_REFUSALS = new Set([
  'ApplicationError',
  'ValidationError',
  'YupValidationError',
  'PayloadTooLargeError',
  'NotImplementedError',
]);

/** No later attempt can mend it; anything else (the database or storage away) is worth another. */
function failedForGood(error: unknown): boolean {
  if (error instanceof DownloadRefusedError) return !error.retryable;
  return error instanceof NothingToStore || (error instanceof Error && UPLOAD_REFUSALS.has(error.name));
}

export function createStoreStep(deps: StoreStepDeps) {
  const { strapi, config, repository, media, now } = deps;

  /** Downloads run beside the tick, so a slow media host never holds up submissions. */
  const activeStores = new Map<Promise<void>, AbortController>();
  const MAX_PARALLEL_STORES = 2;
  let claims = 0;

  return {
    activeCount: () => activeStores.size,

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
        // Leftover uploads of a store that lost the lease, or whose link the database lost (media.ts):
        // removed before any upload of ours.
        const leftoversRemoved =
          (await media.remove(await repository.pendingUploadsOf(row.id))) && (await media.removeUnlinkedUploads(row));
        // The attempts ran out (the claim then marked it failed).
        if (claimed.row.leaseOwner !== owner) continue;
        if (!leftoversRemoved) {
          // Not stored on top of them, where nothing would remove them; the claim counted an attempt,
          // so this backs off and gives up like a download.
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
        const task = storeOne(deps, claimed.row, owner, controller)
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
        for (const row of rows) await removeReplacedFiles(deps, row, row.replacedFiles ?? []);
        if (rows.length < 50) return;
        afterId = rows[rows.length - 1].id;
      }
    },

    /** Shutdown: a store close to the end may finish; the others are handed back without waiting for leases. */
    async stop() {
      const settled = () =>
        Promise.race([Promise.allSettled([...activeStores.keys()]), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      await settled();
      for (const controller of activeStores.values()) controller.abort(new StoreStopped('shutdown', 'this instance is stopping'));
      await settled();
    },
  };
}

/** `owner`: this claim's lease holder; no other store, not even another of this worker's, writes as it. */
export async function storeOne(deps: StoreStepDeps, narration: NarrationRow, owner: string, controller: AbortController) {
  const { repository, media, now } = deps;
  const lease = holdLease({ ...deps, owner }, narration, controller);
  let stored: StoredMedia;
  let joined: JoinedMedia | null = null;
  try {
    if (narration.narrationMode === 'segmented') stored = joined = await deps.joined.join(narration, controller.signal);
    else stored = await media.store(narration, controller.signal);
  } catch (error) {
    await lease.release();
    if (controller.signal.aborted) return handOff(deps, narration, owner, controller);
    await recordStoreFailure(deps, narration, owner, error);
    return;
  }

  const files = [stored.audio, stored.subtitles, stored.subtitlesVtt];
  await lease.release();
  if (controller.signal.aborted) {
    await media.remove(files);
    return handOff(deps, narration, owner, controller);
  }
  // Linked only while the lease is ours. On failure the files are not removed here: the write may
  // have committed although its answer was lost; otherwise they remain pending uploads (file-links.ts).
  const chapters = await chaptersOf(deps, narration, stored.cues);
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
    deps.strapi.log.info(`[speech] did not store ${narration.articleId}: ${outcome.reason}`);
    return;
  }
  // The joined parts' results are in the linked audio now; a part row left by a failure here is planned again harmlessly.
  if (joined) await deps.parts.remove(joined.consumed);
  // Replace, then delete: the old files are removed only once the new ones are linked.
  await removeReplacedFiles(deps, outcome.row, outcome.replaced);
  deps.strapi.log.info(`[speech] stored narration of ${narration.articleId}`);
}

/** A file that could not be removed keeps the row listed for next time. */
export async function removeReplacedFiles(deps: Pick<StoreStepDeps, 'media' | 'repository'>, row: NarrationRow, replaced: MediaFileRef[]) {
  if (await deps.media.remove(replaced)) await deps.repository.apply(row, { type: 'replacedFilesRemoved' });
}

/** The headings of the text as narrated now, placed on the SRT's cues; none rather than a failed store. */
async function chaptersOf(deps: StoreStepDeps, narration: NarrationRow, cues: Cue[]): Promise<Chapter[] | null> {
  try {
    const version = await deps.describeLive(narration);
    return version && chaptersFromCues(version.text, version.headings, cues, version.title);
  } catch (error) {
    deps.strapi.log.warn(`[speech] no chapters for ${narration.articleId}: ${(error as Error).message}`);
    return null;
  }
}

/** A store stopped from outside: a lost lease means hands off; a shutdown hands the row back. */
async function handOff(deps: StoreStepDeps, narration: NarrationRow, owner: string, controller: AbortController) {
  const reason = controller.signal.reason as StoreStopped | undefined;
  deps.strapi.log.info(`[speech] stopped storing ${narration.articleId}: ${reason?.message ?? 'aborted'}`);
  if (reason?.why === 'shutdown') await deps.repository.apply(narration, { type: 'storeAbandoned', owner, now: deps.now() });
}

/** A download or upload that failed: tried again later unless no attempt can mend it. */
async function recordStoreFailure(deps: StoreStepDeps, narration: NarrationRow, owner: string, error: unknown) {
  const { strapi, repository, config, now } = deps;
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
}
