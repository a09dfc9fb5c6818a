import type { Core } from '@strapi/strapi';
import type { TranscriptionOutputFormat } from '../speech-client';
import { ACTIVE_STATUSES, type TranscriptionStatus } from './status';

/** Rows are claimed with conditional updates, so several instances never poll a job twice at once. */

export const TRANSCRIPTION_UID = 'plugin::speech.transcription' as const;

export interface MediaFileRef {
  id: number;
  url: string;
  name?: string;
  mime?: string;
  size?: number;
}

export interface TranscriptionRow {
  id: number;
  documentId: string;
  submittedById: number | null;
  submittedByName: string | null;
  fileName: string;
  fileSize: number;
  mimeType: string | null;
  language: string;
  outputFormat: TranscriptionOutputFormat;
  jobId: string | null;
  status: TranscriptionStatus;
  serviceStatus: string | null;
  result: Record<string, unknown> | null;
  error: string | null;
  errorCode: string | null;
  nextPollAt: string | null;
  pollLeaseOwner: string | null;
  leaseExpiresAt: string | null;
  pollErrors: number;
  lastPollError: string | null;
  submittedAt: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
  savedFile?: MediaFileRef | null;
}

export type NewTranscription = Pick<
  TranscriptionRow,
  'submittedById' | 'submittedByName' | 'fileName' | 'fileSize' | 'mimeType' | 'language' | 'outputFormat'
>;

const WITH_FILE = { savedFile: true } as const;
const LEASE_FREE = (now: Date) => ({ $or: [{ pollLeaseOwner: null }, { leaseExpiresAt: null }, { leaseExpiresAt: { $lt: now } }] });

/** A transcription from its upload to the service until it is submitted or failed. */
function uploadRows(strapi: Core.Strapi) {
  const query = () => strapi.db.query(TRANSCRIPTION_UID);

  async function findById(id: number): Promise<TranscriptionRow | null> {
    return (await query().findOne({ where: { id }, populate: WITH_FILE })) as TranscriptionRow | null;
  }

  async function createUploading(data: NewTranscription, owner: string, leaseMs: number, now: Date): Promise<TranscriptionRow> {
    // The query engine, not the Document Service: an internal row announces no `entry.create` event.
    return (await query().create({
      data: {
        ...data,
        status: 'uploading',
        pollLeaseOwner: owner,
        leaseExpiresAt: new Date(now.getTime() + leaseMs),
        pollErrors: 0,
        publishedAt: now,
      },
    })) as TranscriptionRow;
  }

  async function renewUploadLease(id: number, owner: string, leaseMs: number, now: Date): Promise<void> {
    await query().updateMany({
      where: { id, status: 'uploading', pollLeaseOwner: owner },
      data: { leaseExpiresAt: new Date(now.getTime() + leaseMs) },
    });
  }

  async function markSubmitted(id: number, owner: string, jobId: string, firstPollAt: Date, now: Date): Promise<boolean> {
    const { count } = await query().updateMany({
      where: { id, status: 'uploading', pollLeaseOwner: owner },
      data: {
        status: 'queued',
        serviceStatus: 'queued',
        jobId,
        submittedAt: now,
        nextPollAt: firstPollAt,
        pollLeaseOwner: null,
        leaseExpiresAt: null,
      },
    });
    return count === 1;
  }

  async function markFailed(
    id: number,
    from: TranscriptionStatus[],
    failure: { error: string; errorCode: string; serviceStatus?: string | null },
    owner?: string
  ): Promise<boolean> {
    const where: Record<string, unknown> = { id, status: { $in: from } };
    if (owner) where.pollLeaseOwner = owner;
    const { count } = await query().updateMany({
      where,
      data: {
        status: 'failed',
        error: failure.error,
        errorCode: failure.errorCode,
        ...(failure.serviceStatus !== undefined ? { serviceStatus: failure.serviceStatus } : {}),
        nextPollAt: null,
        pollLeaseOwner: null,
        leaseExpiresAt: null,
        completedAt: new Date(),
      },
    });
    return count === 1;
  }

  async function list(options: { limit: number; submittedById?: number }): Promise<TranscriptionRow[]> {
    const where: Record<string, unknown> = {};
    if (options.submittedById !== undefined) where.submittedById = options.submittedById;
    return (await query().findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      limit: options.limit,
      populate: WITH_FILE,
    })) as TranscriptionRow[];
  }

  async function linkFile(id: number, fileId: number): Promise<void> {
    await query().update({ where: { id }, data: { savedFile: fileId } });
  }

  return { findById, createUploading, renewUploadLease, markSubmitted, markFailed, list, linkFile };
}

