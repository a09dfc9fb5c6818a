import type { NarrationPartRow } from '../../../server/src/queue/domain/narration-row';
import type { NarrationRow } from '../../../server/src/queue/rows/narration-rows';
import type { NarrationState } from '../../../server/src/queue/domain/states';
import type { StoredPart } from '../../../server/src/queue/domain/states/segment-map';

/** Narration fixtures for the unit tests: a queue state, and a whole row around one. */

/** A queued first version, as a publish records it; `overrides` set what a test is about. */
export function narrationState(overrides: Partial<NarrationState> = {}): NarrationState {
  return {
    status: 'queued',
    fingerprint: 'v1',
    submittedFingerprint: null,
    narratedFingerprint: null,
    regenerate: false,
    attempts: 0,
    submissions: 0,
    seenResults: [],
    ...overrides,
  };
}

/** A narration row of an English article, queued, with no files; `overrides` set what a test is about. */
export function narrationRow(overrides: Partial<NarrationRow> = {}): NarrationRow {
  return {
    ...narrationState(),
    id: 7,
    documentId: 'narration-doc',
    articleId: 'doc1-en',
    contentType: 'api::article.article',
    targetDocumentId: 'doc1',
    targetLocale: 'en',
    title: 'An article',
    voiceId: 'en-female-1',
    preprocessType: '0',
    characters: 120,
    credits: 120,
    nextAttemptAt: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    submittedAt: null,
    callbackDeadline: null,
    pendingResult: null,
    lastError: null,
    lastErrorCode: null,
    creditsMayBeLost: false,
    completedAt: null,
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A part of a segmented narration of row 7, keyed `key`, in `status`; `overrides` set what a test is about. */
export function partRow(key: string, status: NarrationPartRow['status'], overrides: Partial<NarrationPartRow> = {}): NarrationPartRow {
  return {
    ...narrationState({ status, fingerprint: key }),
    id: Number.parseInt(key.replace(/\D/g, '') || '0', 10),
    articleId: key,
    narrationId: 7,
    turn: 0,
    partsAfter: 0,
    text: `text of ${key}`,
    title: null,
    voiceId: 'en-female-1',
    preprocessType: '0',
    characters: 100,
    credits: 100,
    nextAttemptAt: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    submittedAt: null,
    callbackDeadline: null,
    pendingResult: null,
    lastError: null,
    lastErrorCode: null,
    creditsMayBeLost: false,
    ...overrides,
  };
}

/** One part of a joined narration's stored audio (its place in the joined MP3 and SRT); `overrides` set what a test is about. */
export function storedPart(key: string, overrides: Partial<StoredPart> = {}): StoredPart {
  return { key, characters: 100, audioOffset: 0, audioLength: 10, durationSeconds: 1, offsetMs: 0, cueFirst: 0, cueCount: 1, ...overrides };
}
