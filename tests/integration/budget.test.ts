import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { blocks, contentManager, createAdmin, jsonFetch, startStack, waitFor, type Stack } from './harness';
import {
  emulatorRequests,
  longBody,
  narrationRow,
  partRequests,
  publicNarration,
  setNarrationMode,
  sleep,
  submissionsFor,
  waitForStatus,
} from './narration-helpers';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';

/**
 * The monthly credit budget (issue 24) in a real Strapi against the emulator: what would take the
 * month over it is not sent (the emulator sees nothing) and says why; raising the budget sends it
 * once; an editor with the settings permission lets one through; previews are refused over it;
 * `speech.budget.reached` goes out once; and a change of month releases what waits. The month
 * turns by time injected into Strapi's process (libfaketime, its offset file rewritten by the
 * test), not waited for: Strapi starts a quarter of an hour before a month ends and is moved a
 * minute past it, so the turn is the same short step whatever today's date.
 */

const ARTICLE = 'api::article.article';
const FAKETIME_LIBRARY = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1',
].find((candidate) => existsSync(candidate));
/** How long before the month's end Strapi's clock starts: more than the tests before the turn take. */
const LEAD_MS = 15 * 60_000;
jest.setTimeout(300_000);

/**
 * Seconds an outer libfaketime run (FAKETIME=+N, as `npm run calendar-boundaries` sets it) puts
 * this process's clock ahead of the machine's: Strapi's offset file counts from the machine's.
 */
function outerClockOffsetSeconds(): number {
  const spec = process.env.FAKETIME?.trim();
  if (!spec) return 0;
  const match = /^([+-]\d+)s?$/.exec(spec);
  if (!match) throw new Error(`FAKETIME=${spec}: this test composes only with a relative offset in seconds (+N or -N)`);
  return Number(match[1]);
}

/** Sets Strapi's wall clock to an instant of this process's clock. */
function setStrapiClock(at: number) {
  const seconds = Math.round((at - Date.now()) / 1000) + outerClockOffsetSeconds();
  writeFileSync(clockFile, `${seconds < 0 ? '' : '+'}${seconds}\n`);
}

/** The first instant of the UTC month after the one `at` is in (the budget's zone). */
const nextMonthStart = (at: number) => {
  const day = new Date(at);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1);
};

let stack: Stack;
let articles: ReturnType<typeof contentManager>;
let receiver: WebhookReceiver;
let clockDir: string;
let clockFile: string;

beforeAll(async () => {
  if (!FAKETIME_LIBRARY) throw new Error('libfaketime is not installed (apt-get install faketime): the month turn is tested with it');
  clockDir = mkdtempSync(path.join(os.tmpdir(), 'speech-clock-'));
  clockFile = path.join(clockDir, 'offset');
  setStrapiClock(nextMonthStart(Date.now()) - LEAD_MS);
  receiver = await startWebhookReceiver();
  stack = await startStack({
    env: {
      // Strapi's wall clock only: its timers (monotonic) run at their own pace.
      LD_PRELOAD: FAKETIME_LIBRARY,
      FAKETIME_TIMESTAMP_FILE: clockFile,
      FAKETIME_CACHE_DURATION: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
      // An outer run's FAKETIME would win over the file: the file carries its offset too.
      FAKETIME: undefined,
      // Webhooks to a receiver on 127.0.0.1 (refused by Strapi in production).
      NODE_ENV: 'development',
    },
  });
  articles = contentManager(stack, ARTICLE);
  const created = await stack.admin('POST', '/admin/webhooks', {
    name: 'Budget',
    url: receiver.url,
    headers: {},
    events: ['speech.budget.reached'],
  });
  expect(created.status).toBe(201);
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  rmSync(clockDir, { recursive: true, force: true });
});

async function publish(title: string, text: string) {
  const created = await articles.create({ title, summary: text, body: blocks(`${text} ${title} goes on for a while.`) }, 'en');
  await articles.publish(created.documentId, 'en');
  return created.documentId;
}

