/** The durable narration queue: one service, the shape of its configuration, and the rows it lets views read. */
export { createQueue, type Queue } from './service';
export { queueConfigShape, type QueueConfig } from './worker/config';
export type { CommittedChange } from './rows/row-change';
export type { MediaFileRef, NarrationListRow, NarrationRow } from './domain/narration-row';
export { publishedLater } from './domain/narration-row';
export type { PlannedPart, StoredPart } from './domain/states/segment-map';
export type { DescribeLive, LiveVersion } from './domain/live-version';
export { partsAsked } from './domain/part-plan';
export { StoredFileUnreadable } from './media/stored-files';
