/** Validation of the /process-text body (spec 2.1, 2.2). Collects every problem, field by field. */
import { countCharacters } from '../speech/text.mjs';

/**
 * @typedef {object} NarrationRequest
 * @property {string} text
 * @property {string} name
 * @property {string} articleId
 * @property {string} voiceId
 * @property {string} callbackURL
 * @property {'0'|'2'} preprocessType
 * @property {boolean} regenerate
 */

const PREPROCESS_TYPES = ['0', '2'];

/**
 * @param {unknown} body
 * @param {{ maxTextLength: number }} limits
 * @returns {{ ok: true, value: NarrationRequest } | { ok: false, details: Record<string, string[]> }}
 */
export function validateNarrationRequest(body, { maxTextLength }) {
  /** @type {Record<string, string[]>} */
  const details = {};
  const problem = (/** @type {string} */ field, /** @type {string} */ message) => (details[field] ??= []).push(message);

  if (!isObject(body)) return { ok: false, details: { body: ['Request body must be a JSON object.'] } };

  const { text, postData } = body;
  if (text === undefined || text === null) problem('text', 'text is required.');
  else if (typeof text !== 'string') problem('text', 'text must be a string.');
  else if (!text.trim()) problem('text', 'text must not be empty.');
  else if (countCharacters(text) > maxTextLength) {
    problem('text', `text exceeds the maximum length of ${maxTextLength} characters (got ${countCharacters(text)}).`);
  }

  /** @type {Record<string, unknown>} */
  let meta = {};
  if (postData === undefined || postData === null) problem('postData', 'postData is required.');
  else if (!isObject(postData)) problem('postData', 'postData must be an object.');
  else meta = postData;

  if (isObject(postData)) {
    for (const field of ['name', 'articleId', 'voiceId', 'callbackURL']) {
      const value = meta[field];
      if (value === undefined || value === null) problem(`postData.${field}`, `${field} is required.`);
      else if (typeof value !== 'string') problem(`postData.${field}`, `${field} must be a string.`);
      else if (!value.trim()) problem(`postData.${field}`, `${field} must not be empty.`);
    }
    if (typeof meta.callbackURL === 'string' && meta.callbackURL.trim() && !isHttpUrl(meta.callbackURL)) {
      problem('postData.callbackURL', 'callbackURL must be an absolute http(s) URL.');
    }
    const preprocessType = meta.preprocessType;
    if (typeof preprocessType === 'number') {
      // The spec's trap: the value is a JSON string; a bare 0 or 2 is rejected.
      problem('postData.preprocessType', `preprocessType must be the JSON string "0" or "2", not the number ${preprocessType}.`);
    } else if (preprocessType !== undefined && !PREPROCESS_TYPES.includes(/** @type {string} */ (preprocessType))) {
      problem('postData.preprocessType', 'preprocessType must be the JSON string "0" or "2".');
    }
    if (meta.regenerate !== undefined && typeof meta.regenerate !== 'boolean') {
      problem('postData.regenerate', 'regenerate must be a boolean.');
    }
  }

  if (Object.keys(details).length > 0) return { ok: false, details };
  return {
    ok: true,
    value: {
      text: /** @type {string} */ (text),
      name: /** @type {string} */ (meta.name),
      articleId: /** @type {string} */ (meta.articleId),
      voiceId: /** @type {string} */ (meta.voiceId),
      callbackURL: /** @type {string} */ (meta.callbackURL),
      preprocessType: /** @type {'0'|'2'} */ (meta.preprocessType ?? '0'),
      regenerate: /** @type {boolean} */ (meta.regenerate ?? false),
    },
  };
}

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** @param {string} value */
function isHttpUrl(value) {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
