/** The content type of a content-manager list view URL (/content-manager/collection-types/<uid>). */
export function modelFromPath(pathname: string): string | null {
  const match = /\/content-manager\/collection-types\/([^/?#]+)/.exec(pathname);
  return match ? decodeURIComponent(match[1]) : null;
}
