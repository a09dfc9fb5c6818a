import { blocks, contentManager, createAdmin, outsideTurnOf, startStack, waitFor, type Stack } from './harness';
import { ledgerEntries, processTextSince, lastRequestId, submissionsFor, waitForStatus } from './narration-helpers';

/**
 * The credits ledger (issue 24) against the emulator: a scripted month of what a site does (first
 * narrations, unchanged republishes, an edit, a regenerate, a publish through the API, a null
 * result re-sent, a generation failure refunded, voice and paragraph previews, a transcription),
 * after which the ledger's month equals, to the credit, what the emulator's own ledger took.
 */

const ARTICLE = 'api::article.article';
jest.setTimeout(300_000);

let stack: Stack;
let articles: ReturnType<typeof contentManager>;

beforeAll(async () => {
  // The ledger's month to date is compared with all the service took: all of it within one month.
  await outsideTurnOf('month', 3 * 60_000);
  stack = await startStack({
    env: {
      SPEECH_STT_POLL_MS: '200',
      // A result that never reached the site is asked for again after this (the delivery test below).
      SPEECH_CALLBACK_TIMEOUT_MS: '20000',
    },
  });
  articles = contentManager(stack, ARTICLE);
});

afterAll(async () => {
  await stack?.stop();
});

async function publish(title: string, text: string) {
  const created = await articles.create({ title, summary: text, body: blocks(`${text} More words of ${title}.`) }, 'en');
  await articles.publish(created.documentId, 'en');
  return created.documentId;
}

/** What the emulator's ledger took, net of its refunds: its starting balance less what is left. */
async function emulatorSpent(): Promise<number> {
  const { credits, startingCredits } = await stack.control<any>('GET', '/credits');
  return startingCredits - credits;
}

