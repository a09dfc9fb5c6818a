import { DEFAULT_TRANSCRIPTION_LANGUAGE, MAX_TRANSCRIPTION_UPLOAD_BYTES } from '../../../admin/src/api/types';
import {
  LANGUAGES,
  STATUS_VARIANT,
  checkAudioFile,
  detailPollMs,
  formatBytes,
  formatTimestamp,
  isTranscriptionInProgress,
  languageLabel,
  uploadPercent,
} from '../../../admin/src/pages/Transcribe/utils';

describe('Transcribe page helpers', () => {
  it('formats segment times as mm:ss, and h:mm:ss from an hour on', () => {
    expect(formatTimestamp(0)).toBe('00:00');
    expect(formatTimestamp(2.13)).toBe('00:02');
    expect(formatTimestamp(65.9)).toBe('01:05');
    expect(formatTimestamp(3599)).toBe('59:59');
    expect(formatTimestamp(3600 + 62)).toBe('1:01:02');
    expect(formatTimestamp(-3)).toBe('00:00');
    expect(formatTimestamp(Number.NaN)).toBe('00:00');
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(13 * 1024 + 100)).toBe('13 KB');
    expect(formatBytes(MAX_TRANSCRIPTION_UPLOAD_BYTES)).toBe('50 MB');
    expect(formatBytes(51 * 1024 * 1024)).toBe('51 MB');
    expect(formatBytes(null)).toBe('');
  });

  it('refuses files over 50 MB, empty files and non-audio files before any request', () => {
    expect(checkAudioFile({ size: MAX_TRANSCRIPTION_UPLOAD_BYTES, type: 'audio/mpeg', name: 'a.mp3' })).toBeNull();
    expect(checkAudioFile({ size: MAX_TRANSCRIPTION_UPLOAD_BYTES + 1, type: 'audio/mpeg', name: 'a.mp3' })).toBe('tooLarge');
    expect(checkAudioFile({ size: 0, type: 'audio/wav', name: 'a.wav' })).toBe('empty');
    expect(checkAudioFile({ size: 10, type: 'image/png', name: 'a.png' })).toBe('notAudio');
    // Browsers leave some audio types empty: the service decides.
    expect(checkAudioFile({ size: 10, type: '', name: 'a.opus' })).toBeNull();
    expect(checkAudioFile({ size: 10, type: 'video/mp4', name: 'a.mp4' })).toBeNull();
  });

  it("offers ar-JO first, and names languages in the editor's language", () => {
    expect(DEFAULT_TRANSCRIPTION_LANGUAGE).toBe('ar-JO');
    expect(LANGUAGES[0]).toBe('ar-JO');
    expect(LANGUAGES).toEqual(expect.arrayContaining(['ar-SA', 'ar-EG', 'ar-AE', 'en-US', 'en-GB', 'fr-FR']));
    expect(new Set(LANGUAGES).size).toBe(LANGUAGES.length);
    expect(languageLabel('en-US', 'en')).toBe('English (United States) · en-US');
    expect(languageLabel('ar-JO', 'ar')).toMatch(/[\u0600-\u06FF].* · ar-JO$/);
    expect(languageLabel('zz-ZZ-nonsense-code', 'en')).toContain('zz-ZZ');
  });

  it('polls only jobs in progress, within 0.5-2 s', () => {
    expect(['uploading', 'queued', 'processing'].every((status) => isTranscriptionInProgress(status as never))).toBe(true);
    expect(isTranscriptionInProgress('completed')).toBe(false);
    expect(isTranscriptionInProgress('failed')).toBe(false);
    expect(detailPollMs(undefined)).toBe(2_000);
    expect(detailPollMs(5_000)).toBe(2_000);
    expect(detailPollMs(300)).toBe(500);
    expect(detailPollMs(1_000)).toBe(1_000);
  });

  it('maps every status to a badge colour', () => {
    expect(STATUS_VARIANT).toEqual({
      uploading: 'secondary',
      queued: 'secondary',
      processing: 'primary',
      completed: 'success',
      failed: 'danger',
    });
  });

  it('computes the upload percentage', () => {
    expect(uploadPercent(0, 0)).toBe(0);
    expect(uploadPercent(1, 3)).toBe(33);
    expect(uploadPercent(5, 4)).toBe(100);
  });
});
