/**
 * The admin panel in a real headless Chromium (Debian `chromium` driven by playwright-core) against
 * the playground Strapi and the speech-service emulator: settings, list badges, the edit-view
 * panel with its player, regenerate, an injected failure and the bulk action.
 *
 * Needs the playground's admin bundle, built after the plugin:
 *   node node_modules/@strapi/sdk-plugin/bin/strapi-plugin.js build
 *   cd playground && node ../node_modules/@strapi/strapi/bin/strapi.js build
 *
 * One Strapi boot for the whole file; the steps run in order and build on each other.
 * Screenshots go to test-artifacts/e2e/.
 */
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { blocks, contentManager, waitFor, type Stack } from '../integration/harness';
import { ARTIFACTS, closeAdminSession, expectAttribute, expectText, logIn, openAdminSession, selectForBulkAction } from './browser';

jest.setTimeout(120_000);

const ARTICLE = 'api::article.article';

const TITLE = 'Narrated from the browser';
const FAILING_TITLE = 'An article without audio';
const PAUSED_TITLE = 'Waiting for credits';

let stack: Stack;
let browser: Browser;
let page: Page;
/** Console errors, page errors and failed plugin requests: the admin must produce none. */
const problems: string[] = [];
let statusesRequests = 0;

async function shot(name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** The list view's header cell (the table is a grid: its headers are gridcells). */
function narrationHeader(label: string): Locator {
  return page.locator('thead th', { hasText: label });
}

/** Status badge of the list row with this title. */
function listBadge(title: string): Locator {
  return page.locator('tr', { hasText: title }).getByTestId('speech-badge');
}

async function badgeKind(locator: Locator): Promise<string | null> {
  return locator.getAttribute('data-kind', { timeout: 1_000 }).catch(() => null);
}

/** Waits until the badge shows one of `kinds`, remembering every kind seen on the way. */
async function waitForBadge(locator: Locator, kinds: string[], seen: Set<string> = new Set(), timeoutMs = 45_000) {
  await waitFor(
    async () => {
      const kind = await badgeKind(locator);
      if (kind) seen.add(kind);
      return kind !== null && kinds.includes(kind);
    },
    { timeoutMs, intervalMs: 100, what: `badge ${kinds.join('|')} (seen: ${[...seen].join(', ') || 'none'})` }
  );
  return seen;
}

async function openList() {
  await page.goto(`${stack.url}/admin/content-manager/collection-types/${ARTICLE}`);
  await page.getByRole('heading', { name: 'Article' }).waitFor();
}

async function narrationOf(documentId: string) {
  const { body } = await stack.admin('GET', `/speech/narrations/document/${documentId}?contentType=${ARTICLE}&locale=en`);
  return (body?.data ?? [])[0] as { status: string; completedAt: string | null } | undefined;
}

async function processTextRequests(): Promise<Array<{ status: number; body: any }>> {
  const { requests } = await stack.control('GET', '/requests?path=/process-text');
  return requests;
}

beforeAll(async () => {
  ({ stack, browser, page } = await openAdminSession('tests/e2e/admin.test.ts', problems, {
    // One attempt per narration, so an injected "no audio" fails the article at once.
    env: { SPEECH_MAX_ATTEMPTS: '1' },
    onResponse: (response) => {
      if (new URL(response.url()).pathname === '/speech/narrations/statuses') statusesRequests += 1;
    },
  }));
}, 150_000);

afterAll(() => closeAdminSession({ browser, stack }));

it('logs in through the login form and dismisses the guided tour and the banner', async () => {
  await logIn(page, stack.url);
});

it('Settings -> Speech: connection, voice picker and a cost preview that doubles with AI preprocessing', async () => {
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await page.getByRole('link', { name: 'Speech', exact: true }).click();
  await page.getByRole('heading', { name: 'Speech' }).waitFor();

  await expectText(page.getByTestId('speech-api-key'), 'Configured');
  await expectText(page.getByTestId('speech-callback-url'), `${stack.url}/api/speech/callback`);
  await page.getByTestId('speech-test-connection').click();
  await expectText(page.getByTestId('speech-connection-result'), 'Connected: 5 voices available.');

  // Searchable voice picker: type part of a name, pick the option (name and language).
  const combobox = page.getByRole('combobox', { name: 'Default voice' });
  await combobox.click();
  await combobox.fill('James');
  await page.getByRole('option', { name: 'James (English) · en' }).click();
  await expect(await combobox.inputValue()).toBe('James (English) · en');
  // The server announces voice previews: the play button speaks a sample in that voice.
  const previewAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === '/speech/tts/preview');
  await page.getByTestId('speech-voice-preview').click();
  const answer = await previewAnswer;
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toContain('audio/mpeg');
  await expectAttribute(page.getByTestId('speech-voice-preview'), 'data-state', 'playing');

  const sample = page.getByTestId('speech-sample');
  await sample.fill('Hello, world!');
  const cost = page.getByTestId('speech-sample-cost');
  await expectAttribute(cost, 'data-credits', '13');
  await expectText(cost, '13 characters × 1 = 13 credits');
  await page.getByRole('radio', { name: 'AI preprocessing (characters × 2)' }).click();
  await expectAttribute(cost, 'data-credits', '26');
  await expectText(cost, '13 characters × 2 = 26 credits');

  await page.getByTestId('speech-save').click();
  await page.getByText('Settings saved.').waitFor();
  const { body } = await stack.admin('GET', '/speech/settings');
  expect(body.settings).toMatchObject({ defaultVoiceId: 'en-male-1', preprocessType: '2' });
  await page.getByTestId('speech-test-connection').scrollIntoViewIfNeeded();
  await shot('settings');
  await page.getByTestId('speech-content-types').scrollIntoViewIfNeeded();
  await shot('settings-content-types');
});

