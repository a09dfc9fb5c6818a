import type { TypeSettings, ServerFeatures } from './types';

/**
 * Which content types are narrated, for the one reader that cannot use a hook: the list view's
 * column hook (`Admin/CM/pages/ListView/inject-column-in-table`) is a plain function the content
 * manager calls while it renders, with no access to the admin's store. The data itself lives in
 * the admin's query cache (`getSpeechNarratedTypes` in endpoints.ts); this is the last answer that
 * endpoint recorded, nothing else writes it. Components read the query (useNarratedTypes).
 * No Strapi imports: unit-tested.
 */

export type NarratedTypesStatus = 'idle' | 'ready' | 'error';

export interface NarratedTypesSnapshot {
  status: NarratedTypesStatus;
  contentTypes: Record<string, Pick<TypeSettings, 'trigger'>>;
  /** Empty until the server announced its features. */
  features: Partial<ServerFeatures>;
}

let snapshot: NarratedTypesSnapshot = { status: 'idle', contentTypes: {}, features: {} };

/** Called by the `getSpeechNarratedTypes` endpoint when an answer (or an error) arrives. */
export function recordNarratedTypes(next: NarratedTypesSnapshot) {
  snapshot = next;
}

export function lastNarratedTypes(): NarratedTypesSnapshot {
  return snapshot;
}

/** True when narration of this type can happen (configured and not switched off). */
export function isNarratedType(contentTypes: NarratedTypesSnapshot['contentTypes'] | undefined, uid: string): boolean {
  const config = contentTypes?.[uid];
  return Boolean(config && config.trigger !== 'off');
}