async function usage() {
  const { status, body } = await stack.admin('GET', '/speech/usage');
  expect(status).toBe(200);
  return body;
}

async function setBudget(budget: Record<string, unknown>) {
  const { status, body } = await stack.admin('PUT', '/speech/settings', { budget });
  expect(status).toBe(200);
  return body.settings.budget;
}

async function waitsForBudget(documentId: string) {
  return waitFor(
    async () => {
      const row = await narrationRow(stack, ARTICLE, documentId, 'en');
      return row?.status === 'queued' && row.lastErrorCode === 'BUDGET_REACHED' ? row : null;
    },
    { timeoutMs: 30_000, what: `${documentId} to wait for the budget` }
  );
}

describe('the monthly budget', () => {
  let spentFirst: number;
  let held: string;
  let heldAlso: string;

  it('holds an article that would take the month over it: nothing is sent, and its row says why', async () => {
    const first = await publish('Budget first', 'The first article of the month fits in the budget.');
    await waitForStatus(stack, ARTICLE, first, 'completed', 'en');
    spentFirst = (await usage()).monthToDate.credits;
    expect(spentFirst).toBeGreaterThan(0);
    expect(await setBudget({ monthlyCredits: spentFirst + 10 })).toEqual({
      monthlyCredits: spentFirst + 10,
      timeZone: 'UTC',
      contentTypes: {},
    });

    held = await publish('Budget second', 'A second article that the month cannot pay for any more.');
    heldAlso = await publish('Budget third', 'A third article, also over the budget.');
    const row = await waitsForBudget(held);
    await waitsForBudget(heldAlso);
    expect(row.lastError).toMatch(/^Monthly budget reached: \d[\d,]* credits would take the site's month to [\d,]+ of [\d,]+/);
    await sleep(1_000);
    expect(await submissionsFor(stack, `${held}-en`)).toHaveLength(0);
    expect(await submissionsFor(stack, `${heldAlso}-en`)).toHaveLength(0);
    const view = await usage();
    expect(view.monthToDate.credits).toBe(spentFirst);
    expect(view.budget).toMatchObject({ monthlyCredits: spentFirst + 10, remaining: 10 });
    expect(view.waiting.articles).toBe(2);
    expect(view.waiting.credits).toBe(row.credits + (await narrationRow(stack, ARTICLE, heldAlso, 'en')).credits);
    // Announced once for the month, though two articles wait.
    await waitFor(async () => receiver.deliveries.length >= 1, { what: 'speech.budget.reached' });
    await sleep(500);
    expect(receiver.deliveries).toHaveLength(1);
    expect(receiver.deliveries[0].header).toBe('speech.budget.reached');
    expect(receiver.deliveries[0].body).toMatchObject({
      event: 'speech.budget.reached',
      limit: 'site',
      monthlyCredits: spentFirst + 10,
      spent: spentFirst,
    });
  });

  it('raising the budget sends what now fits, once, and keeps holding what does not', async () => {
    const heldCredits = (await narrationRow(stack, ARTICLE, held, 'en')).credits as number;
    await setBudget({ monthlyCredits: spentFirst + heldCredits + 5 });
    await waitForStatus(stack, ARTICLE, held, 'completed', 'en');
    expect(await submissionsFor(stack, `${held}-en`)).toHaveLength(1);
    await waitsForBudget(heldAlso);
    expect(await submissionsFor(stack, `${heldAlso}-en`)).toHaveLength(0);
    expect((await usage()).monthToDate.credits).toBe(spentFirst + heldCredits);
  });

  it('lets one article through for a role with the settings permission only', async () => {
    const role = await stack.admin('POST', '/admin/roles', { name: 'Budget reader', description: 'Reads the speech settings' });
    const reader = await createAdmin(stack, 'budget-reader@example.com', role.body.data.id);
    const grant = await stack.admin('PUT', `/admin/roles/${role.body.data.id}/permissions`, {
      permissions: [{ action: 'plugin::speech.settings.read', subject: null, properties: {}, conditions: [] }],
    });
    expect(grant.status).toBe(200);
    const target = { contentType: ARTICLE, documentId: heldAlso, locale: 'en' };
    expect((await reader.call('GET', '/speech/usage')).status).toBe(200);
    expect((await reader.call('POST', '/speech/narrations/let-through', target)).status).toBe(403);
    expect((await reader.call('PUT', '/speech/settings', { budget: { monthlyCredits: null } })).status).toBe(403);
    expect((await stack.admin('GET', '/speech/settings')).body.settings.budget.monthlyCredits).not.toBeNull();
    // The settings permissions without the Content Manager's read on the article: refused too.
    const keeperRole = await stack.admin('POST', '/admin/roles', { name: 'Budget keeper', description: 'Speech settings, no content' });
    const keeper = await createAdmin(stack, 'budget-keeper@example.com', keeperRole.body.data.id);
    const keeperGrant = await stack.admin('PUT', `/admin/roles/${keeperRole.body.data.id}/permissions`, {
      permissions: ['settings.read', 'settings.update'].map((uid) => ({
        action: `plugin::speech.${uid}`,
        subject: null,
        properties: {},
        conditions: [],
      })),
    });
    expect(keeperGrant.status).toBe(200);
    expect((await keeper.call('POST', '/speech/narrations/let-through', target)).status).toBe(403);
    await sleep(800);
    expect(await submissionsFor(stack, `${heldAlso}-en`)).toHaveLength(0);
    expect((await narrationRow(stack, ARTICLE, heldAlso, 'en')).lastErrorCode).toBe('BUDGET_REACHED');

    const let_ = await stack.admin('POST', '/speech/narrations/let-through', target);
    expect(let_).toEqual({ status: 200, body: { articleId: `${heldAlso}-en`, released: true } });
    await waitForStatus(stack, ARTICLE, heldAlso, 'completed', 'en');
    expect(await submissionsFor(stack, `${heldAlso}-en`)).toHaveLength(1);
    expect((await usage()).waiting).toEqual({ articles: 0, credits: 0 });
  });

  it('a role without the settings permissions reads no ledger', async () => {
    const role = await stack.admin('POST', '/admin/roles', { name: 'No speech settings', description: 'Edits only' });
    const editor = await createAdmin(stack, 'budget-editor@example.com', role.body.data.id);
    expect((await editor.call('GET', '/speech/usage')).status).toBe(403);
    const csv = await stack.request('/speech/usage/ledger.csv', { headers: { authorization: `Bearer ${editor.token}` } });
    expect(csv.status).toBe(403);
    expect((await editor.call('PUT', '/speech/settings', { budget: { monthlyCredits: 1 } })).status).toBe(403);
  });

  it('refuses a voice preview over the budget with 402, and sends nothing', async () => {
    const before = (await emulatorRequests(stack, '/api/v1/tts/generate')).length;
    const response = await stack.request('/speech/tts/preview', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
      body: JSON.stringify({ voiceId: 'en-female-1', text: 'A preview the month has no credits left for.' }),
    });
    expect(response.status).toBe(402);
    const { error } = (await response.json()) as any;
    expect(error).toMatchObject({ name: 'BudgetReachedError', details: { code: 'BUDGET_REACHED' } });
    expect(error.message).toMatch(/^Monthly budget reached/);
    expect(await emulatorRequests(stack, '/api/v1/tts/generate')).toHaveLength(before);
  });

  it('an article narrated in parts: the parts that fit go, the rest wait, and the article says why', async () => {
    await setNarrationMode(stack, ARTICLE, 'segmented', 400);
    try {
      const spent = (await usage()).monthToDate.credits as number;
      await setBudget({ monthlyCredits: spent + 900 });
      const created = await articles.create({ title: 'Budget long read', summary: 'Long.', body: blocks(...longBody(10)) }, 'en');
      const articleId = `${created.documentId}-en`;
      await articles.publish(created.documentId, 'en');
      const row = await waitFor(
        async () => {
          const current = await narrationRow(stack, ARTICLE, created.documentId, 'en');
          return current?.status === 'awaiting_parts' && current.lastErrorCode === 'BUDGET_REACHED' ? current : null;
        },
        { timeoutMs: 30_000, what: 'the long read to wait for the budget' }
      );
      expect(row.lastError).toMatch(/^Monthly budget reached/);
      await sleep(1_500);
      const sent = (await partRequests(stack, articleId)).filter((request) => request.status === 202);
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.length).toBeLessThan(row.parts.total);
      const view = await usage();
      expect(view.monthToDate.credits).toBeLessThanOrEqual(spent + 900);
      expect(view.waiting.articles).toBe(1);
      // Raised: the waiting parts go, each once, and the article is joined.
      await setBudget({ monthlyCredits: null });
      await waitForStatus(stack, ARTICLE, created.documentId, 'completed', 'en', 90_000);
      const accepted = (await partRequests(stack, articleId)).filter((request) => request.status === 202);
      expect(new Set(accepted.map((request) => request.body.postData.articleId)).size).toBe(accepted.length);
      expect(accepted).toHaveLength(row.parts.total);
      expect((await narrationRow(stack, ARTICLE, created.documentId, 'en')).lastErrorCode).toBeNull();
    } finally {
      await setNarrationMode(stack, ARTICLE, 'whole');
    }
  });

  it('releases what waits when the month turns (time injected)', async () => {
    // Over this month's budget, within a month's: the new month sends it.
    await setBudget({ monthlyCredits: (await usage()).monthToDate.credits + 1 });
    const waiting = await publish('Budget next month', 'An article that waits for the next month.');
    const { credits } = await waitsForBudget(waiting);
    await setBudget({ monthlyCredits: Math.max((await usage()).monthToDate.credits + 1, credits) });
    await waitsForBudget(waiting);
    const thisMonth = (await usage()).month as string;
    // Move Strapi's clock to a minute into the next month, UTC (the budget's zone).
    const [year, month] = thisMonth.split('-').map(Number);
    setStrapiClock(Date.UTC(year, month, 1, 0, 1, 0));
    // Strapi's admin sessions do not survive a jump of their clock (and its login is rate limited):
    // the wait reads the emulator and the public narration route, then one login reads the usage.
    await waitFor(async () => (await submissionsFor(stack, `${waiting}-en`)).length === 1, {
      timeoutMs: 30_000,
      what: 'the waiting article sent in the new month',
    }).catch((error) => {
      throw new Error(
        `${error.message}\n${stack
          .logs()
          .split('\n')
          .filter((line) => !line.includes('http'))
          .slice(-40)
          .join('\n')}`
      );
    });
    await waitFor(async () => (await publicNarration(stack, `${waiting}-en`)).status === 200, {
      timeoutMs: 30_000,
      what: 'its narration stored',
    });
    await sleep(500);
    expect(await submissionsFor(stack, `${waiting}-en`)).toHaveLength(1);
    const login = await jsonFetch(`${stack.url}/admin/login`, 'POST', { email: 'editor@example.com', password: 'Editor-Passw0rd!' });
    expect(login.status).toBe(200);
    const auth = { authorization: `Bearer ${login.body.data.token}` };
    const { body: view } = await jsonFetch(`${stack.url}/speech/usage`, 'GET', undefined, auth);
    const { body: rows } = await jsonFetch(
      `${stack.url}/speech/narrations/document/${waiting}?contentType=${ARTICLE}&locale=en`,
      'GET',
      undefined,
      auth
    );
    expect(view.month).not.toBe(thisMonth);
    expect(view.monthToDate.credits).toBe(rows.data[0].credits);
    // The old month's days are still in the chart.
    expect(view.days.reduce((sum: number, day: any) => sum + day.credits, 0)).toBeGreaterThan(view.monthToDate.credits);
  });
});
