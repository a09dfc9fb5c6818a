import type { Core } from '@strapi/strapi';
import type { ContentTypeFacts, DocumentPermissions } from '../access';
import type { Origin } from '../credits';
import type { Queue } from '../queue';
import type { SettingsService } from '../settings';
import type { BackfillConfig } from './config';

type ArchivePage = Array<{ documentId: string; publishedAt: string; credits: number; narrated: boolean }>;

/** What a backfill reads and asks of the rest of the plugin, named once in services/index.ts. */
export interface BackfillDeps {
  strapi: Core.Strapi;
  config: BackfillConfig & { leaseMs: number; worker: boolean; maxInFlight: number };
  settings: Pick<SettingsService, 'get'>;
  permissions: Pick<DocumentPermissions, 'typeAccess'>;
  types: ContentTypeFacts & { siteLocales(): Promise<string[]> };
  archive: (
    uid: string,
    locale: string | null,
    walk: { publishedBefore: Date; after: Cursor | null; limit: number }
  ) => Promise<ArchivePage>;
  /** How many live entries the archive holds before the moment. */
  archiveSize: (uid: string, locale: string | null, publishedBefore: Date) => Promise<number>;
  /** Queues a document's published version as a publish would. */
  record: (uid: string, documentId: string, locale: string | null, origin: Origin) => Promise<{ queued: boolean; reason?: string }>;
  queue: { reads: Pick<Queue['reads'], 'backfillCells' | 'recentGenerationSeconds' | 'queuedOfBackfill'>; cancel: Queue['cancel'] };
  /** Whether the month's budget has room for these credits of the type. */
  fits: (contentType: string, credits: number, at: Date) => Promise<boolean>;
  /** What the ledger's entries of each backfill charged, by its label. */
  spentBy: (labels: readonly string[]) => Promise<Map<string, number>>;
  budgetRemaining: () => Promise<number | null>;
}

/** Where a walk through the archive, newest first, has reached. */
export type Cursor = { publishedAt: string; documentId: string };
