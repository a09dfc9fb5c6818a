import { adminUrl } from '../../../shared/contracts/routes';
import type { FetchClient } from '@strapi/strapi/admin';
import { fetchError, parseJson } from './binary';
import type { InsightsPeriod } from './endpoints';
import { ledgerFileName } from '../utils/usageFormat';
import { listeningFileName } from '../utils/insights';
import { fileNameFromDisposition } from './transcriptionFiles';

/**
 * A CSV route's answer as a Blob, through the admin fetch client (its token, its refresh on a
 * 401): a plain link would carry no admin token. Other failures are let through so their JSON
 * message can be shown. Named as the server names it, else `fallbackName`.
 */
async function downloadCsv(client: FetchClient, url: string, params: Record<string, string> | undefined, fallbackName: string) {
  const response = await client.get(url, { params, responseType: 'blob', validateStatus: (status) => status !== 401 });
  const status = response.status ?? 200;
  if (status < 200 || status >= 300) throw fetchError(status, parseJson(await response.data.text().catch(() => '')), `HTTP ${status}`);
  return {
    blob: response.data,
    fileName: fileNameFromDisposition(response.headers?.get('Content-Disposition') ?? null, fallbackName),
  };
}

/** GET /speech/usage/ledger.csv: the whole ledger (`settings.read`). */
export const downloadLedgerCsv = (client: FetchClient, today: string) =>
  downloadCsv(client, adminUrl('admin-credits.ledgerCsv'), undefined, ledgerFileName(today));

/** GET /speech/insights/listening.csv?days=: a row per article and day, of the articles the caller may read. */
export const downloadListeningCsv = (client: FetchClient, days: InsightsPeriod, today: string) =>
  downloadCsv(client, adminUrl('admin-insights.csv'), { days: String(days) }, listeningFileName(today, days));