it('switching on a type without draft & publish shows that saving narrates it, and a note saved in the editor is narrated', async () => {
  const NOTE = 'api::note.note';
  // Start with notes off (the playground's config narrates them).
  await stack.admin('PUT', '/speech/settings', { contentTypes: { [NOTE]: { titleField: 'title', textFields: ['text'], trigger: 'off' } } });
  await page.goto(`${stack.url}/admin/settings/speech`);
  await page.getByRole('heading', { name: 'Speech' }).waitFor();
  const card = page.getByTestId(`speech-type-${NOTE}`);
  await card.scrollIntoViewIfNeeded();
  await card.getByTestId(`speech-type-toggle-${NOTE}`).click();
  await expectText(card.getByTestId(`speech-type-rule-${NOTE}`), 'An entry is saved: this type has no draft & publish.');
  await expectText(page.getByTestId(`speech-type-rule-${ARTICLE}`), 'An entry is published');
  await page.getByTestId('speech-save').click();
  await page.getByText('Settings saved.').waitFor();
  expect((await stack.admin('GET', '/speech/settings')).body.settings.contentTypes[NOTE].trigger).toBe('save');
  await card.scrollIntoViewIfNeeded();
  await shot('settings-note-on');

  // With its locale, as the list's "Create new entry" opens it: without one, the i18n plugin adds it
  // by a navigation once the locales have loaded, which may re-create the form after the fills on a
  // loaded machine (the likely cause of a Save in CI that never said "Saved document").
  await page.goto(`${stack.url}/admin/content-manager/collection-types/${NOTE}/create?plugins[i18n][locale]=en`);
  await page.getByLabel('title').fill('A note saved in the browser');
  await page.getByLabel('text').fill('Saving this note is enough to narrate it.');
  expect(await page.getByLabel('title').inputValue()).toBe('A note saved in the browser');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved document').first().waitFor();
  const { body } = await stack.admin('GET', `/content-manager/collection-types/${NOTE}?page=1&pageSize=10&locale=en`);
  const note = (body.results as Array<{ documentId: string; title: string }>).find(
    (entry) => entry.title === 'A note saved in the browser'
  );
  expect(note).toBeDefined();
  await waitFor(
    async () => {
      const narration = await stack.admin('GET', `/speech/narrations/document/${note!.documentId}?contentType=${NOTE}&locale=en`);
      return narration.body.data[0]?.status === 'completed';
    },
    { timeoutMs: 45_000, what: 'the saved note to be narrated' }
  );
  const submissions = (await processTextRequests()).filter((request) => request.body?.postData?.articleId === `${note!.documentId}-en`);
  expect(submissions).toHaveLength(1);
  expect(submissions[0].body.text).toContain('Saving this note is enough to narrate it.');
});

