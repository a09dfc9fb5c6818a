/** Guarded downloading of the service's media links. */
export type { DownloadConfig } from './config';
export { DownloadRefusedError, downloadToTempFile } from './download';
export type { DownloadedFile } from './transfer';
