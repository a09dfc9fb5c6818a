/**
 * Article records (one per company and articleId) and the state table of spec section 3.1.
 */

/** @typedef {'generating'|'generated'|'failed'} ArticleState  ("being generated" in the spec is `generating`) */

/**
 * @typedef {object} ArticleRecord
 * @property {string} company
 * @property {string} articleId
 * @property {string} apiKey  signs callbacks; never leaves the emulator (see publicArticle)
 * @property {ArticleState} state
 * @property {number} generation  how many generations ran (1 = first)
 * @property {string} name
 * @property {string} voiceId
 * @property {'0'|'2'} preprocessType
 * @property {number} characters  code points of the narrated request's text
 * @property {number} creditsCharged  credits currently held for the latest generation (0 after a refund)
 * @property {{ audioFile: string|null, srtFile: string|null } | null} result  stored result (null until the first generation ends)
 * @property {{ durationSec: number, cues: number, sentences: number, narratedSentences: number, truncated: boolean, sha256: string,
 *   injected: import('./speech-faults.mjs').SpeechFault[] } | null} audio  sha256: of the MP3 (an STT job's audio.sha256 matches
 *   it); injected: how the audio differs from the text
 * @property {{ articleId: string, response: { audioFile: string|null, srtFile: string|null, signature: string } } | null} lastCallback
 * @property {string} createdAt
 * @property {string} updatedAt
 */

/** What a narration request does, by current state and `regenerate` (spec 3.1). */
const TRANSITIONS = /** @type {const} */ ({
  new: { regenerate: 'generate', reuse: 'generate' },
  generating: { regenerate: 'reject-busy', reuse: 'reject-busy' },
  generated: { regenerate: 'generate', reuse: 'redeliver' },
  failed: { regenerate: 'generate', reuse: 'redeliver' },
});

/**
 * @param {ArticleRecord | undefined} record
 * @param {boolean} regenerate
 * @returns {'generate'|'reject-busy'|'redeliver'}
 */
export function decideNarration(record, regenerate) {
  return TRANSITIONS[record ? record.state : 'new'][regenerate ? 'regenerate' : 'reuse'];
}

/** @param {string} company @param {string} articleId */
export const articleKey = (company, articleId) => `${company}\u0000${articleId}`;

/** The control API's view of a record: everything but the API key. @param {ArticleRecord} record */
export function publicArticle(record) {
  const { apiKey: _apiKey, ...rest } = record;
  return rest;
}
