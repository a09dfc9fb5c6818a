/** The durable narration queue: rows, state machine, worker, leases and stored media. */
export { createNarrationRows, type CommittedChange, type NarrationRows } from './rows/narration-rows';
export { createPartRows, type PartRows } from './rows/part-rows';
export { createMediaStore, type MediaStore } from './media/media';
export { localPathOf, StoredFileUnreadable } from './media/stored-files';
export { createWorker, type NarrationWorker } from './worker/worker';
export { createQueueState, type QueueStateStore } from './worker/queue-state';
export { queueConfigShape, type QueueConfig } from './worker/config';
export { createDispatcherLease } from './worker/dispatcher-lease';
export { publishedLater, type MediaFileRef, type NarrationListRow, type NarrationPartRow, type NarrationRow } from './domain/narration-row';
export { generatedBefore } from './domain/states/content';
export type { PlannedPart, StoredPart } from './domain/states/segment-map';
export type { DescribeLive, LiveVersion } from './domain/live-version';
export { partsAtHand, partsProgress, planParts, type PartToNarrate } from './domain/part-plan';
