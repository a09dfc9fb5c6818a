/**
 * The narration rows the scale bench writes straight into `speech_narrations`: completed ones as the
 * plugin would have left them, and queued ones for the worker to claim.
 */
import { randomBytes } from 'node:crypto';

export const CONTENT_TYPE = 'api::article.article';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** A 24-character id like Strapi's documentIds (cuid2: lowercase, starts with a letter), unique by `n`. */
function idMaker(letter) {
  return (n) => {
    const bytes = randomBytes(14);
    let id = letter;
    for (const byte of bytes) id += ALPHABET[byte % 36];
    return id + n.toString(36).padStart(9, '0');
  };
}
const narrationDocumentId = idMaker('n');
export const articleDocumentId = idMaker('a');
export const hex = (bytes) => randomBytes(bytes).toString('hex');

/**
 * Column -> value for one narration row, as the plugin would have left it. Keys are the columns of
 * `speech_narrations`; the adapter keeps the ones the table has. Dates are ms since the epoch.
 */
export function narrationRow(i, count, targetDocumentId, now, fingerprintBase) {
  const span = 2 * 365 * 86_400_000;
  const created = now - span + Math.floor((i / count) * span);
  const status = i % 200 === 199 ? 'failed' : i % 500 === 251 ? 'cancelled' : 'completed';
  const characters = 600 + ((i * 7919) % 9000);
  const fingerprint = fingerprintBase + i.toString(16).padStart(8, '0');
  const articleId = `${targetDocumentId}-en`;
  const completed = status === 'completed';
  return {
    document_id: narrationDocumentId(i),
    article_id: articleId,
    content_type: CONTENT_TYPE,
    target_document_id: targetDocumentId,
    target_locale: 'en',
    title: `Bench article ${i}: how the queue grows`,
    status,
    fingerprint,
    submitted_fingerprint: fingerprint,
    narrated_fingerprint: completed ? fingerprint : null,
    voice_id: 'en-female-1',
    preprocess_type: '0',
    characters,
    duration_seconds: completed ? Math.round((characters / 14.5) * 1000) / 1000 : null,
    credits: characters,
    regenerate: false,
    fresh_wanted: false,
    attempts: status === 'failed' ? 3 : 1,
    submissions: status === 'failed' ? 3 : 1,
    store_attempts: completed ? 1 : 0,
    next_attempt_at: null,
    lease_owner: null,
    lease_expires_at: null,
    submitted_at: created + 1_000,
    callback_deadline: null,
    pending_result: null,
    seen_results: completed ? JSON.stringify([{ audioFile: `${articleId}.mp3`, srtFile: `${articleId}.srt` }]) : '[]',
    last_error: status === 'failed' ? 'The speech service reported that the generation failed.' : null,
    last_error_code: status === 'failed' ? 'GENERATION_FAILED' : null,
    credits_may_be_lost: false,
    completed_at: completed ? created + 95_000 : null,
    created_at: created,
    updated_at: completed ? created + 95_000 : created + 60_000,
    published_at: created,
    created_by_id: null,
    updated_by_id: null,
    locale: null,
  };
}

/** A row the worker should claim at once: queued, due now, for an article that is not published. */
export function queuedRow(n, now) {
  const target = articleDocumentId(900_000_000 + n);
  return {
    ...narrationRow(0, 1, target, now, hex(28)),
    status: 'queued',
    narrated_fingerprint: null,
    attempts: 0,
    submissions: 0,
    store_attempts: 0,
    duration_seconds: null,
    completed_at: null,
    submitted_at: null,
    seen_results: '[]',
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
    published_at: now,
  };
}

const KNOWN_COLUMNS = Object.keys(narrationRow(0, 1, 'x', 0, ''));

/** Which columns to insert; refuses a NOT NULL column without a default the bench does not fill. */
export function insertColumns(columns, say) {
  const names = columns.map((c) => c.name);
  const missing = columns.filter((c) => c.notNull && !c.hasDefault && c.name !== 'id' && !KNOWN_COLUMNS.includes(c.name));
  if (missing.length)
    throw new Error(`speech_narrations has NOT NULL columns the bench does not fill: ${missing.map((c) => c.name).join(', ')}`);
  const unknown = names.filter((name) => name !== 'id' && !KNOWN_COLUMNS.includes(name));
  if (unknown.length) say(`columns left to their defaults: ${unknown.join(', ')}`);
  return KNOWN_COLUMNS.filter((name) => names.includes(name));
}
