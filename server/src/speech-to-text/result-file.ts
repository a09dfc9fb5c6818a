/** The names a transcription result is downloaded and saved under. Pure. */
import { safeFileName, splitExtension } from '../utils';

/** `interview.final.mp3` -> `interview.final`; never empty, no path separators, control characters or `<>:"|?*`. */
export function fileStem(fileName: string): string {
  // The same rules as the upload's name, so a row stored before names were made safe still saves.
  return splitExtension(safeFileName(fileName, 'transcription')).stem;
}

/** A Content-Disposition that keeps non-ASCII names (RFC 6266 / 5987). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
