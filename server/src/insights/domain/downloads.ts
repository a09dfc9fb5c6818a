/**
 * IAB Podcast Measurement 2.1 as far as a redirecting server can apply it: HEAD fetches nothing and
 * `Range: bytes=0-1` is a size probe. The one-minute transfer rule cannot be seen: the storage serves the bytes.
 */
export function mayCountAsDownload(method: string, range: string | undefined): boolean {
  if (method.toUpperCase() !== 'GET') return false;
  if (!range) return true;
  const probe = /^\s*bytes\s*=\s*0\s*-\s*(\d+)\s*$/i.exec(range);
  return !(probe && Number(probe[1]) <= 1);
}
