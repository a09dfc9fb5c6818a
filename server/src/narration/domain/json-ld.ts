import { isoDuration } from '../../audio';

/**
 * A narration as a schema.org `AudioObject` (JSON-LD), ready for a page's
 * `<script type="application/ld+json">`. Pure.
 *
 * The subtitles go in `caption` as a `MediaObject` with `encodingFormat: text/vtt`: schema.org says to
 * describe downloadable machine formats (closed captions, subtitles) that way. `transcript` is a Text
 * meant to hold the transcript itself, so a URL there would be read as the words spoken.
 * `contentSize` is left out: schema.org gives it no machine-readable form ("in (mega/kilo)bytes");
 * the exact length is the narration JSON's `audioBytes`.
 */

export interface AudioObjectInput {
  title: string | null;
  audioUrl: string;
  vttUrl: string | null;
  durationSeconds: number | null;
  locale: string | null;
  /** When the audio was stored (ISO date-time). */
  uploadedAt: string | null;
}

export function audioObjectJsonLd(input: AudioObjectInput): Record<string, unknown> {
  const present = (entries: Record<string, unknown>) => Object.fromEntries(Object.entries(entries).filter(([, value]) => value != null));
  return present({
    '@context': 'https://schema.org',
    '@type': 'AudioObject',
    name: input.title || null,
    contentUrl: input.audioUrl,
    encodingFormat: 'audio/mpeg',
    duration: input.durationSeconds != null && Number.isFinite(input.durationSeconds) ? isoDuration(input.durationSeconds) : null,
    inLanguage: input.locale,
    uploadDate: input.uploadedAt,
    caption: input.vttUrl
      ? present({ '@type': 'MediaObject', contentUrl: input.vttUrl, encodingFormat: 'text/vtt', inLanguage: input.locale })
      : null,
  });
}