it('an article created and published in the editor goes from queued to ready in the list', async () => {
  // The first submission is rate limited for a few seconds, so "Queued" is on screen long enough to see.
  await stack.control('POST', '/inject', { kind: 'rateLimit429', target: 'process-text', retryAfter: 6 });

  await openList();
  await page.getByRole('link', { name: 'Create new entry' }).first().click();
  await page.getByLabel('title').fill(TITLE);
  await page.getByLabel('summary').fill('Read aloud by the speech plugin.');
  const body = page.locator('[role="textbox"][contenteditable="true"]').first();
  await body.click();
  await body.pressSequentially('The first sentence is short. The second one tells a little more about the test.');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved document').first().waitFor();
  // The panel knows the draft's cost before anything is sent: characters x 2 (AI preprocessing).
  await expectText(page.getByTestId('speech-estimate'), '× 2 =');
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByText('Published document').first().waitFor();

  await page.getByRole('link', { name: 'Back' }).click();
  await narrationHeader('Narration').waitFor();
  const badge = listBadge(TITLE);
  const seen = await waitForBadge(badge, ['queued', 'paused'], new Set(), 15_000);
  await shot('list-queued');
  await waitForBadge(badge, ['ready'], seen);
  expect([...seen]).toEqual(expect.arrayContaining(['queued', 'ready']));
  await shot('list-ready');
});

it('the list asks for the statuses of a whole page in one request', async () => {
  await contentManager(stack, ARTICLE).create({ title: 'A draft, never narrated', summary: 'Draft.', body: blocks('Nothing yet.') });
  const before = statusesRequests;
  await openList();
  await narrationHeader('Narration').waitFor();
  await waitForBadge(listBadge('A draft, never narrated'), ['none']);
  await expect(await badgeKind(listBadge(TITLE))).toBe('ready');
  // Two rows, one request (nothing is in progress, so no polling follows).
  await page.waitForTimeout(3_500);
  expect({ requests: statusesRequests - before }).toEqual({ requests: 1 });
});

