/**
 * Which requests of a feed's enclosure may count as a download, by the IAB Podcast Measurement
 * Technical Guidelines 2.1 as far as a server that redirects to the file can apply them: a HEAD
 * request fetches nothing, and a `Range: bytes=0-1` request (or any range ending before byte 2) is a
 * player's probe for the file's size. The rest (bots, the same listener within the day) is decided
 * where the request is counted. What the guidelines also ask (at least one minute of audio
 * transferred) cannot be seen here: the bytes come from the Media Library's storage.
 */
export function mayCountAsDownload(method: string, range: string | undefined): boolean {
  if (method.toUpperCase() !== 'GET') return false;
  if (!range) return true;
  const probe = /^\s*bytes\s*=\s*0\s*-\s*(\d+)\s*$/i.exec(range);
  return !(probe && Number(probe[1]) <= 1);
}
