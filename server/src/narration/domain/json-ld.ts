import { isoDuration } from '../../audio';

/**
 * Subtitles go in `caption` as a text/vtt `MediaObject` (schema.org's way for machine formats; a URL in
 * `transcript` would read as the words). `contentSize` has no machine-readable form: left out.
 */

export interface AudioObjectInput {
  title: string | null;
  /** The article's page on the site (its type's `url`). */
  pageUrl?: string | null;
  audioUrl: string;
  vttUrl: string | null;
  durationSeconds: number | null;
  locale: string | null;
  uploadedAt: string | null;
}

export function audioObjectJsonLd(input: AudioObjectInput): Record<string, unknown> {
  const present = (entries: Record<string, unknown>) => Object.fromEntries(Object.entries(entries).filter(([, value]) => value != null));
  return present({
    '@context': 'https://schema.org',
    '@type': 'AudioObject',
    name: input.title || null,
    url: input.pageUrl ?? null,
    contentUrl: input.audioUrl,
    encodingFormat: 'audio/mpeg',
    // The voice is synthetic: the IPTC term schema.org takes for media a trained model made.
    digitalSourceType: 'https://schema.org/TrainedAlgorithmicMediaDigitalSource',
    duration: input.durationSeconds != null && Number.isFinite(input.durationSeconds) ? isoDuration(input.durationSeconds) : null,
    inLanguage: input.locale,
    uploadDate: input.uploadedAt,
    caption: input.vttUrl
      ? present({ '@type': 'MediaObject', contentUrl: input.vttUrl, encodingFormat: 'text/vtt', inLanguage: input.locale })
      : null,
  });
}
