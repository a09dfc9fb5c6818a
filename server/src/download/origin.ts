/** So `CDN.example.com.` and `cdn.example.com` compare equal. */
export function normaliseHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

export function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'http:' ? 80 : 443;
}

/** The path and query of a file URL may carry an access token. */
export function displayOrigin(url: URL): string {
  return `${url.protocol}//${url.host}`;
}
