import { MAX_TRANSCRIPTION_UPLOAD_BYTES, type TranscriptionStatus } from '../../api/types';

/** Pure helpers of the Transcribe page (unit-tested without a browser). */

/** Languages offered by the picker; Arabic dialects first (the service's strength), then others. */
export const LANGUAGES = [
  'ar-JO',
  'ar-SA',
  'ar-EG',
  'ar-AE',
  'ar-KW',
  'ar-QA',
  'ar-BH',
  'ar-OM',
  'ar-LB',
  'ar-SY',
  'ar-IQ',
  'ar-PS',
  'ar-MA',
  'ar-DZ',
  'ar-TN',
  'ar-LY',
  'ar-SD',
  'ar-YE',
  'en-US',
  'en-GB',
  'en-AU',
  'en-IN',
  'fr-FR',
  'fr-CA',
  'de-DE',
  'es-ES',
  'es-MX',
  'it-IT',
  'pt-BR',
  'tr-TR',
  'fa-IR',
  'ur-PK',
  'hi-IN',
] as const;

/** "Arabic (Jordan) · ar-JO" in the editor's language, or the bare code when Intl cannot name it. */
export function languageLabel(code: string, displayLocale: string): string {
  try {
    const names = new Intl.DisplayNames([displayLocale, 'en'], { type: 'language', languageDisplay: 'standard' });
    const name = names.of(code);
    return name && name !== code ? `${name} · ${code}` : code;
  } catch {
    return code;
  }
}

/** Seconds -> "mm:ss", or "h:mm:ss" from an hour on. */
export function formatTimestamp(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const pad = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(secs)}` : `${pad(minutes)}:${pad(secs)}`;
}

/** 1536 -> "1.5 KB"; 52428800 -> "50 MB". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded} ${units[unit]}`;
}

export type FileProblem = 'tooLarge' | 'empty' | 'notAudio' | null;

/** Why a chosen file cannot be sent (checked before any request). */
export function checkAudioFile(file: { size: number; type: string; name: string }): FileProblem {
  if (file.size > MAX_TRANSCRIPTION_UPLOAD_BYTES) return 'tooLarge';
  if (file.size === 0) return 'empty';
  // Browsers leave the type empty for some extensions: accept those and let the service decide.
  if (file.type && !file.type.startsWith('audio/') && !file.type.startsWith('video/') && file.type !== 'application/octet-stream')
    return 'notAudio';
  return null;
}

export function isTranscriptionInProgress(status: TranscriptionStatus | undefined | null): boolean {
  return status === 'uploading' || status === 'queued' || status === 'processing';
}

export type StatusVariant = 'secondary' | 'primary' | 'success' | 'danger';

export const STATUS_VARIANT: Record<TranscriptionStatus, StatusVariant> = {
  uploading: 'secondary',
  queued: 'secondary',
  processing: 'primary',
  completed: 'success',
  failed: 'danger',
};

/** How often the page asks for a job in progress: the server's interval, within 0.5-2 s. */
export function detailPollMs(serverPollMs: number | undefined): number {
  if (!serverPollMs || !Number.isFinite(serverPollMs)) return 2_000;
  return Math.min(2_000, Math.max(500, serverPollMs));
}

/** Upload percentage, 0-100, whole numbers. */
export function uploadPercent(loaded: number, total: number): number {
  if (!total || total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.round((loaded / total) * 100)));
}
