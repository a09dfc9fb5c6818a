/** The player alone on a page of its own (for iframes and AMP's amp-iframe), and its oEmbed answer. Pure. */

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char]!);

/** Room for the controls, the chapters and a few lines of transcript. */
export const EMBED_SIZE = { width: 640, height: 360 } as const;

export interface EmbedPageInput {
  /** The site's content API: the player reads the narration there. */
  api: string;
  playerUrl: string;
  articleId: string;
  title: string | null;
  locale: string | null;
  oembedUrl: string;
}

/**
 * `#t=90` (or `#t=1:30`) starts there (the player reads it: no inline script, which the page's
 * policy refuses). Nothing of the narration is written into the page but its title, escaped.
 */
export function embedPage({ api, playerUrl, articleId, title, locale, oembedUrl }: EmbedPageInput): string {
  const name = escapeHtml(title ?? articleId);
  return `<!doctype html>
<html lang="${escapeHtml(locale ?? 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${name}</title>
<link rel="alternate" type="application/json+oembed" href="${escapeHtml(oembedUrl)}" title="${name}">
<style>html,body{margin:0;background:transparent}</style>
<script type="module" src="${escapeHtml(playerUrl)}"></script>
</head>
<body>
<speech-narration api="${escapeHtml(api)}" article-id="${escapeHtml(articleId)}" start-from-hash></speech-narration>
</body>
</html>
`;
}

/** The page's own policy: the player's module and the narration's media, shown in any site's frame. */
export function embedPolicy(mediaOrigins: readonly string[]): string {
  const media = ["'self'", ...mediaOrigins].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'unsafe-inline'",
    `connect-src ${media}`,
    `media-src ${media} blob:`,
    "img-src 'self' data:",
    'frame-ancestors *',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export interface OembedInput {
  embedUrl: string;
  title: string | null;
  providerName: string;
  providerUrl: string;
  maxWidth?: number;
  maxHeight?: number;
}

/** oEmbed 1.0, type `rich`: an iframe of the embed page, within the asked maximum size. */
export function oembedResponse({ embedUrl, title, providerName, providerUrl, maxWidth, maxHeight }: OembedInput) {
  const width = Math.min(EMBED_SIZE.width, maxWidth ?? Infinity);
  const height = Math.min(EMBED_SIZE.height, maxHeight ?? Infinity);
  const label = escapeHtml(title ?? 'Narration');
  return {
    version: '1.0',
    type: 'rich',
    ...(title ? { title } : {}),
    provider_name: providerName,
    provider_url: providerUrl,
    width,
    height,
    html: `<iframe src="${escapeHtml(embedUrl)}" width="${width}" height="${height}" title="${label}" style="border:0" loading="lazy" allow="autoplay"></iframe>`,
  };
}
