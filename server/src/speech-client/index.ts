/** The speech client's public surface: everything outside this folder imports from here. */
export { createSpeechClient, DEFAULT_TIMEOUT_MS, type SpeechClient, type SpeechClientConfig } from './client';
export { processTextBody, type ProcessTextResult } from './article';
export { type GenerateSpeechRequest, type GeneratedSpeech } from './speech-generation';
export { DEFAULT_TRANSCRIPTION_LANGUAGE, type TranscriptionUpload, type TranscriptionUploadOptions } from './speech-to-text';
export { DEFAULT_VOICES_PATH } from './voices';
export { multipartEnvelope } from './multipart';

export * from './errors';
export { errorFromResponse, readErrorBody } from './response-errors';
export { headerValue, type ResponseHeaders } from './headers';
export { formatCount, formatDuration } from './wording';
export * from './retry';
export * from './signature';
export * from './types';
