/** The player's own words, in English and Arabic. */

export interface PlayerStrings {
  player: string;
  play: string;
  pause: string;
  back: string;
  forward: string;
  position: string;
  /** "{elapsed} of {total}", the seek bar's spoken value. */
  of: string;
  speed: string;
  download: string;
  transcript: string;
  chapters: string;
  loading: string;
  preparing: string;
  failed: string;
  missing: string;
  error: string;
  /** The label that the voice is synthetic, when the server sends none. */
  aiVoice: string;
  /** "Voice: en-female-1", under the label on hover or focus. */
  voice: string;
  /** "Updated 3 December 2026". */
  updated: string;
  share: string;
  copied: string;
}

export const STRINGS: Record<'en' | 'ar', PlayerStrings> = {
  en: {
    player: 'Listen to this article',
    play: 'Play',
    pause: 'Pause',
    back: 'Back 15 seconds',
    forward: 'Forward 15 seconds',
    position: 'Position',
    of: 'of',
    speed: 'Speed',
    download: 'Download MP3',
    transcript: 'Transcript',
    chapters: 'Chapters',
    loading: 'Loading the narration…',
    preparing: 'Narration in preparation. It will play here as soon as it is ready.',
    failed: 'The narration of this article could not be generated.',
    missing: 'This article has no narration.',
    error: 'The narration could not be loaded. Try again later.',
    aiVoice: 'AI voice',
    voice: 'Voice',
    updated: 'Updated',
    share: 'Share',
    copied: 'Link copied.',
  },
  ar: {
    player: 'استمع إلى هذه المقالة',
    play: 'تشغيل',
    pause: 'إيقاف مؤقت',
    back: 'رجوع 15 ثانية',
    forward: 'تقديم 15 ثانية',
    position: 'موضع التشغيل',
    of: 'من',
    speed: 'السرعة',
    download: 'تنزيل MP3',
    transcript: 'النص',
    chapters: 'الفصول',
    loading: 'جارٍ تحميل التسجيل الصوتي…',
    preparing: 'التسجيل الصوتي قيد الإعداد، وسيُشغَّل هنا فور جاهزيته.',
    failed: 'تعذّر إنشاء التسجيل الصوتي لهذه المقالة.',
    missing: 'لا يوجد تسجيل صوتي لهذه المقالة.',
    error: 'تعذّر تحميل التسجيل الصوتي. حاول مرة أخرى لاحقًا.',
    aiVoice: 'صوت بالذكاء الاصطناعي',
    voice: 'الصوت',
    updated: 'حُدِّث في',
    share: 'مشاركة',
    copied: 'نُسخ الرابط.',
  },
};
