import { safeFileName, splitExtension } from '../utils';

export function fileStem(fileName: string): string {
  // The upload's own rules, so a row stored before names were made safe still saves.
  return splitExtension(safeFileName(fileName, 'transcription')).stem;
}

/** Keeps non-ASCII names (RFC 6266 / 5987). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
