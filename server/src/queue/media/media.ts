import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { type DownloadConfig, DownloadRefusedError, downloadToTempFile } from '../../download';
import type { SpeechClientConfig } from '../../speech-client';
import { NARRATION_UID } from '../../content-types';
import type { MediaFileRef, NarrationRow } from '../rows/narration-rows';
import { narrationDuration, parseSrt, srtToVtt, type Cue } from '../../subtitles';

/**
 * Turns an accepted callback (persisted on the row as `pendingResult`) into three Media Library
 * files: the MP3, the SRT and a WebVTT converted from it (so an HTML <audio> + <track> works).
 * Uploads go through the upload plugin's service, so any upload provider works, and each file is
 * linked to the row's `pendingUploads` by the upload that creates it (file-links.ts): a store killed
 * before the row's final write leaves nothing the row does not name, and a link the database's
 * going away cut off is found by the file's name (removeUnlinkedUploads). Nothing is read back from
 * storage: the duration and length are measured on the download as it streams in, before the upload.
 */

export interface StoredMedia {
  audio: MediaFileRef;
  subtitles: MediaFileRef;
  subtitlesVtt: MediaFileRef;
  /** How long the MP3 plays (read from its frames); where the last subtitle cue ends when the MP3 cannot be read; else null. */
  durationSeconds: number | null;
  /** The stored MP3's exact length in bytes (the Media Library's `size` is in rounded KB). */
  audioBytes: number;
  /** The SRT's cues (for chapters). */
  cues: Cue[];
}

/** The row holds no result to store: no later attempt would find one either. */
export class NothingToStore extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NothingToStore';
  }
}

/** What the media store reads of the configuration: the download limits, and the service's hosts its files come from. */
export type MediaConfig = DownloadConfig & Pick<SpeechClientConfig, 'baseUrl' | 'webUrl'>;

/** Allowed download origins: configured, or the origins of the service's own hosts. */
export function mediaOrigins(config: Pick<MediaConfig, 'mediaHosts' | 'baseUrl' | 'webUrl'>): string[] {
  if (config.mediaHosts.length > 0) return config.mediaHosts;
  return [...new Set([new URL(config.baseUrl).origin, new URL(config.webUrl).origin])];
}

function safeFileStem(row: Pick<NarrationRow, 'articleId'>): string {
  return `narration-${row.articleId.replace(/[^a-zA-Z0-9_-]+/g, '-').slice(0, 80)}`;
}

/** The names a narration's three files are uploaded under. */
function narrationFileNames(row: Pick<NarrationRow, 'articleId'>): string[] {
  const stem = safeFileStem(row);
  return [`${stem}.mp3`, `${stem}.srt`, `${stem}.vtt`];
}

const FILE_UID = 'plugin::upload.file';

type FoundFile = MediaFileRef & { related?: unknown[] | null; createdBy?: { id: number } | null };