it('the edit view panel plays the stored MP3 with its subtitles and regenerates after a confirm dialog that states the cost', async () => {
  await page.locator('tr', { hasText: TITLE }).getByText(TITLE, { exact: true }).click();
  const panel = page.getByTestId('speech-panel');
  await panel.waitFor();
  await expect(await badgeKind(panel.getByTestId('speech-badge'))).toBe('ready');

  const audio = panel.getByTestId('speech-audio');
  await page.waitForFunction(
    () => ((document.querySelector('[data-testid="speech-audio"]') as HTMLAudioElement | null)?.duration ?? 0) > 0
  );
  const duration = await audio.evaluate((element: HTMLAudioElement) => element.duration);
  expect(duration).toBeGreaterThan(1);
  // Play: a click gives the page a user gesture, then the element plays; the subtitle line follows.
  await audio.click({ position: { x: 24, y: 20 } });
  await audio.evaluate((element: HTMLAudioElement) => (element.paused ? element.play() : undefined));
  await page.waitForFunction(
    () => ((document.querySelector('[data-testid="speech-audio"]') as HTMLAudioElement | null)?.currentTime ?? 0) > 0.3
  );
  await expectText(panel.getByTestId('speech-subtitle-line'), 'The first sentence is short.');
  await audio.evaluate((element: HTMLAudioElement) => element.pause());
  await panel.scrollIntoViewIfNeeded();
  await shot('edit-panel');

  const estimate = await stack.admin('POST', '/speech/narrations/estimate', {
    contentType: ARTICLE,
    documentId: await documentIdOf(TITLE),
    locale: 'en',
  });
  const before = (await processTextRequests()).length;
  const firstCompletedAt = (await narrationOf(await documentIdOf(TITLE)))?.completedAt;
  await panel.getByTestId('speech-regenerate').click();
  const dialog = page.getByTestId('speech-regenerate-dialog');
  await dialog.waitFor();
  await expectText(
    page.getByTestId('speech-regenerate-cost'),
    `Cost: ${estimate.body.credits} credits (${estimate.body.characters} characters × 2).`
  );
  expect(estimate.body.credits).toBe(estimate.body.characters * 2);
  await shot('regenerate-dialog');
  await page.getByTestId('speech-regenerate-confirm').click();
  await page.getByText('Narration queued.').first().waitFor();

  await waitFor(
    async () => {
      const row = await narrationOf(await documentIdOf(TITLE));
      return row?.status === 'completed' && row.completedAt !== firstCompletedAt;
    },
    { timeoutMs: 45_000, what: 'the regenerated narration' }
  );
  const requests = await processTextRequests();
  expect(requests.length).toBeGreaterThan(before);
  expect(requests[requests.length - 1].body.postData).toMatchObject({ regenerate: true, voiceId: 'en-male-1', preprocessType: '2' });
  await waitForBadge(panel.getByTestId('speech-badge'), ['ready']);
});

it('a failure injected in the emulator shows its reason in plain words', async () => {
  await stack.control('POST', '/inject', { kind: 'noAudio' });
  const cm = contentManager(stack, ARTICLE);
  const { documentId } = await cm.create({
    title: FAILING_TITLE,
    summary: 'This one gets no audio.',
    body: blocks('The emulator is told to produce nothing.'),
  });
  await cm.publish(documentId);
  await waitFor(async () => (await narrationOf(documentId))?.status === 'failed', { timeoutMs: 45_000, what: 'the failed narration' });

  await openList();
  await waitForBadge(listBadge(FAILING_TITLE), ['failed']);
  await shot('list-badges');
  await page.locator('tr', { hasText: FAILING_TITLE }).getByText(FAILING_TITLE, { exact: true }).click();
  const panel = page.getByTestId('speech-panel');
  await expectText(panel.getByTestId('speech-failure'), 'The speech service produced no audio for this article.');
  await expect(await badgeKind(panel.getByTestId('speech-badge'))).toBe('failed');
  await panel.scrollIntoViewIfNeeded();
  await shot('edit-failure');
});

it('the bulk action shows what will be submitted, skipped and paid, then narrates', async () => {
  await openList();
  await waitForBadge(listBadge(FAILING_TITLE), ['failed']);
  await page.locator('tr', { hasText: TITLE }).getByRole('checkbox').check();
  await (await selectForBulkAction(page, page.locator('tr', { hasText: FAILING_TITLE }), 'Narrate')).click();
  const summary = page.getByTestId('speech-bulk-summary');
  await expectText(summary.getByTestId('speech-bulk-submit'), '1 entry will be submitted.');
  await expectText(summary.getByTestId('speech-bulk-skipped'), '1 skipped: unchanged since its last narration.');
  const failingId = await documentIdOf(FAILING_TITLE);
  const estimate = await stack.admin('POST', '/speech/narrations/estimate', { contentType: ARTICLE, documentId: failingId, locale: 'en' });
  await expectText(summary.getByTestId('speech-bulk-credits'), `Total: ${estimate.body.credits} credits.`);
  // Each entry that would be submitted, with what it pays (the unchanged one is only counted).
  expect(await summary.getByTestId('speech-bulk-item').allInnerTexts()).toEqual([`${FAILING_TITLE} · ${estimate.body.credits} credits`]);
  await shot('bulk-dialog');
  await page.getByTestId('speech-bulk-confirm').click();
  await page.getByText('1 narration queued.').first().waitFor();
  await waitForBadge(listBadge(FAILING_TITLE), ['ready']);
  await expect(await badgeKind(listBadge(TITLE))).toBe('ready');
});

