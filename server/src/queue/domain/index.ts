export * from './states';
export * from './narration-row';
export { generatedBefore } from './states/content';
export type { PlannedPart, StoredPart } from './states/segment-map';
export type { DescribeLive, LiveVersion } from './live-version';
export { partsAtHand, partsProgress, planParts, type PartToNarrate } from './part-plan';
