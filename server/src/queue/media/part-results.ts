import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { downloadToTempFile, type DownloadedFile } from '../../download';
import { createLimiter } from '../../utils';
import type { ResultUrls } from '../domain/states';
import { mediaOrigins, type MediaConfig } from './media';

/**
 * Parts' results fetched as their callbacks arrive, so the join after the last callback downloads that
 * part alone. A bounded cache in this process's temp folder: a result not fetched here is downloaded
 * by the join as usual (another instance may have heard the callback).
 */

export interface FetchedPartResult {
  audio: DownloadedFile;
  srt: DownloadedFile;
}

/** Downloads at once: the parts' callbacks come one by one, as the service finishes them. */
const PARALLEL_FETCHES = 2;
/** Results held at most: two hours of narration in parts of the default size, on their way at once. */
const MOST_HELD = 120;
/** An article's parts come within minutes of each other; a result not joined by then will not be. */
const HELD_MS = 20 * 60 * 1000;

const keyOf = (result: ResultUrls) => `${result.audioFile}\n${result.srtFile}`;

const FOLDER_PREFIX = 'speech-parts-';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The folders of processes that are gone (a Strapi killed, not stopped): what they fetched is of no use. */
async function removeFoldersLeft(base: string): Promise<void> {
  const names = await fs.readdir(base).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(new RegExp(`^${FOLDER_PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (pid && pid !== process.pid && !isRunning(pid)) await fs.rm(path.join(base, name), { recursive: true, force: true });
  }
}

export function createPartResults(
  config: MediaConfig,
  options: {
    tempDir?: string;
    now?: () => number;
  } = {}
) {
  const clock = options.now ?? Date.now;
  const held = new Map<string, { at: number; fetched: Promise<FetchedPartResult | null> }>();
  const stopping = new AbortController();
  const inTurn = createLimiter(PARALLEL_FETCHES);
  let folder: Promise<string> | null = null;

  async function removeFiles(fetched: Promise<FetchedPartResult | null>) {
    const files = await fetched;
    if (files) await Promise.all([fs.rm(files.audio.path, { force: true }), fs.rm(files.srt.path, { force: true })]);
  }

  function dropStale() {
    for (const [key, entry] of held) {
      if (clock() - entry.at < HELD_MS) continue;
      held.delete(key);
      void removeFiles(entry.fetched);
    }
  }

  async function download(result: ResultUrls): Promise<FetchedPartResult | null> {
    const base = options.tempDir ?? os.tmpdir();
    folder ??= removeFoldersLeft(base).then(() => fs.mkdtemp(path.join(base, `${FOLDER_PREFIX}${process.pid}-`)));
    const rules = {
      allowedOrigins: mediaOrigins(config),
      timeoutMs: config.downloadTimeoutMs,
      tempDir: await folder,
      signal: stopping.signal,
    };
    const settled = await Promise.allSettled([
      downloadToTempFile(result.audioFile, { ...rules, maxBytes: config.maxAudioBytes, kind: 'mp3' }),
      downloadToTempFile(result.srtFile, { ...rules, maxBytes: config.maxSubtitleBytes, kind: 'srt' }),
    ]);
    const [audio, srt] = settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : null));
    if (audio && srt) return { audio, srt };
    // The join downloads it again and says why it failed, if it still does.
    await Promise.all([audio, srt].map((file) => file && fs.rm(file.path, { force: true })));
    return null;
  }

  return {
    fetch(result: ResultUrls): void {
      if (stopping.signal.aborted) return;
      dropStale();
      const key = keyOf(result);
      if (held.has(key) || held.size >= MOST_HELD) return;
      const fetched = inTurn(() => (stopping.signal.aborted ? Promise.resolve(null) : download(result))).catch(() => null);
      held.set(key, { at: clock(), fetched });
    },

    /** Moves the result's files into the join's work folder; null when not fetched here. */
    async take(result: ResultUrls, dir: string): Promise<FetchedPartResult | null> {
      dropStale();
      const key = keyOf(result);
      const entry = held.get(key);
      if (!entry) return null;
      held.delete(key);
      const files = await entry.fetched;
      if (!files) return null;
      const moved = async (file: DownloadedFile) => {
        const to = path.join(dir, path.basename(file.path));
        await fs.rename(file.path, to);
        return { ...file, path: to };
      };
      try {
        return { audio: await moved(files.audio), srt: await moved(files.srt) };
      } catch {
        await removeFiles(Promise.resolve(files));
        return null;
      }
    },

    async close(): Promise<void> {
      stopping.abort();
      const entries = [...held.values()];
      held.clear();
      await Promise.all(entries.map((entry) => removeFiles(entry.fetched)));
      if (folder) await fs.rm(await folder, { recursive: true, force: true });
    },
  };
}

export type PartResults = ReturnType<typeof createPartResults>;
