import type { Core } from '@strapi/strapi';
import { PENDING_RECORDING_UID } from '../content-types';

/**
 * Notes of saves whose narration is yet to be recorded. A type without draft & publish updates an
 * entry in place (its row keeps its id), so the reconciliation's id cursor cannot find a save whose
 * recording was lost; the document middleware notes the save before Strapi writes it and removes
 * the note once the narration is recorded. A note that stays (the database went away, the process
 * died) is recorded by the reconciliation. Through the query engine: internal rows announce no
 * entry events.
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
    /** Notes older than `before`, oldest first: their own recording had time enough to remove them. */
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
