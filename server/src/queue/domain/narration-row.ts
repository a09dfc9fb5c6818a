import type { LedgerCause } from '../../../../shared/contracts/usage';
import type { Chapter } from '../../subtitles';
import type { PreprocessType } from '../../../../shared/contracts/settings';
import type { PlannedPart, StoredPart } from './states/segment-map';
import type { NarrationState, NarrationMode } from './states';

/** A narration row as the database holds it (the repository reads and writes it; the domain reads it). */

export interface MediaFileRef {
  id: number;
  url: string;
  /** Unique per upload (the provider's file name stem). */
  hash?: string | null;
  /** The upload provider that holds it ('local' for public/uploads). */
  provider?: string;
  mime?: string;
  size?: number;
  name?: string;
}

/** The queue's columns of a narration, an article's row and a part's alike (the state machine's own fields aside). */
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
  /** How long the stored audio plays (from its MP3 frames; the last subtitle cue for rows stored before it was read from the MP3); null until stored. */
  durationSeconds?: number | null;
  /** The stored MP3's exact length in bytes; null until stored, and for rows stored before the column existed. */
  audioBytes?: number | null;
  /** The chapters of the stored audio (its headings); null when it has none. */
  chapters?: Chapter[] | null;
  completedAt: string | null;
  /** Who or what caused the version on its way (the ledger's `cause`); null for rows from before the ledger. */
  cause?: LedgerCause | null;
  /** The admin, API token or user behind `cause`, as the ledger names them. */
  causedBy?: string | null;
  /** YYYY-MM: an editor let this narration through that month's budget. */
  letThroughMonth?: string | null;
  /**
   * When the latest live version recorded for this article was published (its entry's publishedAt):
   * a publish up to then was recorded, whatever the settings say now (see versionUnrecorded). Null
   * for rows recorded before the column existed.
   */
  livePublishedAt?: string | null;
  updatedAt: string;
  audio?: MediaFileRef | null;
  subtitles?: MediaFileRef | null;
  subtitlesVtt?: MediaFileRef | null;
  /** Uploads of a store not yet linked, and files a store replaced not yet removed (queue/domain/file-links.ts). */
  pendingUploads?: MediaFileRef[] | null;
  replacedFiles?: MediaFileRef[] | null;
  /** How the version last submitted is narrated; null for rows from before segmented narration (whole). */
  narrationMode?: NarrationMode | null;
  /** A segmented version's parts, in reading order (docs/segmented-narration.md). */
  segmentPlan?: PlannedPart[] | null;
  /** Where each part is in the stored joined audio; null for a whole article's audio. */
  segments?: StoredPart[] | null;
  /** Parts asked for afresh at the next plan (a verification's mismatch). */
  freshParts?: string[] | null;
}

/**
 * A part of a segmented narration on its way (docs/segmented-narration.md): an item of the same
 * machine as an article's row, under its own articleId, in a table of its own.
 */
export interface NarrationPartRow extends QueueColumns {
  id: number;
  /** Its key at the service. */
  articleId: string;
  /** The article's row. */
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
  /** When the entry read was published (ISO); null for a draft. */
  livePublishedAt: string | null;
}

/** The columns of a row that lists of documents show (admin statuses, the lexicon's affected list). */
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
