/** The line a feed item's description ends with once its audio was made again: "Updated 3 December 2026: 2 passages re-read." */
import type { NarrationRow } from '../queue';

type NoteRevision = Pick<NonNullable<NarrationRow['revisions']>[number], 'at' | 'cause' | 'passages'>;

const WHY = {
  en: {
    updated: (date: string) => `Updated ${date}`,
    passages: (count: number) => (count === 1 ? '1 passage re-read' : `${count} passages re-read`),
    edit: 'narrated again after an edit',
    regenerate: 'narrated again',
    verification: 'narrated again after a check of the audio',
  },
  ar: {
    updated: (date: string) => `حُدِّث في ${date}`,
    passages: (count: number) => (count === 1 ? 'أُعيدت قراءة مقطع واحد' : `أُعيدت قراءة ${count} من المقاطع`),
    edit: 'أُعيدت قراءته بعد تعديل',
    regenerate: 'أُعيدت قراءته',
    verification: 'أُعيدت قراءته بعد فحص الصوت',
  },
} as const;

/** Null for a narration never made again. English unless the feed's language is Arabic. */
export function changeNote(revisions: readonly NoteRevision[] | null | undefined, language: string | null): string | null {
  const latest = revisions?.[0];
  if (!latest || latest.cause === 'first') return null;
  const arabic = language?.toLowerCase().split('-')[0] === 'ar';
  const words = arabic ? WHY.ar : WHY.en;
  const date = new Intl.DateTimeFormat(arabic ? 'ar-u-nu-latn' : 'en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(latest.at));
  const what = latest.passages > 0 ? words.passages(latest.passages) : words[latest.cause];
  return `${words.updated(date)}: ${what}.`;
}
