import { isInProgress } from '../utils/status';
import type { ListStatuses } from './endpoints';
import type { NarrationView } from './types';

/**
 * The list view's narration cells ask for their statuses together: each cell registers its
 * document here, and once the cells of a page have mounted (they mount within a few
 * milliseconds of each other, each behind its own Suspense boundary) the page's documents are
 * published as one list. Every cell then subscribes to the same `getSpeechListStatuses` query with that
 * list, so the admin's query cache sends ONE request for the page and shares the answer.
 * No Strapi imports: unit-tested.
 */

export const POLL_MS = 3_000;
export const BATCH_MS = 60;

export class VisibleDocuments {
  private mounted = new Map<string, number>();
  private published: string[] = [];
  private listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly batchMs = BATCH_MS) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** The documents of the page, in the order their cells mounted (the same array until it changes). */
  getDocumentIds = () => this.published;

  register(documentId: string): () => void {
    const count = this.mounted.get(documentId) ?? 0;
    this.mounted.set(documentId, count + 1);
    if (count === 0) this.schedule();
    return () => {
      const left = (this.mounted.get(documentId) ?? 1) - 1;
      if (left > 0) {
        this.mounted.set(documentId, left);
        return;
      }
      this.mounted.delete(documentId);
      // Leaving the page forgets it at once, so the next page never starts from the old list.
      if (this.mounted.size === 0) this.publish();
      else this.schedule();
    };
  }

  private schedule() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.publish(), this.batchMs);
  }

  private publish() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const next = [...this.mounted.keys()];
    if (next.length === this.published.length && next.every((id, index) => id === this.published[index])) return;
    this.published = next;
    this.listeners.forEach((listener) => listener());
  }
}

const perType = new Map<string, VisibleDocuments>();

export function visibleDocuments(contentType: string): VisibleDocuments {
  let documents = perType.get(contentType);
  if (!documents) {
    documents = new VisibleDocuments();
    perType.set(contentType, documents);
  }
  return documents;
}

/** Poll the page while one of its narrations is in progress; stop after a failed answer, as before. */
export function statusesPollMs(statuses: ListStatuses | undefined, failed: boolean, pollMs = POLL_MS): number {
  return !failed && statuses?.data.some((row) => isInProgress(row)) ? pollMs : 0;
}

/**
 * The rows of one document from the page's answer: undefined while its status was never
 * answered (the cell spins), [] after a failed request (the cell stops spinning).
 */
export function rowsOfDocument(statuses: ListStatuses | undefined, failed: boolean, documentId: string): NarrationView[] | undefined {
  if (statuses?.documentIds.includes(documentId)) return statuses.data.filter((row) => row.documentId === documentId);
  return failed ? [] : undefined;
}