it('a voice chosen in the edit view panel narrates that entry only, and the default voice comes back when it is cleared', async () => {
  await openList();
  await page.locator('tr', { hasText: TITLE }).getByText(TITLE, { exact: true }).click();
  const panel = page.getByTestId('speech-panel');
  await waitForBadge(panel.getByTestId('speech-badge'), ['ready']);
  const documentId = await documentIdOf(TITLE);
  const estimateOf = async (id: string) =>
    (await stack.admin('POST', '/speech/narrations/estimate', { contentType: ARTICLE, documentId: id, locale: 'en' })).body;
  const defaultVoice = (await estimateOf(documentId)).voiceId;
  expect(defaultVoice).not.toBe('en-female-1');
  // Unchanged since its narration: nothing to pay for, so no "Narrate now".
  await expectText(panel.getByTestId('speech-estimate'), 'Unchanged since the last narration.');
  expect(await panel.getByTestId('speech-narrate').count()).toBe(0);

  const voice = panel.getByRole('combobox', { name: 'Voice' });
  await voice.click();
  await page.getByRole('option', { name: 'Emma (English) (en)' }).click();
  await expectText(panel.getByTestId('speech-estimate'), 'Emma (English)');
  expect(await estimateOf(documentId)).toMatchObject({ voiceId: 'en-female-1', voiceOverride: 'en-female-1', unchanged: false });
  // Another entry keeps the default voice.
  expect((await estimateOf(await documentIdOf(FAILING_TITLE))).voiceId).toBe(defaultVoice);
  await panel.scrollIntoViewIfNeeded();
  await shot('edit-voice-override');

  const before = (await processTextRequests()).length;
  const previousCompletedAt = (await narrationOf(documentId))?.completedAt;
  await panel.getByTestId('speech-narrate').click();
  await page.getByText('Narration queued.').first().waitFor();
  await waitFor(
    async () => {
      const row = await narrationOf(documentId);
      return row?.status === 'completed' && row.completedAt !== previousCompletedAt;
    },
    { timeoutMs: 45_000, what: 'the narration in the chosen voice' }
  );
  const sent = (await processTextRequests()).slice(before).map((request) => request.body.postData);
  expect(sent).toEqual([expect.objectContaining({ voiceId: 'en-female-1', regenerate: true })]);
  await waitForBadge(panel.getByTestId('speech-badge'), ['ready']);

  // Back to the default: the entry follows the settings again (a new narration would be needed).
  await voice.click();
  await page.getByRole('option', { name: 'Default voice' }).click();
  await waitFor(async () => (await estimateOf(documentId)).voiceOverride === null, {
    timeoutMs: 10_000,
    what: 'the override to be cleared',
  });
  expect((await estimateOf(documentId)).voiceId).toBe(defaultVoice);
  await panel.getByTestId('speech-narrate').waitFor();
});

