/** Typed HTTP client of the speech services (spec section 4); knows nothing of Strapi. */
import { createArticleEndpoint, type ProcessTextResult } from './article';
import { createSpeechGenerationEndpoint, type GenerateSpeechRequest, type GeneratedSpeech } from './speech-generation';
import {
  createSpeechToTextEndpoint,
  type SubmittedTranscription,
  type TranscriptionUpload,
  type TranscriptionUploadOptions,
} from './speech-to-text';
import { createTransport } from './transport';
import type { ProcessTextRequest, SttJob, Voice } from './types';
import { DEFAULT_VOICES_PATH, createVoicesEndpoint } from './voices';

export interface SpeechClientConfig {
  apiKey: string;
  /** Root of the article endpoint ({base_url}); may carry a path prefix. */
  baseUrl: string;
  webUrl: string;
  /** For the upload an inactivity timeout, since a 50 MB upload may rightly take longer. */
  timeoutMs?: number;
  /** The real service's voice endpoint is not in the spec. */
  voicesPath?: string;
}

export interface SpeechClient {
  processText(req: ProcessTextRequest): Promise<ProcessTextResult>;
  generateSpeech(req: GenerateSpeechRequest): Promise<GeneratedSpeech>;
  submitTranscription(upload: TranscriptionUpload, opts?: TranscriptionUploadOptions): Promise<SubmittedTranscription>;
  getTranscriptionStatus(jobId: string): Promise<SttJob>;
  listVoices(): Promise<Voice[]>;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** The configuration is checked at once; the API key on each request. */
export function createSpeechClient(config: SpeechClientConfig): SpeechClient {
  const articleRoot = serviceRoot(config.baseUrl, 'baseUrl');
  const webRoot = serviceRoot(config.webUrl, 'webUrl');
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TypeError('timeoutMs must be a positive number of milliseconds.');
  const voicesPath = normalisePath(config.voicesPath ?? DEFAULT_VOICES_PATH);

  const transport = createTransport({ apiKey: config.apiKey, timeoutMs });
  return {
    ...createArticleEndpoint(transport, articleRoot),
    ...createSpeechGenerationEndpoint(transport, webRoot),
    ...createSpeechToTextEndpoint(transport, webRoot),
    ...createVoicesEndpoint(transport, webRoot, voicesPath),
  };
}

/** So `${root}/path` never doubles or loses a slash. */
function serviceRoot(raw: string, name: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`${name} is not a valid URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`${name} must be an http(s) URL.`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function normalisePath(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}