/** The jobs the poller follows: due, claimed, finished, and the leases it lets go. */
function pollRows(strapi: Core.Strapi) {
  const query = () => strapi.db.query(TRANSCRIPTION_UID);

  async function duePolls(now: Date, limit: number): Promise<TranscriptionRow[]> {
    return (await query().findMany({
      where: {
        status: { $in: [...ACTIVE_STATUSES] },
        $and: [{ $or: [{ nextPollAt: null }, { nextPollAt: { $lte: now } }] }, LEASE_FREE(now)],
      },
      orderBy: [{ nextPollAt: 'asc' }, { id: 'asc' }],
      limit,
    })) as TranscriptionRow[];
  }

  async function claimForPoll(id: number, owner: string, leaseMs: number, now: Date): Promise<boolean> {
    const { count } = await query().updateMany({
      where: { id, status: { $in: [...ACTIVE_STATUSES] }, ...LEASE_FREE(now) },
      data: { pollLeaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs) },
    });
    return count === 1;
  }

  async function finishPoll(id: number, owner: string, patch: Record<string, unknown>): Promise<boolean> {
    const { count } = await query().updateMany({
      where: { id, pollLeaseOwner: owner, status: { $in: [...ACTIVE_STATUSES] } },
      data: { ...patch, pollLeaseOwner: null, leaseExpiresAt: null },
    });
    return count === 1;
  }

  async function interruptedUploads(now: Date): Promise<TranscriptionRow[]> {
    return (await query().findMany({ where: { status: 'uploading', leaseExpiresAt: { $lt: now } }, limit: 50 })) as TranscriptionRow[];
  }

  async function nextDueAt(now: Date): Promise<Date | null> {
    // NULLs sort first in SQLite and last in PostgreSQL: a null nextPollAt ("due now") is asked for apart.
    if ((await query().count({ where: { status: { $in: [...ACTIVE_STATUSES] }, nextPollAt: null } })) > 0) return now;
    const next = (await query().findOne({
      where: { status: { $in: [...ACTIVE_STATUSES] }, nextPollAt: { $notNull: true } },
      select: ['nextPollAt'],
      orderBy: [{ nextPollAt: 'asc' }],
    })) as Pick<TranscriptionRow, 'nextPollAt'> | null;
    const upload = (await query().findOne({
      where: { status: 'uploading', leaseExpiresAt: { $notNull: true } },
      select: ['leaseExpiresAt'],
      orderBy: [{ leaseExpiresAt: 'asc' }],
    })) as Pick<TranscriptionRow, 'leaseExpiresAt'> | null;
    const times = [next?.nextPollAt, upload?.leaseExpiresAt]
      .filter((value): value is string => Boolean(value))
      .map((value) => new Date(value).getTime());
    return times.length ? new Date(Math.min(...times)) : null;
  }

  async function releaseLeases(owner: string): Promise<void> {
    await query().updateMany({
      where: { pollLeaseOwner: owner, status: { $in: [...ACTIVE_STATUSES] } },
      data: { pollLeaseOwner: null, leaseExpiresAt: null },
    });
  }

  return { duePolls, claimForPoll, finishPoll, interruptedUploads, nextDueAt, releaseLeases };
}

export function createTranscriptionRows(strapi: Core.Strapi) {
  return { ...uploadRows(strapi), ...pollRows(strapi) };
}

export type TranscriptionRows = ReturnType<typeof createTranscriptionRows>;
