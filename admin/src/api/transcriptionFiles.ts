import { adminUrl } from '../../../shared/contracts/routes';
import type { FetchClient } from '@strapi/strapi/admin';
import { backendURL } from '../utils/backendURL';
import { fetchError, parseJson, withFreshToken } from './binary';
import type {
  DownloadTranscriptRequest,
  SubmitTranscriptionRequest,
  SubmitTranscriptionResponse,
  TranscriptDownloadFormat,
  TranscriptionOutputFormat,
  TranscriptionView,
} from './types';

/**
 * Speech to text requests the query cache does not make (its endpoints are in transcriptions.ts):
 * the upload uses XMLHttpRequest (fetch reports no upload progress) with the admin token from
 * the auth context; downloads go through the admin fetch client as a Blob.
 */

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
    xhr.open('POST', `${backendURL()}${adminUrl('admin-transcriptions.submit')}`);
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
    const fields: Required<SubmitTranscriptionRequest['body']> = { language: request.language, output_format: request.outputFormat };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('audio', request.file, request.file.name);
    xhr.send(form);
  });
}

/** POST /speech/transcriptions with upload progress. Resolves with the new job. */
export async function uploadAudio(request: UploadRequest, token: string | null): Promise<TranscriptionView> {
  const answer = await withFreshToken(token, (current) => sendUpload(request, current));
  if (answer.status < 200 || answer.status >= 300) throw fetchError(answer.status, answer.data, `HTTP ${answer.status}`);
  return (answer.data as SubmitTranscriptionResponse).data;
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

/**
 * GET /speech/transcriptions/:id/download as a Blob, through the admin fetch client (its token,
 * its refresh on a 401). Other failures are let through so their JSON message can be shown.
 */
export async function downloadTranscript(
  client: FetchClient,
  id: number,
  format: TranscriptDownloadFormat
): Promise<{ blob: Blob; fileName: string }> {
  const response = await client.get(adminUrl('admin-transcriptions.download', { id }), {
    params: { format } satisfies DownloadTranscriptRequest['query'],
    responseType: 'blob',
    validateStatus: (status) => status !== 401,
  });
  const status = response.status ?? 200;
  if (status < 200 || status >= 300) throw fetchError(status, parseJson(await response.data.text().catch(() => '')), `HTTP ${status}`);
  return {
    blob: response.data,
    fileName: fileNameFromDisposition(response.headers?.get('Content-Disposition') ?? null, `transcript.${format}`),
  };
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
