export type DownloadRefusalCode =
  | 'INVALID_URL'
  | 'HOST_NOT_ALLOWED'
  | 'SCHEME_NOT_ALLOWED'
  | 'PRIVATE_ADDRESS'
  | 'TOO_LARGE'
  | 'TIMEOUT'
  | 'BAD_CONTENT'
  | 'HTTP_STATUS'
  | 'TOO_MANY_REDIRECTS'
  | 'NETWORK_ERROR';

/** `message` names the origin, never the full URL (it may carry a token). */
export class DownloadRefusedError extends Error {
  readonly code: DownloadRefusalCode;
  readonly retryable: boolean;
  readonly status?: number;

  constructor(code: DownloadRefusalCode, message: string, extra: { status?: number } = {}) {
    super(message);
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = 'DownloadRefusedError';
    this.code = code;
    if (extra.status !== undefined) this.status = extra.status;
    this.retryable =
      code === 'TIMEOUT' ||
      code === 'NETWORK_ERROR' ||
      (code === 'HTTP_STATUS' && extra.status !== undefined && (extra.status >= 500 || extra.status === 429 || extra.status === 408));
  }
}

export function tooLarge(origin: string, maxBytes: number): DownloadRefusedError {
  return new DownloadRefusedError('TOO_LARGE', `The file from ${origin} is larger than the ${formatBytes(maxBytes)} limit.`);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
