/** The content type of a content-manager list view URL (/content-manager/collection-types/<uid>). */
export function modelFromPath(pathname: string): string | null {
  const match = /\/content-manager\/collection-types\/([^/?#]+)/.exec(pathname);
  return match ? decodeURIComponent(match[1]) : null;
}

/** An entry's edit view in the Content Manager, in its locale (a link of the admin's router). */
export function editViewPath(article: { contentType: string; documentId: string; locale?: string | null }): string {
  const base = `/content-manager/collection-types/${encodeURIComponent(article.contentType)}/${encodeURIComponent(article.documentId)}`;
  return article.locale ? `${base}?plugins[i18n][locale]=${encodeURIComponent(article.locale)}` : base;
}
