import type { FetchClient } from '@strapi/strapi/admin';
import { fetchError, parseJson } from './binary';
import { ledgerFileName } from '../utils/usageFormat';
import { fileNameFromDisposition } from './transcriptions';

/**
 * GET /speech/usage/ledger.csv as a Blob, through the admin fetch client (its token, its refresh
 * on a 401): a plain link would carry no admin token. Other failures are let through so their JSON
 * message can be shown.
 */
export async function downloadLedgerCsv(client: FetchClient, today: string): Promise<{ blob: Blob; fileName: string }> {
  const response = await client.get('/speech/usage/ledger.csv', { responseType: 'blob', validateStatus: (status) => status !== 401 });
  const status = response.status ?? 200;
  if (status < 200 || status >= 300) throw fetchError(status, parseJson(await response.data.text().catch(() => '')), `HTTP ${status}`);
  return {
    blob: response.data,
    fileName: fileNameFromDisposition(response.headers?.get('Content-Disposition') ?? null, ledgerFileName(today)),
  };
}
