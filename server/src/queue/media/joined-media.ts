import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { joinMp3, mp3FileSource, narrationTag, type Mp3PartSource } from '../../audio';
import { DownloadRefusedError, downloadToTempFile } from '../../download';
import { joinCues, partCues, formatSrt, formatVtt, parseSrt, type Cue } from '../../subtitles';
import type { NarrationPartRow, NarrationRow } from '../domain/narration-row';
import { isReadyPart } from '../domain/part-plan';
import type { StoredPart } from '../domain/states/segment-map';
import { mediaOrigins, type MediaConfig, type MediaStore, type StoredMedia } from './media';
import type { PartResults } from './part-results';
import type { PartRows } from '../rows/part-rows';
import { localPathOf, StoredFileUnreadable } from './stored-files';
import { boundedMap } from '../../utils';

/** Parts fetched from the service at once while joining: a few, as a browser fetches from one host. */
const PARALLEL_PART_DOWNLOADS = 4;

/** Joins a segmented narration's parts into its three files, streaming: a long narration is never held in memory. */

export class PartsLostError extends Error {
  constructor(
    readonly keys: string[],
    /** The map of the stored audio without the parts that could not be read back from it (planned again as new). */
    readonly segments: StoredPart[] | null
  ) {
    super(`${keys.length} part(s) could not be fetched any more: asking the speech service for them again`);
  }
}

export interface JoinedMedia extends StoredMedia {
  segments: StoredPart[];
  consumed: number[];
}

interface PartSource {
  audio: Mp3PartSource;
  cues: Cue[];
}

/** Promise.all that waits for every promise, so nothing still writes into the work folder when it is removed. */
async function allSettledOrThrow<T extends readonly unknown[]>(promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

interface JoinDeps {
  strapi: Core.Strapi;
  config: MediaConfig;
  media: MediaStore;
  parts: Pick<PartRows, 'forNarration'>;
  /** A claimed row is read without its files. */
  withFiles: (id: number) => Promise<NarrationRow | null>;
  partResults?: Pick<PartResults, 'take'>;
}

export function createJoinedMedia(deps: JoinDeps) {
  return {
    /** Throws PartsLostError when a part can be fetched from neither storage nor the service; temporary files are removed on every path. */
    async join(row: NarrationRow, signal?: AbortSignal): Promise<JoinedMedia> {
      const plan = row.segmentPlan ?? [];
      if (!plan.length) throw new Error(`narration ${row.articleId} has no parts to join`);
      const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'speech-join-'));
      try {
        const ready = new Map((await deps.parts.forNarration(row.id)).filter(isReadyPart).map((part) => [part.articleId, part]));
        // Every ready part of the plan is in the joined audio once it is linked, downloaded now or read back.
        const keys = [...new Set(plan.map(({ key }) => key))];
        const consumed = keys.flatMap((key) => (ready.has(key) ? [ready.get(key)!.id] : []));
        const download = { allowedOrigins: mediaOrigins(deps.config), timeoutMs: deps.config.downloadTimeoutMs, tempDir: workDir, signal };
        // A result at the service wins over the stored copy of the same key: it is a fresh take (the editor asked to regenerate).
        const atService = keys.filter((key) => ready.get(key)?.pendingResult);
        const lost: string[] = [];
        // The parts at the service are fetched a few at a time while the stored audio is read back.
        const [sources, fetched] = await allSettledOrThrow([
          storedSources(deps, row, workDir, signal),
          fetchedSources(
            deps,
            atService.map((key) => ({ key, result: ready.get(key)!.pendingResult! })),
            download,
            lost
          ),
        ]);
        for (const entry of fetched) if (entry) sources.set(entry.key, entry.source);
        for (const key of keys) if (!sources.has(key) && !lost.includes(key)) lost.push(key);
        if (lost.length) {
          const unreadable = new Set(lost);
          throw new PartsLostError(lost, row.segments?.filter((part) => !unreadable.has(part.key)) ?? null);
        }

        return { ...(await joinAndUpload(deps, row, plan, sources, workDir, signal)), consumed };
      } finally {
        await fs.rm(workDir, { recursive: true, force: true });
      }
    },
  };
}

export type JoinedMediaStore = ReturnType<typeof createJoinedMedia>;

