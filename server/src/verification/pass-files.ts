import path from 'node:path';
import { joinMp3, mp3FileSource } from '../audio';
import type { MediaFileRef, NarrationRow, Queue, StoredPart } from '../queue';
import type { CheckRow } from './domain/check';
import type { AudioToCheck } from './domain/view';

export interface PassFilesOptions {
  files: Pick<Queue, 'localCopy'>;
  maxAudioBytes: number;
  downloadTimeoutMs: number;
}

/**
 * What a pass reads of the stored audio, in its own folder: each stored MP3 once, however many of
 * its parts are checked (on S3 it is a download of the whole joined file).
 */
export function passFiles(workDir: string, { files, maxAudioBytes, downloadTimeoutMs }: PassFilesOptions) {
  const read = new Map<number, Promise<string>>();
  return {
    workDir,
    stored(file: MediaFileRef): Promise<string> {
      let local = read.get(file.id);
      if (!local) {
        local = files.localCopy(file, { workDir, maxBytes: maxAudioBytes, timeoutMs: downloadTimeoutMs });
        read.set(file.id, local);
        local.catch(() => read.delete(file.id));
      }
      return local;
    },
  };
}
export type PassFiles = ReturnType<typeof passFiles>;

/** The file to send for one check: the stored MP3 itself, or a part's frames cut from it (`cut`: removed after the upload). */
export async function audioFile(narration: NarrationRow, item: AudioToCheck, row: CheckRow, files: PassFiles) {
  const stored = await files.stored(narration.audio!);
  if (!item.part) return { path: stored, cut: false };
  const part = path.join(files.workDir, `part-${row.id}.mp3`);
  await joinMp3([mp3FileSource(stored, item.part as Pick<StoredPart, 'audioOffset' | 'audioLength'>)], part);
  return { path: part, cut: true };
}