export function createMediaStore(strapi: Core.Strapi, config: MediaConfig) {
  const upload = () => strapi.plugin('upload').service('upload');

  async function uploadFile(row: NarrationRow, filepath: string, name: string, mimetype: string, caption: string): Promise<MediaFileRef> {
    const { size } = await fs.stat(filepath);
    const [file] = await upload().upload({
      data: { fileInfo: { name, caption, alternativeText: caption }, ref: NARRATION_UID, refId: row.id, field: 'pendingUploads' },
      files: { filepath, originalFilename: name, mimetype, size },
    });
    return file as MediaFileRef;
  }

  return {
    /**
     * Downloads and uploads the pending result. Throws DownloadRefusedError when a file may not or
     * cannot be fetched, and the signal's reason once `signal` aborts (then nothing it uploaded is
     * left behind); temporary files are removed on every path.
     */
    async store(row: NarrationRow, signal?: AbortSignal): Promise<StoredMedia> {
      const pending = row.pendingResult;
      if (!pending) throw new NothingToStore(`narration ${row.articleId} has no pending result to store`);
      const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'speech-media-'));
      try {
        const common = { allowedOrigins: mediaOrigins(config), timeoutMs: config.downloadTimeoutMs, tempDir: workDir, signal };
        const audio = await downloadToTempFile(pending.audioFile, { ...common, maxBytes: config.maxAudioBytes, kind: 'mp3' });
        const srt = await downloadToTempFile(pending.srtFile, { ...common, maxBytes: config.maxSubtitleBytes, kind: 'srt' });
        const vttPath = path.join(workDir, 'subtitles.vtt');
        const srtText = await fs.readFile(srt.path, 'utf8');
        await fs.writeFile(vttPath, srtToVtt(srtText), 'utf8');
        // Read from the MP3's frames as it downloaded; the SRT's last cue only stands in when they cannot be read.
        const durationSeconds = audio.durationSeconds ?? narrationDuration(srtText);
        const audioBytes = audio.bytes;

        const files = await this.upload(row, { audio: audio.path, subtitles: srt.path, subtitlesVtt: vttPath }, signal);
        return { ...files, durationSeconds, audioBytes, cues: parseSrt(srtText) };
      } finally {
        await fs.rm(workDir, { recursive: true, force: true });
      }
    },

    /**
     * Uploads a narration's three files (an MP3, its SRT and its WebVTT, on disk), each linked to the
     * row's `pendingUploads` by the insert that creates it. An abort between uploads (an upload to
     * the provider cannot be interrupted) or a failed upload removes what was uploaded. One after
     * another: side by side they were no faster (the MP3's bytes are the work).
     */
    async upload(
      row: NarrationRow,
      paths: { audio: string; subtitles: string; subtitlesVtt: string },
      signal?: AbortSignal
    ): Promise<Pick<StoredMedia, 'audio' | 'subtitles' | 'subtitlesVtt'>> {
      const caption = `Narration of "${row.title ?? row.articleId}"`;
      const uploaded: MediaFileRef[] = [];
      try {
        signal?.throwIfAborted();
        const [audioName, srtName, vttName] = narrationFileNames(row);
        uploaded.push(await uploadFile(row, paths.audio, audioName, 'audio/mpeg', caption));
        signal?.throwIfAborted();
        uploaded.push(await uploadFile(row, paths.subtitles, srtName, 'application/x-subrip', caption));
        signal?.throwIfAborted();
        uploaded.push(await uploadFile(row, paths.subtitlesVtt, vttName, 'text/vtt', caption));
        signal?.throwIfAborted();
      } catch (error) {
        await this.remove(uploaded);
        // A file whose link the failure cut off is not among `uploaded`; the next claim tries again if this cannot.
        await this.removeUnlinkedUploads(row);
        throw error;
      }
      const [audio, subtitles, subtitlesVtt] = uploaded;
      return { audio, subtitles, subtitlesVtt };
    },

    /**
     * Where a reader is sent for a stored file: its Media Library URL, or, when the upload provider
     * keeps files private (Strapi's S3 provider with `ACL: 'private'`), a URL the provider signs for
     * it now, made by the upload plugin's file service as Strapi's own API makes them.
     */
    async readableUrl(file: MediaFileRef): Promise<{ url: string; signed: boolean }> {
      const readable = await strapi
        .plugin('upload')
        .service('file')
        .signFileUrls({ ...file });
      return { url: readable.url, signed: Boolean(readable.isUrlSigned) };
    },

    /**
     * Removes the uploads of this narration that nothing links to. Strapi's upload service inserts a
     * file's row, then links it (here to the narration's `pendingUploads`) in a transaction of its
     * own; when the database goes away between the two, the clean-up it attempts fails with it, and
     * the file stays in the Media Library linked to nothing, where neither the row nor its deletion
     * would ever find it (seen on MariaDB restarted during a drain). Such a file is known by what the
     * plugin gives its uploads: this narration's file names, no admin user behind it, no link at all.
     * True when none is left; false when they could not be looked for or removed (the database is
     * still away), and the caller waits.
     */
    async removeUnlinkedUploads(row: Pick<NarrationRow, 'articleId'>): Promise<boolean> {
      let found: FoundFile[];
      try {
        found = (await strapi.db.query(FILE_UID).findMany({
          where: { name: { $in: narrationFileNames(row) } },
          populate: { related: true, createdBy: { select: ['id'] } },
        })) as FoundFile[];
      } catch (error) {
        strapi.log.warn(`[speech] could not look for unlinked uploads of ${row.articleId}: ${(error as Error).message}`);
        return false;
      }
      const unlinked = found.filter((file) => !file.createdBy && (file.related ?? []).length === 0);
      if (unlinked.length > 0) strapi.log.info(`[speech] removing ${unlinked.length} unlinked upload(s) of ${row.articleId}`);
      return this.remove(unlinked);
    },

    /**
     * Removes Media Library files (replaced or orphaned ones), from the provider's storage too;
     * missing files are not an error. True when every one is gone.
     */
    async remove(files: Array<MediaFileRef | null | undefined>): Promise<boolean> {
      let removed = true;
      for (const file of files) {
        if (!file?.id) continue;
        try {
          const full = await upload().findOne(file.id);
          if (full) await upload().remove(full);
        } catch (error) {
          removed = false;
          strapi.log.warn(`[speech] could not remove media file ${file.id}: ${(error as Error).message}`);
        }
      }
      return removed;
    },
  };
}

export type MediaStore = ReturnType<typeof createMediaStore>;
export { DownloadRefusedError };
