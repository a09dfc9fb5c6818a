import { downloadLedgerCsv } from '../../../admin/src/api/ledger';
import type { GetUsageResponse } from '../../../admin/src/api/types';
import { adminStore, closeAdminStores, type SentRequest } from './api-store';
import { ARTICLE, csvClient as client, usageResponse } from './usage-fixtures';

// ledger.ts reaches Strapi's admin only through binary.ts' token refresh, which these tests never need.
jest.mock('@strapi/strapi/admin', () => ({ attemptTokenRefresh: jest.fn() }));

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const TARGET = { contentType: ARTICLE, documentId: 'doc1', locale: 'ar' };

afterEach(closeAdminStores);

/** A server that answers the usage with the number of times it was asked (so a refetch shows). */
function usageServer() {
  let asked = 0;
  return (request: SentRequest) => {
    if (request.url === '/speech/usage') {
      asked += 1;
      return usageResponse({ failures: asked });
    }
    if (request.url === '/speech/narrations/let-through') return { articleId: 'a1', released: true };
    if (request.url === '/speech/settings') return { settings: {} };
    if (request.url.startsWith('/speech/narrations/document/')) return { data: [], queue: null };
    throw { error: { status: 404, name: 'NotFoundError', message: request.url, details: {} } };
  };
}

it('asks GET /speech/usage for the period, as text (the query string the server reads back)', async () => {
  const stack = adminStore(usageServer());
  const usage = stack.store.dispatch(stack.api.endpoints.getSpeechUsage.initiate(90));
  const answer = await usage;
  expect(stack.sent('/speech/usage')).toEqual([{ url: '/speech/usage', method: 'GET', data: undefined, params: { days: '90' } }]);
  expect((answer.data as GetUsageResponse).failures).toBe(1);
  usage.unsubscribe();
});

it('lets a held narration through with its target, then reloads the usage and the document’s narrations', async () => {
  const stack = adminStore(usageServer());
  const usage = stack.store.dispatch(stack.api.endpoints.getSpeechUsage.initiate(30));
  const narrations = stack.store.dispatch(stack.api.endpoints.getSpeechDocumentNarrations.initiate(TARGET));
  await Promise.all([usage, narrations]);
  const answer = await stack.store.dispatch(stack.api.endpoints.speechLetThrough.initiate(TARGET)).unwrap();
  expect(answer).toEqual({ articleId: 'a1', released: true });
  expect(stack.sent('/speech/narrations/let-through')).toEqual([
    { url: '/speech/narrations/let-through', method: 'POST', data: TARGET, params: undefined },
  ]);
  await settle();
  expect(stack.sent('/speech/usage')).toHaveLength(2);
  expect(stack.sent('/speech/narrations/document/doc1')).toHaveLength(2);
  expect(stack.api.endpoints.getSpeechUsage.select(30)(stack.store.getState() as never).data?.failures).toBe(2);
  usage.unsubscribe();
  narrations.unsubscribe();
});

it('reloads the usage after the settings are saved: a new budget changes what it is measured against', async () => {
  const stack = adminStore(usageServer());
  const usage = stack.store.dispatch(stack.api.endpoints.getSpeechUsage.initiate(30));
  await usage;
  await stack.store.dispatch(stack.api.endpoints.updateSpeechSettings.initiate({ budget: { monthlyCredits: 1_000 } }));
  await settle();
  expect(stack.sent('/speech/settings')).toEqual([
    { url: '/speech/settings', method: 'PUT', data: { budget: { monthlyCredits: 1_000 } }, params: undefined },
  ]);
  expect(stack.sent('/speech/usage')).toHaveLength(2);
  usage.unsubscribe();
});

describe('the ledger’s CSV', () => {
  it('is fetched as a Blob through the admin client (its token), named as the server names it', async () => {
    const csv = 'acceptedAt,day\n2026-11-27T10:00:00.000Z,2026-11-27\n';
    const { fake, calls } = client(200, csv, 'attachment; filename="speech-ledger-2026-11.csv"');
    const { blob, fileName } = await downloadLedgerCsv(fake, '2026-11-27');
    expect(calls).toEqual([{ url: '/speech/usage/ledger.csv', options: expect.objectContaining({ responseType: 'blob' }) }]);
    expect(await blob.text()).toBe(csv);
    expect(fileName).toBe('speech-ledger-2026-11.csv');
  });

  it('is named after the day when the server gives no name', async () => {
    const { fake } = client(200, 'acceptedAt\n', null);
    expect((await downloadLedgerCsv(fake, '2026-11-27')).fileName).toBe('speech-ledger-2026-11-27.csv');
  });

  it('fails with the server’s own message (a role without the permission)', async () => {
    const body = JSON.stringify({ error: { status: 403, name: 'PolicyError', message: 'Policy Failed', details: {} } });
    const { fake } = client(403, body, null);
    await expect(downloadLedgerCsv(fake, '2026-11-27')).rejects.toMatchObject({ status: 403, message: 'Policy Failed' });
  });
});
