import type { LedgerCause } from '../../../../shared/contracts/usage';
import type { Chapter } from '../../subtitles';
import type { PreprocessType } from '../../../../shared/contracts/settings';
import type { PlannedPart, StoredPart } from './states/segment-map';
import type { NarrationState, NarrationMode } from './states';

export interface MediaFileRef {
  id: number;
  url: string;
  hash?: string | null;
  provider?: string;
  mime?: string;
  size?: number;
  name?: string;
}

export interface QueueColumns extends NarrationState {
  nextAttemptAt: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  submittedAt: string | null;
  callbackDeadline: string | null;
  pendingResult: { audioFile: string; srtFile: string; receivedAt: string } | null;
  lastError: string | null;
  lastErrorCode: string | null;
  creditsMayBeLost: boolean;
}

export interface NarrationRow extends QueueColumns {
  id: number;
  documentId: string;
  articleId: string;
  contentType: string;
  targetDocumentId: string;
  targetLocale: string | null;
  title: string | null;
  voiceId: string | null;
  preprocessType: string | null;
  characters: number;
  credits: number;
  durationSeconds?: number | null;
  audioBytes?: number | null;
  chapters?: Chapter[] | null;
  completedAt: string | null;
  /** When its first audio was stored; a new take keeps it. */
  firstCompletedAt?: string | null;
  /** The guid its podcast feed item was first served under, kept for the article's whole life. */
  feedGuid?: string | null;
  cause?: LedgerCause | null;
  causedBy?: string | null;
  /** The backfill whose queuing this is, or null (a publish, an editor's action). */
  backfill?: number | null;
  /** YYYY-MM: an editor let this narration through that month's budget. */
  letThroughMonth?: string | null;
  /** The latest live publish recorded: a publish up to then was recorded, whatever the settings say now. */
  livePublishedAt?: string | null;
  updatedAt: string;
  audio?: MediaFileRef | null;
  subtitles?: MediaFileRef | null;
  subtitlesVtt?: MediaFileRef | null;
  pendingUploads?: MediaFileRef[] | null;
  replacedFiles?: MediaFileRef[] | null;
  narrationMode?: NarrationMode | null;
  segmentPlan?: PlannedPart[] | null;
  segments?: StoredPart[] | null;
  /** Parts asked for afresh at the next plan (a verification's mismatch). */
  freshParts?: string[] | null;
}

/** A part of a segmented narration: an item of the same machine as an article's row, in its own table. */
export interface NarrationPartRow extends QueueColumns {
  id: number;
  articleId: string;
  narrationId: number;
  /** How many parts of the same article were queued before it in its plan: the fair order (fewest first). */
  turn: number;
  /** How many parts of the same article its plan queued after it: among equal turns, the article nearer its end goes first. */
  partsAfter: number;
  text: string;
  title: string | null;
  voiceId: string | null;
  preprocessType: string | null;
  characters: number;
  credits: number;
}

export interface ContentVersion {
  articleId: string;
  contentType: string;
  documentId: string;
  locale: string | null;
  title: string;
  fingerprint: string;
  voiceId: string;
  preprocessType: PreprocessType;
  characters: number;
  credits: number;
  livePublishedAt: string | null;
}

export const LIST_COLUMNS = [
  'id',
  'articleId',
  'contentType',
  'targetDocumentId',
  'targetLocale',
  'status',
  'title',
  'voiceId',
  'preprocessType',
  'characters',
  'credits',
  'attempts',
  'regenerate',
  'lastError',
  'lastErrorCode',
  'creditsMayBeLost',
  'narratedFingerprint',
  'nextAttemptAt',
  'submittedAt',
  'completedAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof NarrationRow>;

export type NarrationListRow = Pick<NarrationRow, (typeof LIST_COLUMNS)[number]>;

const time = (value: string | Date) => (value instanceof Date ? value.getTime() : Date.parse(value));

/** Whether `seen` (a version's publish time) is later than the latest publish a row recorded; never for a draft. */
export function publishedLater(seen: string | null, recorded: string | Date | null | undefined): boolean {
  return seen !== null && (!recorded || time(seen) > time(recorded));
}
