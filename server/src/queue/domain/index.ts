/**
 * The queue's pure rules and row types: what the rest of the queue builds on, and what narration's
 * own pure rules read (an estimate, a public view) without reaching the worker or Strapi.
 */
export * from './states';
export * from './narration-row';
export { generatedBefore } from './states/content';
export type { PlannedPart, StoredPart } from './states/segment-map';
export type { DescribeLive, LiveVersion } from './live-version';
export { partsAtHand, partsProgress, planParts, type PartToNarrate } from './part-plan';
