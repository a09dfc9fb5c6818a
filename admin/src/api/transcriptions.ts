import type { FetchClient } from '@strapi/strapi/admin';
import { attemptTokenRefresh } from '@strapi/strapi/admin';
import type {
  SaveTranscriptionResponse,
  TranscriptDownloadFormat,
  TranscriptionDetail,
  TranscriptionListResponse,
  TranscriptionOutputFormat,
  TranscriptionView,
} from './types';

/**
 * Speech to text for the Transcribe page. JSON routes go through the admin fetch client (see
 * client.ts); the upload uses XMLHttpRequest (fetch reports no upload progress) and downloads
 * use fetch to a Blob, both with the admin JWT and one refresh on a 401.
 */

const BASE = '/speech/transcriptions';


export function createTranscriptionApi(client: FetchClient) {
  return {
    listTranscriptions: async (limit = 20) =>
      (await client.get<TranscriptionListResponse>(BASE, { params: { limit: String(limit), mine: 'true' } })).data,

    getTranscription: async (id: number) => (await client.get<{ data: TranscriptionDetail }>(`${BASE}/${id}`)).data.data,

    saveTranscription: async (id: number, format?: TranscriptDownloadFormat) =>
      (await client.post<SaveTranscriptionResponse>(`${BASE}/${id}/save`, format ? { format } : {})).data,
  };
}

/** Gives the current admin token; the page passes the one from useAuth. */
export type TokenSource = { get: () => string | null; set: (token: string | null) => void };

function backendURL(): string {
  return (window as any).strapi?.backendURL ?? '';
}

/** The shape of the admin fetch client's FetchError, so api/errors.ts reads it the same way. */
function fetchError(status: number, data: unknown, fallback: string) {
  const message = (data as any)?.error?.message ?? fallback;
  return Object.assign(new Error(message), { name: 'FetchError', status, response: { data } });
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadRequest {
  file: File;
  language: string;
  outputFormat: TranscriptionOutputFormat;
  onProgress?: (progress: UploadProgress) => void;
  /** The whole body has left the browser; the server now forwards it to the speech service. */
  onUploaded?: () => void;
  signal?: AbortSignal;
}

function sendUpload(request: UploadRequest, token: string | null): Promise<{ status: number; data: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${backendURL()}${BASE}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      request.onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : request.file.size });
    };
    xhr.upload.onload = () => request.onUploaded?.();
    xhr.onload = () => resolve({ status: xhr.status, data: parseJson(xhr.responseText) });
    xhr.onerror = () => reject(fetchError(0, null, 'The upload failed: the server could not be reached.'));
    xhr.onabort = () => reject(Object.assign(new Error('The upload was cancelled.'), { name: 'AbortError' }));
    if (request.signal) {
      if (request.signal.aborted) return xhr.abort();
      request.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    const form = new FormData();
    form.append('language', request.language);
    form.append('output_format', request.outputFormat);
    form.append('audio', request.file, request.file.name);
    xhr.send(form);
  });
}

/** POST /speech/transcriptions with upload progress. Resolves with the new job. */
export async function uploadAudio(request: UploadRequest, tokens: TokenSource): Promise<TranscriptionView> {
  let answer = await sendUpload(request, tokens.get());
  if (answer.status === 401) {
    const fresh = await attemptTokenRefresh(tokens.get());
    tokens.set(fresh);
    answer = await sendUpload(request, fresh);
  }
  if (answer.status < 200 || answer.status >= 300) throw fetchError(answer.status, answer.data, `HTTP ${answer.status}`);
  return (answer.data as { data: TranscriptionView }).data;
}

/** `attachment; filename="a.srt"; filename*=UTF-8''a.srt` -> `a.srt` */
export function fileNameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through */
    }
  }
  const plain = /filename\s*=\s*"([^"]+)"|filename\s*=\s*([^;]+)/.exec(header);
  return (plain?.[1] ?? plain?.[2])?.trim() || fallback;
}

async function sendDownload(id: number, format: TranscriptDownloadFormat, token: string | null) {
  return fetch(`${backendURL()}${BASE}/${id}/download?format=${format}`, {
    credentials: 'include',
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
}

/** GET /speech/transcriptions/:id/download as a Blob (the admin token is a header, not a cookie). */
export async function downloadTranscript(id: number, format: TranscriptDownloadFormat, tokens: TokenSource): Promise<{ blob: Blob; fileName: string }> {
  let response = await sendDownload(id, format, tokens.get());
  if (response.status === 401) {
    const fresh = await attemptTokenRefresh(tokens.get());
    tokens.set(fresh);
    response = await sendDownload(id, format, fresh);
  }
  if (!response.ok) throw fetchError(response.status, parseJson(await response.text().catch(() => '')), `HTTP ${response.status}`);
  return { blob: await response.blob(), fileName: fileNameFromDisposition(response.headers.get('Content-Disposition'), `transcript.${format}`) };
}

/** Hands a Blob to the browser as a download. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
