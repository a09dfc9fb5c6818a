/** Data shared by the admin's unit tests: the server's answers as the admin types them. */
import type { ContentTypeDescription, QueueState } from '../../../admin/src/api/types';

/** The narration queue as the server reports it: running, no credit figures yet, unless changed. */
export const queueState = (changes: Partial<QueueState> = {}): QueueState => ({
  paused: false,
  pausedUntil: null,
  pauseCode: null,
  pauseReason: null,
  creditsRemaining: null,
  creditsRequired: null,
  creditsSeenAt: null,
  ...changes,
});

/** A content type as the settings page describes it; `fields` maps each field's name to its type, in order. */
export const describedType = (
  uid: string,
  displayName: string,
  fields: Record<string, string>,
  options: { draftAndPublish: boolean; localized: boolean }
): ContentTypeDescription => ({
  uid,
  displayName,
  ...options,
  fields: Object.entries(fields).map(([name, type]) => ({ name, type })),
});
