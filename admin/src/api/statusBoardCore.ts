import type { NarrationView, QueueState } from './types';
import { isInProgress } from '../utils/status';

/**
 * Narration statuses of the rows on screen in the list view. Each cell registers its document;
 * registrations made in the same render are batched into ONE statuses request for the page, and
 * the page is polled while any of its narrations is in progress. No Strapi imports: unit-tested.
 */

export const POLL_MS = 3_000;
/** Cells of one page mount within a few milliseconds of each other (each behind its own Suspense boundary). */
const BATCH_MS = 60;

interface BoardState {
  version: number;
  /** Documents whose status came back at least once (absent: still loading). */
  known: Set<string>;
  rows: Map<string, NarrationView[]>;
  queue: QueueState | null;
  error: boolean;
}

export type Fetcher = (contentType: string, documentIds: string[]) => Promise<{ data: NarrationView[]; queue: QueueState }>;

export class StatusBoard {
  private mounted = new Map<string, number>();
  private state: BoardState = { version: 0, known: new Set(), rows: new Map(), queue: null, error: false };
  private listeners = new Set<() => void>();
  private batchTimer: ReturnType<typeof setTimeout> | null = null;
  private pollTimer: ReturnType<typeof setTimeout> | null = null;
  private inflight = false;
  private again = false;
  /** Requests made, for tests. */
  requests = 0;

  constructor(
    readonly contentType: string,
    private readonly fetcher: Fetcher,
    private readonly pollMs = POLL_MS
  ) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getVersion = () => this.state.version;

  register(documentId: string): () => void {
    const count = this.mounted.get(documentId) ?? 0;
    this.mounted.set(documentId, count + 1);
    if (count === 0) this.schedule();
    return () => {
      const left = (this.mounted.get(documentId) ?? 1) - 1;
      if (left <= 0) this.mounted.delete(documentId);
      else this.mounted.set(documentId, left);
      if (this.mounted.size === 0) this.stopPolling();
    };
  }

  rowsFor(documentId: string): NarrationView[] | undefined {
    return this.state.known.has(documentId) ? (this.state.rows.get(documentId) ?? []) : undefined;
  }

  get queue() {
    return this.state.queue;
  }

  get failed() {
    return this.state.error;
  }

  /** Fetches now (after a bulk narration, for instance). */
  refresh() {
    this.schedule(0);
  }

  private schedule(delay = BATCH_MS) {
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = setTimeout(() => {
      this.batchTimer = null;
      void this.fetch();
    }, delay);
  }

  private stopPolling() {
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }

  private async fetch() {
    const ids = [...this.mounted.keys()];
    if (!ids.length) return;
    if (this.inflight) {
      this.again = true;
      return;
    }
    this.inflight = true;
    this.stopPolling();
    this.requests += 1;
    let anyInProgress = false;
    try {
      const { data, queue } = await this.fetcher(this.contentType, ids);
      const rows = new Map(this.state.rows);
      const known = new Set(this.state.known);
      for (const id of ids) {
        rows.set(id, []);
        known.add(id);
      }
      for (const row of data) rows.get(row.documentId)?.push(row);
      anyInProgress = data.some((row) => isInProgress(row));
      this.state = { version: this.state.version + 1, known, rows, queue, error: false };
    } catch {
      const known = new Set(this.state.known);
      ids.forEach((id) => known.add(id));
      this.state = { ...this.state, version: this.state.version + 1, known, error: true };
    } finally {
      this.inflight = false;
    }
    this.listeners.forEach((listener) => listener());
    if (this.again) {
      this.again = false;
      this.schedule();
    } else if (anyInProgress && this.mounted.size) {
      this.pollTimer = setTimeout(() => void this.fetch(), this.pollMs);
    }
  }
}

