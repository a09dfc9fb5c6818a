import type { Core } from '@strapi/strapi';
import { PENDING_RECORDING_UID } from '../content-types';

/**
 * A type without draft & publish updates in place, so the reconciliation's id cursor cannot find a lost
 * save: it is noted before Strapi writes it and removed once recorded. Query engine: no entry events.
 */

export interface PendingRecording {
  id: number;
  contentType: string;
  targetDocumentId: string;
  targetLocale: string | null;
  createdAt: string | Date;
}

export function createPendingRecordings(strapi: Core.Strapi) {
  const query = () => strapi.db.query(PENDING_RECORDING_UID);
  return {
    async note(contentType: string, documentId: string, locale: string | null): Promise<number> {
      const row = (await query().create({
        data: { contentType, targetDocumentId: documentId, targetLocale: locale, publishedAt: new Date() },
      })) as PendingRecording;
      return row.id;
    },
    async remove(id: number): Promise<void> {
      await query().delete({ where: { id } });
    },
    async olderThan(before: Date, limit: number): Promise<PendingRecording[]> {
      return (await query().findMany({
        where: { createdAt: { $lt: before } },
        orderBy: { id: 'asc' },
        limit,
      })) as PendingRecording[];
    },
  };
}

export type PendingRecordings = ReturnType<typeof createPendingRecordings>;
