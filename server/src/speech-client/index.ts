/** Typed HTTP client of the speech services. */
export { createSpeechClient, type SpeechClient } from './speech-client';
export { type GeneratedSpeech } from './speech-generation';

export * from './errors';
export { errorFromResponse } from './response-errors';
export { formatDuration } from './wording';
export * from './retry';
export * from './signature';
export * from './types';
export type { SpeechClientConfig } from './config';
export { formatMegabytes } from './wording';
