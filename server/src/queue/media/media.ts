import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { tagMp3File, type NarrationTags } from '../../audio';
import { type DownloadConfig, DownloadRefusedError, downloadToTempFile } from '../../download';
import type { SpeechClientConfig } from '../../speech-client';
import { NARRATION_UID } from '../../content-types';
import type { MediaFileRef, NarrationRow } from '../rows/narration-rows';
import { narrationDuration, parseSrt, srtToVtt, type Cue } from '../../subtitles';

/**
 * Turns an accepted callback into the MP3, SRT and WebVTT files, through the upload plugin so any
 * provider works; each file is linked to `pendingUploads` as it is created (file-links.ts).
 */

export interface StoredMedia {
  audio: MediaFileRef;
  subtitles: MediaFileRef;
  subtitlesVtt: MediaFileRef;
  durationSeconds: number | null;
  /** Exact bytes: the Media Library's `size` is in rounded KB. */
  audioBytes: number;
  cues: Cue[];
}

/** The row holds no result to store: no later attempt would find one either. */
export class NothingToStore extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NothingToStore';
  }
}

export type MediaConfig = DownloadConfig & Pick<SpeechClientConfig, 'baseUrl' | 'webUrl'>;

/** Allowed download origins: configured, or the origins of the service's own hosts. */
export function mediaOrigins(config: Pick<MediaConfig, 'mediaHosts' | 'baseUrl' | 'webUrl'>): string[] {
  if (config.mediaHosts.length > 0) return config.mediaHosts;
  return [...new Set([new URL(config.baseUrl).origin, new URL(config.webUrl).origin])];
}

function safeFileStem(row: Pick<NarrationRow, 'articleId'>): string {
  return `narration-${row.articleId.replace(/[^a-zA-Z0-9_-]+/g, '-').slice(0, 80)}`;
}

function narrationFileNames(row: Pick<NarrationRow, 'articleId'>): string[] {
  const stem = safeFileStem(row);
  return [`${stem}.mp3`, `${stem}.srt`, `${stem}.vtt`];
}

const FILE_UID = 'plugin::upload.file';

type FoundFile = MediaFileRef & { related?: unknown[] | null; createdBy?: { id: number } | null };

/** Files into the Media Library, linked to their narration row, and out again. */
function createUploads(strapi: Core.Strapi) {
  const upload = () => strapi.plugin('upload').service('upload');

  async function uploadFile(row: NarrationRow, filepath: string, name: string, mimetype: string, caption: string): Promise<MediaFileRef> {
    const { size } = await fs.stat(filepath);
    const [file] = await upload().upload({
      data: { fileInfo: { name, caption, alternativeText: caption }, ref: NARRATION_UID, refId: row.id, field: 'pendingUploads' },
      files: { filepath, originalFilename: name, mimetype, size },
    });
    return file as MediaFileRef;
  }

  const uploads = {
    /** An abort between uploads (one upload cannot be interrupted) or a failed upload removes what was uploaded. */
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
        await uploads.remove(uploaded);
        // A file whose link the failure cut off is not among `uploaded`; the next claim tries again if this cannot.
        await uploads.removeUnlinkedUploads(row);
        throw error;
      }
      const [audio, subtitles, subtitlesVtt] = uploaded;
      return { audio, subtitles, subtitlesVtt };
    },

    /**
     * Strapi's upload service inserts a file's row and links it in a transaction of its own: a database
     * gone between the two leaves a file linked to nothing. Found by this narration's file names, no
     * admin user and no link. False when they could not be looked for or removed.
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
      return uploads.remove(unlinked);
    },

    /** From the provider's storage too; missing files are not an error. True when every one is gone. */
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
  return uploads;
}

/** The site's name, the tags' artist. */
export type SiteName = () => Promise<string>;

export function createMediaStore(strapi: Core.Strapi, config: MediaConfig, siteName: SiteName) {
  const uploads = createUploads(strapi);
  /** What a stored MP3 says of itself: the article, its language, the site, and that its voice is synthetic. */
  const tagsOf = async (row: NarrationRow): Promise<NarrationTags> => ({
    title: row.title,
    language: row.targetLocale,
    artist: (await siteName()) || null,
  });
  return {
    ...uploads,
    tagsOf,
    /** Throws DownloadRefusedError when a file may not be fetched; on abort nothing uploaded is left, and temporary files are removed on every path. */
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
        const audioBytes = audio.bytes + (await tagMp3File(audio.path, await tagsOf(row)));

        const files = await uploads.upload(row, { audio: audio.path, subtitles: srt.path, subtitlesVtt: vttPath }, signal);
        return { ...files, durationSeconds, audioBytes, cues: parseSrt(srtText) };
      } finally {
        await fs.rm(workDir, { recursive: true, force: true });
      }
    },

    /** The Media Library URL, or one the provider signs now when it keeps files private (S3 `ACL: 'private'`). */
    async readableUrl(file: MediaFileRef): Promise<{ url: string; signed: boolean }> {
      const readable = await strapi
        .plugin('upload')
        .service('file')
        .signFileUrls({ ...file });
      return { url: readable.url, signed: Boolean(readable.isUrlSigned) };
    },
  };
}

export type MediaStore = ReturnType<typeof createMediaStore>;
export { DownloadRefusedError };
