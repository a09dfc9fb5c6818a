import type { FetchClient } from '@strapi/strapi/admin';
import { postForBlob } from './binary';
import { createTranscriptionApi } from './transcriptions';
import type {
  ConnectionTestResult,
  CostResponse,
  DocumentTarget,
  Estimate,
  EstimateManyResponse,
  NarrateManyResponse,
  NarrateResult,
  NarrationsResponse,
  ParagraphsResponse,
  QueueState,
  NarratedTypesResponse,
  SettingsResponse,
  SpeechSettings,
  Voice,
} from './types';

/**
 * The only code that knows the plugin's admin routes. Every function takes the admin fetch
 * client (from `useFetchClient`, or `getFetchClient` outside React) so requests carry the admin
 * JWT and refresh it like the rest of the admin does.
 */

const BASE = '/speech';

export interface ManyTarget {
  contentType: string;
  documentIds: string[];
  locale?: string | null;
}

export function createSpeechApi(client: FetchClient) {
  return {
    getSettings: async () => (await client.get<SettingsResponse>(`${BASE}/settings`)).data,

    getNarratedTypes: async () => (await client.get<NarratedTypesResponse>(`${BASE}/narrated-types`)).data,

    updateSettings: async (changes: Partial<SpeechSettings>) =>
      (await client.put<{ settings: SpeechSettings }>(`${BASE}/settings`, changes)).data.settings,

    getVoices: async () => (await client.get<{ voices: Voice[] }>(`${BASE}/voices`)).data.voices,

    testConnection: async () => (await client.post<ConnectionTestResult>(`${BASE}/connection/test`, {})).data,

    cost: async (text: string) => (await client.post<CostResponse>(`${BASE}/cost`, { text })).data,

    estimate: async (target: DocumentTarget) => (await client.post<Estimate>(`${BASE}/narrations/estimate`, target)).data,

    estimateMany: async (target: ManyTarget) =>
      (await client.post<EstimateManyResponse>(`${BASE}/narrations/estimate-many`, target)).data,

    narrateMany: async (target: ManyTarget) =>
      (await client.post<NarrateManyResponse>(`${BASE}/narrations/narrate-many`, target)).data,

    /** Statuses of a whole list page in one request. */
    statuses: async (contentType: string, documentIds: string[]) =>
      (await client.post<NarrationsResponse>(`${BASE}/narrations/statuses`, { contentType, documentIds })).data,

    forDocument: async ({ contentType, documentId, locale }: DocumentTarget) =>
      (
        await client.get<NarrationsResponse>(`${BASE}/narrations/document/${encodeURIComponent(documentId)}`, {
          params: locale ? { contentType, locale } : { contentType },
        })
      ).data,

    narrate: async (target: DocumentTarget) => (await client.post<NarrateResult>(`${BASE}/narrations/narrate`, target)).data,

    regenerate: async (target: DocumentTarget) => (await client.post<NarrateResult>(`${BASE}/narrations/regenerate`, target)).data,

    cancel: async (target: DocumentTarget) => (await client.post<{ cancelled: true }>(`${BASE}/narrations/cancel`, target)).data,

    setVoice: async (target: DocumentTarget & { voiceId: string | null }) =>
      (await client.put<{ articleId: string; voiceId: string | null }>(`${BASE}/narrations/voice`, target)).data,

    resumeQueue: async () => (await client.post<{ queue: QueueState }>(`${BASE}/queue/resume`, {})).data.queue,

    /** The draft's paragraphs and the voice they would be read in ("listen to a paragraph"). */
    paragraphs: async (target: DocumentTarget) => (await client.post<ParagraphsResponse>(`${BASE}/narrations/paragraphs`, target)).data,

    /** One paragraph of the draft, spoken in the entry's voice: an MP3 (costs credits once per voice and text). */
    listenParagraph: (target: DocumentTarget & { index: number }) => postForBlob(`${BASE}/narrations/listen`, target),

    /** Only called when the server announces `features.voicePreview`. Returns an MP3 (POST, binary answer: see binary.ts). */
    previewVoice: (voiceId: string) => postForBlob(`${BASE}/tts/preview`, { voiceId }),

    /** Speech to text: list, read and save jobs (the upload and downloads are in transcriptions.ts). */
    ...createTranscriptionApi(client),
  };
}

export type SpeechApi = ReturnType<typeof createSpeechApi>;