/** The parts read back from the stored audio (unchanged parts are never asked of the service again). */
async function storedSources(
  { strapi, config, media, withFiles }: JoinDeps,
  claimed: NarrationRow,
  workDir: string,
  signal?: AbortSignal
): Promise<Map<string, PartSource>> {
  const stored = claimed.segments ?? [];
  const sources = new Map<string, PartSource>();
  if (!stored.length) return sources;
  const row = await withFiles(claimed.id);
  if (!row?.audio || !row.subtitles) return sources;
  const options = { workDir, timeoutMs: config.downloadTimeoutMs, signal };
  let audioPath: string;
  let cues: Cue[];
  try {
    audioPath = await localPathOf(strapi, media, row.audio, { ...options, maxBytes: config.maxAudioBytes });
    cues = parseSrt(
      await fs.readFile(await localPathOf(strapi, media, row.subtitles, { ...options, maxBytes: config.maxSubtitleBytes }), 'utf8')
    );
  } catch (error) {
    // Removed from the Media Library by hand, or the storage is gone: those parts are asked for again (free when the service still has them).
    if (!(error instanceof StoredFileUnreadable)) throw error;
    strapi.log.warn(`[speech] the stored narration of ${row.articleId} could not be read back: ${error.message}`);
    return sources;
  }
  for (const part of stored) {
    if (sources.has(part.key)) continue;
    sources.set(part.key, {
      audio: mp3FileSource(audioPath, part),
      cues: partCues(cues, { first: part.cueFirst, count: part.cueCount, offsetMs: part.offsetMs }),
    });
  }
  return sources;
}

/** The parts whose results are at the service, a few at a time; a key whose files are gone for good goes to `lost`. */
function fetchedSources(
  { config, partResults }: JoinDeps,
  atService: Array<{ key: string; result: NonNullable<NarrationPartRow['pendingResult']> }>,
  download: Omit<Parameters<typeof downloadToTempFile>[1], 'maxBytes' | 'kind'> & { tempDir: string },
  lost: string[]
) {
  return boundedMap(atService, PARALLEL_PART_DOWNLOADS, async ({ key, result }) => {
    try {
      const fetched = await partResults?.take(result, download.tempDir);
      const [audio, srt] = fetched
        ? [fetched.audio, fetched.srt]
        : await allSettledOrThrow([
            downloadToTempFile(result.audioFile, { ...download, maxBytes: config.maxAudioBytes, kind: 'mp3' }),
            downloadToTempFile(result.srtFile, { ...download, maxBytes: config.maxSubtitleBytes, kind: 'srt' }),
          ]);
      return { key, source: { audio: mp3FileSource(audio.path), cues: parseSrt(await fs.readFile(srt.path, 'utf8')) } };
    } catch (error) {
      // Gone from the service's host for good: asked for again. A passing failure is retried as a download.
      if (!(error instanceof DownloadRefusedError) || error.retryable) throw error;
      lost.push(key);
      return null;
    }
  });
}

/** The parts in the plan's order, joined into one MP3 and its subtitles, uploaded to the Media Library. */
async function joinAndUpload(
  { media }: JoinDeps,
  row: NarrationRow,
  plan: NonNullable<NarrationRow['segmentPlan']>,
  sources: Map<string, PartSource>,
  workDir: string,
  signal?: AbortSignal
): Promise<Omit<JoinedMedia, 'consumed'>> {
  const sourceOf = (key: string) => sources.get(key)!;
  const audioPath = path.join(workDir, 'joined.mp3');
  // The plugin's tag in front: the parts' offsets and the byte length count it.
  const joined = await joinMp3(
    plan.map(({ key }) => sourceOf(key).audio),
    audioPath,
    narrationTag(await media.tagsOf(row))
  );
  const cues = joinCues(plan.map(({ key }, index) => ({ cues: sourceOf(key).cues, durationSeconds: joined.parts[index].durationSeconds })));
  const srtPath = path.join(workDir, 'joined.srt');
  const vttPath = path.join(workDir, 'joined.vtt');
  await fs.writeFile(srtPath, formatSrt(cues.cues), 'utf8');
  await fs.writeFile(vttPath, formatVtt(cues.cues), 'utf8');
  const files = await media.upload(row, { audio: audioPath, subtitles: srtPath, subtitlesVtt: vttPath }, signal);
  return {
    ...files,
    durationSeconds: joined.durationSeconds,
    audioBytes: joined.bytes,
    cues: cues.cues,
    segments: plan.map((part, index) => ({
      key: part.key,
      characters: part.characters,
      audioOffset: joined.parts[index].audioOffset,
      audioLength: joined.parts[index].audioLength,
      durationSeconds: joined.parts[index].durationSeconds,
      offsetMs: cues.parts[index].offsetMs,
      cueFirst: cues.parts[index].first,
      cueCount: cues.parts[index].count,
    })),
  };
}
