/** Archive backfill: what was published before, narrated newest first at the queue's pace. */
export { backfillConfigShape, type BackfillConfig } from './config';
export type { Backfills } from './backfill.service';
