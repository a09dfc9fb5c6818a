/** The narration the insights service's `views().findVisible` finds for a listened article: one minute of English audio. */
export function listenedNarration(articleId: string) {
  return {
    articleId,
    audio: { url: '/a.mp3' },
    contentType: 'api::article.article',
    targetDocumentId: 'd',
    targetLocale: 'en',
    durationSeconds: 60,
  };
}