it('the edit view panel reads one paragraph aloud in the entry voice, before anything is narrated', async () => {
  const panel = page.getByTestId('speech-panel');
  const ttsRequests = async () =>
    ((await stack.control('GET', '/requests?path=/api/v1/tts/generate')).requests as Array<{ method: string; body: any }>).filter(
      (r) => r.method === 'POST'
    );
  const before = (await ttsRequests()).length;
  const estimate = await stack.admin('POST', '/speech/narrations/estimate', {
    contentType: ARTICLE,
    documentId: await documentIdOf(TITLE),
    locale: 'en',
  });

  // Closed until asked for: opening the edit view spends nothing.
  await panel.getByTestId('speech-listen-open').click();
  const select = panel.getByRole('combobox', { name: 'Paragraph' });
  await select.click();
  const options = await page.getByRole('option').allInnerTexts();
  expect(options).toEqual([
    '1. Narrated from the browser.',
    '2. Read aloud by the speech plugin.',
    '3. The first sentence is short. The second one tells a little…',
  ]);
  await page.getByRole('option', { name: /^3\. / }).click();
  const paragraph = 'The first sentence is short. The second one tells a little more about the test.';
  await expectText(panel.getByTestId('speech-listen'), `${paragraph.length} characters.`);

  await panel.getByTestId('speech-listen-play').click();
  await page.waitForFunction(
    () => ((document.querySelector('[data-testid="speech-listen-audio"]') as HTMLAudioElement | null)?.duration ?? 0) > 1
  );
  const sent = (await ttsRequests()).slice(before);
  expect(sent.map((r) => r.body)).toEqual([{ text: paragraph, voice_id: estimate.body.voiceId }]);
  await panel.getByTestId('speech-listen').scrollIntoViewIfNeeded();
  await shot('edit-listen');

  // Again: the server's cache answers, nothing more is generated.
  await panel.getByTestId('speech-listen-play').click();
  await page.waitForTimeout(500);
  expect((await ttsRequests()).length).toBe(before + 1);
});

it('an empty credit balance pauses the queue ("Paused for credits") until an editor resumes it', async () => {
  await stack.control('PUT', '/credits', { credits: 0 });
  const cm = contentManager(stack, ARTICLE);
  const { documentId } = await cm.create({
    title: PAUSED_TITLE,
    summary: 'Waits for credits.',
    body: blocks('Credits first, then words.'),
  });
  await cm.publish(documentId);
  await waitFor(async () => (await stack.admin('GET', '/speech/settings')).body?.queue?.paused === true, {
    timeoutMs: 30_000,
    what: 'the queue to pause',
  });

  await openList();
  await waitForBadge(listBadge(PAUSED_TITLE), ['paused']);
  await page.locator('tr', { hasText: PAUSED_TITLE }).getByText(PAUSED_TITLE, { exact: true }).click();
  const panel = page.getByTestId('speech-panel');
  await expectText(panel.getByTestId('speech-queue-paused'), 'Narrations are paused: the account needs');
  await shot('edit-paused');

  await stack.control('PUT', '/credits', { credits: 100_000 });
  await panel.getByRole('button', { name: 'Resume the queue' }).click();
  await waitForBadge(panel.getByTestId('speech-badge'), ['ready']);
  await expect(await panel.getByTestId('speech-queue-paused').count()).toBe(0);
});

it('speaks Arabic, right to left', async () => {
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'ar'));
  await page.goto(`${stack.url}/admin/settings/speech`);
  await page.getByRole('heading', { name: 'الكلام' }).waitFor();
  await page.getByText('اختبر الاتصال').waitFor();
  // Strapi's admin does not flip the page for Arabic; the plugin's own layout must survive it.
  await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
  await shot('settings-ar-rtl');
  // The rule of each type, in Arabic words.
  const noteRule = page.getByTestId('speech-type-rule-api::note.note');
  await noteRule.scrollIntoViewIfNeeded();
  await expectText(noteRule, 'يُحفظ مُدخل: هذا النوع بلا مسودة ونشر.');
  await shot('settings-types-ar-rtl');
  await openList();
  await narrationHeader('السرد').waitFor();
  await expect(await badgeKind(listBadge(TITLE))).toBe('ready');
  await expectText(listBadge(TITLE), 'جاهز');
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'en'));
});

it('produced no console errors and no failed plugin requests', () => {
  expect(problems).toEqual([]);
});

/* ------------------------------------------------------------------------------------------- */

const documentIds = new Map<string, string>();
async function documentIdOf(title: string): Promise<string> {
  const known = documentIds.get(title);
  if (known) return known;
  const { body } = await stack.admin(
    'GET',
    `/content-manager/collection-types/${ARTICLE}?filters[title][$eq]=${encodeURIComponent(title)}`
  );
  const documentId = body?.results?.[0]?.documentId;
  if (!documentId) throw new Error(`no article titled ${title}`);
  documentIds.set(title, documentId);
  return documentId;
}
