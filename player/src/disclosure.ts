/** What the player says of the audio itself: that its voice is synthetic, when it was corrected and where. */
import { h } from './dom';
import type { Narration } from './narration';
import type { PlayerStrings } from './strings';

/** `start="90"`, or with `start-from-hash` the page's `#t=90` / `#t=1:30` (a media fragment, as the embed page passes it). */
export function startTime(element: HTMLElement): number {
  const fragment = element.hasAttribute('start-from-hash') ? /(?:^#|&)t=(?:(\d+):)?(\d+(?:\.\d+)?)/.exec(location.hash) : null;
  const seconds = fragment ? Number(fragment[1] ?? 0) * 60 + Number(fragment[2]) : Number(element.getAttribute('start') ?? 0);
  return Number.isFinite(seconds) ? seconds : 0;
}

/** The label that the voice is synthetic (its name on hover or focus), and when the audio was last made again. */
export function aboutLine(narration: Narration, strings: PlayerStrings, language: string): HTMLParagraphElement {
  const about = h('p', { part: 'about', class: 'ab' });
  const label = narration.aiLabel === undefined ? strings.aiVoice : narration.aiLabel;
  if (label) {
    const tip = h('span', { role: 'tooltip', id: 'voice', class: 'tip' }, `${strings.voice}: `, h('bdi', {}, narration.voice ?? ''));
    about.append(h('span', { part: 'ai-label', class: 'ai', tabindex: '0', 'aria-describedby': 'voice' }, label, tip));
  }
  const latest = narration.revisions?.[0];
  if (latest && latest.cause !== 'first') {
    const day = new Intl.DateTimeFormat(language === 'ar' ? 'ar-u-nu-latn' : 'en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(latest.at));
    about.append(h('span', { part: 'updated', class: 'tm' }, `${strings.updated} ${day}`));
  }
  return about;
}

/** The seek bar, with the passages the latest version read anew marked under it. */
export function changedMarks(narration: Narration, seek: HTMLInputElement): HTMLElement {
  const duration = narration.durationSeconds ?? 0;
  const changed = duration > 0 ? (narration.revisions?.[0]?.changed ?? []) : [];
  const marks = changed.map((span) => {
    const mark = h('span', { part: 'changed', class: 'mk' });
    mark.style.left = `${(100 * span.start) / duration}%`;
    mark.style.width = `${(100 * Math.max(0, span.end - span.start)) / duration}%`;
    return mark;
  });
  return marks.length ? h('span', { class: 'sk' }, seek, h('span', { class: 'mks', 'aria-hidden': 'true' }, ...marks)) : seek;
}

/** "Share": the article's page (the narration's `pageUrl`), through the system's share sheet, else copied. None without a page. */
export function shareLink(narration: Narration, strings: PlayerStrings, say: (text: string) => void): HTMLElement[] {
  const url = narration.pageUrl;
  if (!url) return [];
  const link = h('a', { part: 'share', href: url }, strings.share);
  link.onclick = (event) => {
    event.preventDefault();
    const share = (navigator as { share?: (data: { title?: string; url: string }) => Promise<void> }).share;
    const shared = share
      ? share.call(navigator, { title: narration.title ?? undefined, url })
      : navigator.clipboard.writeText(url).then(() => say(strings.copied));
    shared.catch(() => undefined);
  };
  return [link];
}
