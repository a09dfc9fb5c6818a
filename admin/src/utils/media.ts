import { backendURL as adminBackendURL } from './backendURL';

/** Media Library URLs are relative to the server ("/uploads/x.mp3") unless a provider made them absolute. */
export function mediaUrl(url: string, backendURL: string | undefined = adminBackendURL()): string {
  if (/^(?:[a-z+]+:)?\/\//i.test(url) || url.startsWith('blob:') || url.startsWith('data:')) return url;
  const base = (backendURL ?? '').replace(/\/+$/, '');
  return `${base}${url.startsWith('/') ? '' : '/'}${url}`;
}

/** True when the URL is served by another origin than the admin page (then <audio> needs crossOrigin for its <track>). */
export function isCrossOrigin(
  url: string,
  origin: string | undefined = typeof window !== 'undefined' ? window.location.origin : undefined
): boolean {
  try {
    return Boolean(origin) && new URL(url, origin).origin !== origin;
  } catch {
    return false;
  }
}

/** SRT to WebVTT, for narrations stored before a VTT copy existed. */
export function srtToVtt(srt: string): string {
  const body = srt
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .trim()
    .split(/\n{2,}/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.length && /^\d+$/.test(lines[0].trim())) lines.shift();
      if (lines.length) lines[0] = lines[0].replace(/(\d{2}:\d{2}:\d{2}),(\d{3})/g, '$1.$2');
      return lines.join('\n');
    })
    .filter((block) => block.includes('-->'))
    .join('\n\n');
  return `WEBVTT\n\n${body}\n`;
}
