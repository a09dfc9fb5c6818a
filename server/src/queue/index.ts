/** The durable narration queue: rows, state machine, worker, leases and stored media. */
export * from './domain';
export { createNarrationRows, type CommittedChange, type NarrationRows } from './rows/narration-rows';
export { createPartRows, type PartRows } from './rows/part-rows';
export { createMediaStore, type MediaStore } from './media/media';
export { createWorker, type NarrationWorker } from './worker/worker';
export { createQueueState, type QueueStateStore } from './worker/queue-state';
export { queueConfigShape, type QueueConfig } from './worker/config';
export { createDispatcherLease } from './worker/dispatcher-lease';
export { localPathOf, StoredFileUnreadable } from './media/stored-files';