async function usage(token = stack.adminToken) {
  const response = await stack.request('/speech/usage?days=30', { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as any;
}

const ledgerCsv = (token?: string) => ledgerEntries(stack, token);

/** Every ledger entry has its callback (or needs none). */
async function settled() {
  await waitFor(async () => (await usage()).monthToDate.pending === 0 && (await ledgerCsv()).every((row) => row.outcome !== 'pending'), {
    timeoutMs: 60_000,
    what: 'every ledger entry settled',
  });
}

it('a scripted month: the ledger equals the emulator ledger to the credit, with every cause and outcome', async () => {
  const since = await lastRequestId(stack);
  // First narrations, one of them published twice unchanged (the second asks nothing).
  const first = await publish('Ledger first', 'The first narrated article of the month.');
  const second = await publish('Ledger second', 'A second article, edited later.');
  await waitForStatus(stack, ARTICLE, first, 'completed', 'en');
  await waitForStatus(stack, ARTICLE, second, 'completed', 'en');
  await articles.publish(first, 'en');
  // An edit: the same articleId asked again with regenerate true, paid.
  await articles.update(second, { summary: 'A second article, edited once.' }, 'en');
  await articles.publish(second, 'en');
  await waitFor(
    async () => (await processTextSince(stack, since)).filter((r) => r.body?.postData?.articleId === `${second}-en`).length === 2,
    {
      what: 'the edit submitted',
    }
  );
  await waitForStatus(stack, ARTICLE, second, 'completed', 'en');
  // An editor's regenerate of unchanged content.
  expect(
    (await stack.admin('POST', '/speech/narrations/regenerate', { contentType: ARTICLE, documentId: first, locale: 'en' })).status
  ).toBe(200);
  await waitFor(
    async () => (await processTextSince(stack, since)).filter((r) => r.body?.postData?.articleId === `${first}-en`).length === 2,
    {
      what: 'the regenerate submitted',
    }
  );
  await waitForStatus(stack, ARTICLE, first, 'completed', 'en');

  // A null result (no audio) and a generation failure: each refunded, then paid again with regenerate true.
  const noAudio = await articles.create({ title: 'Ledger silent', summary: 'An article whose first take has no audio.' }, 'en');
  const failing = await articles.create({ title: 'Ledger failing', summary: 'An article whose first take fails.' }, 'en');
  await stack.control('POST', '/inject', { kind: 'noAudio', articleId: `${noAudio.documentId}-en` });
  await stack.control('POST', '/inject', { kind: 'generationFailure', articleId: `${failing.documentId}-en` });
  await articles.publish(noAudio.documentId, 'en');
  await articles.publish(failing.documentId, 'en');
  await waitForStatus(stack, ARTICLE, noAudio.documentId, 'completed', 'en');
  await waitForStatus(stack, ARTICLE, failing.documentId, 'completed', 'en');

  // A publish through the REST API with an API token.
  const token = await stack.admin('POST', '/admin/api-tokens', { name: 'ledger-front', type: 'full-access', lifespan: null });
  const created = await stack.request('/api/articles', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.body.data.accessKey}` },
    body: JSON.stringify({ data: { title: 'Ledger over REST', summary: 'Published at once by an API token.' } }),
  });
  expect(created.status).toBe(201);
  const rest = ((await created.json()) as any).data.documentId as string;
  await waitForStatus(stack, ARTICLE, rest, 'completed', 'en');

  // A voice preview, a paragraph preview, a transcription.
  const auth = { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` };
  const voice = await stack.request('/speech/tts/preview', {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ voiceId: 'en-female-1', text: 'Hello from the ledger.' }),
  });
  expect(voice.status).toBe(200);
  const paragraph = await stack.request('/speech/narrations/listen', {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ contentType: ARTICLE, documentId: first, locale: 'en', index: 0 }),
  });
  expect(paragraph.status).toBe(200);
  // The preview's own MP3 is the recording transcribed.
  const form = new FormData();
  form.append('audio', new Blob([new Uint8Array(await voice.arrayBuffer())], { type: 'audio/mpeg' }), 'ledger.mp3');
  const transcription = await stack.request('/speech/transcriptions', {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.adminToken}` },
    body: form,
  });
  expect(transcription.status).toBeLessThan(300);

  await settled();
  const spent = await emulatorSpent();
  expect(spent).toBeGreaterThan(0);
  const view = await usage();
  expect(view.monthToDate.credits).toBe(spent);
  // The emulator's events say the same, charge by charge.
  const { events } = await stack.control<any>('GET', '/events');
  const sum = (type: string) => events.filter((e: any) => e.type === type).reduce((total: number, e: any) => total + e.credits, 0);
  expect(sum('CREDITS_CHARGED') - sum('CREDITS_REFUNDED')).toBe(spent);
  expect(view.monthToDate.refundedCredits).toBe(sum('CREDITS_REFUNDED'));
  expect(view.monthToDate.refunds).toBe(events.filter((e: any) => e.type === 'CREDITS_REFUNDED').length);

  const entries = await ledgerCsv();
  const causes = new Set(entries.map((row) => row.cause));
  for (const cause of ['admin-publish', 'api-publish', 'regenerate', 'voice-preview', 'paragraph-preview', 'transcription'])
    expect(causes).toContain(cause);
  expect(
    entries
      .filter((row) => row.outcome === 'refunded')
      .map((row) => row.documentId)
      .sort()
  ).toEqual([failing.documentId, noAudio.documentId].sort());
  expect(entries.find((row) => row.cause === 'api-publish')?.causedBy).toBe('API token "ledger-front"');
  // The CSV's credits add up to the same figure, and the day's chart to the month.
  const csvSpent = entries.reduce((total, row) => total + (row.outcome === 'refunded' ? 0 : Number(row.credits)), 0);
  expect(csvSpent).toBe(spent);
  expect(view.days.reduce((total: number, day: any) => total + day.credits, 0)).toBe(spent);
  expect(view.topArticles[0].credits).toBeGreaterThan(0);
  expect(view.balance.drift).toBe(0);
});

it('a result the site never received (down through every delivery attempt) is refunded, re-delivered free, and the ledger still equals the emulator', async () => {
  const spentBefore = await emulatorSpent();
  const ledgerBefore = (await usage()).monthToDate.credits;
  expect(ledgerBefore).toBe(spentBefore);
  const created = await articles.create({ title: 'Ledger undelivered', summary: 'Its first callback finds the site down.' }, 'en');
  const articleId = `${created.documentId}-en`;
  // The callback waits 5 s: long enough to stop Strapi after the 202, before it is sent.
  await stack.control('POST', '/inject', { kind: 'slowCallback', delayMs: 5_000, articleId });
  await articles.publish(created.documentId, 'en');
  await waitFor(async () => (await submissionsFor(stack, articleId)).some((request) => request.status === 202), {
    what: 'the narration accepted',
  });
  await stack.stopStrapi();
  await waitFor(
    async () =>
      (await stack.control<any>('GET', `/events?articleId=${encodeURIComponent(articleId)}&type=DELIVERY_FAILED`)).events.length === 1,
    { timeoutMs: 30_000, what: 'every delivery attempt to fail' }
  );
  await stack.restartStrapi();
  await waitForStatus(stack, ARTICLE, created.documentId, 'completed', 'en', 60_000);
  await settled();
  const requests = (await submissionsFor(stack, articleId)).filter((request) => request.status === 202);
  expect(requests.map((request) => request.body.postData.regenerate)).toEqual([false, false]);
  const entries = (await ledgerCsv()).filter((row) => row.articleId === articleId);
  expect(entries.map((row) => [row.credits === '0' ? 'free' : 'paid', row.outcome])).toEqual([
    ['paid', 'refunded'],
    ['free', 'redelivered'],
  ]);
  expect(await emulatorSpent()).toBe(spentBefore);
  expect((await usage()).monthToDate.credits).toBe(spentBefore);
});

describe('who reads which titles', () => {
  const ARABIC_TITLE = 'مقال الحساب';
  const ENGLISH_TITLE = 'Ledger in English';

  /** An admin in a new role with the plugin's settings read permission and `permissions` besides. */
  async function settingsReader(email: string, permissions: unknown[] = []) {
    const role = await stack.admin('POST', '/admin/roles', { name: email, description: 'Reads the speech settings' });
    const granted = await stack.admin('PUT', `/admin/roles/${role.body.data.id}/permissions`, {
      permissions: [{ action: 'plugin::speech.settings.read', subject: null, properties: {}, conditions: [] }, ...permissions],
    });
    expect(granted.status).toBe(200);
    return createAdmin(stack, email, role.body.data.id);
  }

  const articleTitles = (rows: Array<Record<string, string>>) =>
    new Set(rows.filter((row) => row.contentType === ARTICLE && row.title).map((row) => row.title));

  beforeAll(async () => {
    const english = await publish(ENGLISH_TITLE, 'An English article in the ledger.');
    const arabic = await articles.create({ title: ARABIC_TITLE, summary: 'مقال عربي في دفتر الحساب.' }, 'ar');
    await articles.publish(arabic.documentId, 'ar');
    await waitForStatus(stack, ARTICLE, english, 'completed', 'en');
    await waitForStatus(stack, ARTICLE, arabic.documentId, 'completed', 'ar');
    await settled();
  });

  it('the usage view and its CSV show an article only to a role that may read it in the Content Manager; the figures stay whole', async () => {
    const whole = await usage();
    const wholeCsv = await ledgerCsv();
    expect(whole.topArticles.map((article: any) => article.title)).toEqual(expect.arrayContaining([ARABIC_TITLE, ENGLISH_TITLE]));
    expect([...articleTitles(wholeCsv)]).toEqual(expect.arrayContaining([ARABIC_TITLE, ENGLISH_TITLE]));

    const outsider = await settingsReader('ledger-outsider@example.com');
    const theirs = await usage(outsider.token);
    expect(theirs.topArticles).toEqual([]);
    expect(theirs.monthToDate).toEqual(whole.monthToDate);
    const theirCsv = await ledgerCsv(outsider.token);
    expect(theirCsv).toHaveLength(wholeCsv.length);
    for (const row of theirCsv.filter((entry) => entry.contentType === ARTICLE)) {
      expect([row.title, row.documentId, row.articleId]).toEqual(['', '', '']);
    }

    const arabicReader = await settingsReader('ledger-arabic@example.com', [
      {
        action: 'plugin::content-manager.explorer.read',
        subject: ARTICLE,
        properties: { fields: ['title', 'summary', 'body'], locales: ['ar'] },
        conditions: [],
      },
    ]);
    const arabicView = await usage(arabicReader.token);
    expect(arabicView.topArticles.map((article: any) => [article.locale, article.title])).toEqual([['ar', ARABIC_TITLE]]);
    expect(arabicView.monthToDate).toEqual(whole.monthToDate);
    const arabicCsv = await ledgerCsv(arabicReader.token);
    expect([...articleTitles(arabicCsv)]).toEqual([ARABIC_TITLE]);
    expect(arabicCsv.filter((row) => row.contentType === ARTICLE && row.documentId).every((row) => row.locale === 'ar')).toBe(true);
  });
});
