/** Guarded downloading of the service's media links. Other features import it from here. */
export type { DownloadConfig } from './config';
export { DownloadRefusedError, downloadToTempFile } from './download';
export type { DownloadedFile } from './transfer';
