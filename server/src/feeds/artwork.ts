/** `itunes:image` as Apple takes it: a square JPEG or PNG of 1400 to 3000 pixels a side, checked when Strapi starts. */
import { imageSize } from 'image-size';

const MIN_SIDE = 1400;
const MAX_SIDE = 3000;
/** JPEG's size may come after its metadata; a quarter of a megabyte holds it in practice. */
const HEAD_BYTES = 256 * 1024;
const TIMEOUT_MS = 10_000;

export interface ArtworkSize {
  width?: number;
  height?: number;
  type?: string;
}

/** Null when Apple would take it, else what is wrong, in words. */
export function artworkProblem(size: ArtworkSize | null): string | null {
  if (!size?.width || !size.height) return 'its size could not be read';
  if (size.type !== 'jpg' && size.type !== 'png')
    return `it is ${size.type ? `a ${size.type.toUpperCase()}` : 'no image'}, not a JPEG or PNG`;
  const dimensions = `${size.width}×${size.height} px`;
  if (size.width !== size.height) return `it is ${dimensions}, not square`;
  if (size.width < MIN_SIDE || size.width > MAX_SIDE) return `it is ${dimensions}; Apple takes ${MIN_SIDE} to ${MAX_SIDE} px a side`;
  return null;
}

/** The size of the image at `url` from its first bytes; null when it cannot be read. */
export async function artworkSize(url: string): Promise<ArtworkSize | null> {
  const response = await fetch(url, { headers: { range: `bytes=0-${HEAD_BYTES - 1}` }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!response.ok || !response.body) return null;
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(chunk);
    bytes += chunk.length;
    if (bytes >= HEAD_BYTES) break;
  }
  try {
    return imageSize(Buffer.concat(chunks));
  } catch {
    return null;
  }
}

/** Each configured artwork once, every problem a warning naming the key: a feed still builds without it. */
export async function checkArtwork(
  images: ReadonlyArray<{ key: string; url: string }>,
  warn: (message: string) => void,
  sizeOf: (url: string) => Promise<ArtworkSize | null> = artworkSize
): Promise<void> {
  for (const { key, url } of images) {
    const size = await sizeOf(url).catch(() => null);
    const problem = size ? artworkProblem(size) : 'it could not be downloaded';
    if (problem) warn(`[speech] ${key} (${url}): podcast directories may refuse this artwork: ${problem}.`);
  }
}

/** Every `imageUrl` of the feeds' configuration, with the key that sets it. */
export function configuredArtwork(feeds: {
  channel: { imageUrl?: string };
  contentTypes: Record<string, { imageUrl?: string }>;
}): Array<{ key: string; url: string }> {
  return [
    ...(feeds.channel.imageUrl ? [{ key: 'speech.config.feeds.channel.imageUrl', url: feeds.channel.imageUrl }] : []),
    ...Object.entries(feeds.contentTypes).flatMap(([uid, type]) =>
      type.imageUrl ? [{ key: `speech.config.feeds.contentTypes.${uid}.imageUrl`, url: type.imageUrl }] : []
    ),
  ];
}
