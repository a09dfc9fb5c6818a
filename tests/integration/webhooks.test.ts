import { EMULATOR_API_KEY, blocks, contentManager, startStack, waitFor, type Stack } from './harness';
import {
  longBody,
  narrationAudio,
  narrationRow,
  partRequests,
  partsSeconds,
  publishArticleIn,
  publishOneParagraphEdited,
  setNarrationMode,
  sleep,
  spokenText,
  submissionsFor,
  waitForNewNarration,
  waitForStatus,
} from './narration-helpers';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';

/**
 * `narration.ready`, `narration.failed` and `narration.verification_failed` through Strapi's own webhook runner, to a local
 * receiver standing in for a front end: exactly one event per completed narration and one per
 * final failure, never one per retry or per duplicate callback.
 */

const ARTICLE = 'api::article.article';
/** Long enough for a duplicate to arrive: the worker ticks every 200 ms and the runner posts at once. */
const QUIET_MS = 2_500;
jest.setTimeout(180_000);

let stack: Stack;
let receiver: WebhookReceiver;
let articles: ReturnType<typeof contentManager>;
let webhookId: number;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  stack = await startStack({
    env: {
      SPEECH_MAX_ATTEMPTS: '2',
      // In production Strapi refuses webhook URLs on local addresses (its `is-public-url` check);
      // the receiver here is on 127.0.0.1.
      NODE_ENV: 'development',
    },
  });
  articles = contentManager(stack, ARTICLE);
  const created = await stack.admin('POST', '/admin/webhooks', {
    name: 'Front end revalidation',
    url: receiver.url,
    headers: {},
    events: ['narration.ready', 'narration.failed'],
  });
  expect(created.status).toBe(201);
  webhookId = created.body.data.id;
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

async function publishArticle(title: string, text: string, locale = 'en') {
  const { documentId } = await articles.create({ title, summary: 'A short summary.', body: blocks(text) }, locale);
  await articles.publish(documentId, locale);
  return documentId;
}

/** Waits for `count` deliveries of `event` about `articleId`, then long enough to see any extra one. */
async function settledDeliveries(event: string, articleId: string, count: number) {
  await waitFor(async () => receiver.of(event, articleId).length >= count, { what: `${count} ${event} for ${articleId}` });
  await sleep(QUIET_MS);
  return receiver.of(event, articleId);
}

describe('narration.ready', () => {
  let englishId: string;

  it('comes once for each of two published articles, with the entry and the narration URLs', async () => {
    englishId = await publishArticle('Heard on the front end', 'A paragraph the front end will play.');
    const arabicId = await publishArticle('مقال مسموع', 'فقرة عربية يسمعها القارئ.', 'ar');
    await waitForStatus(stack, ARTICLE, englishId, 'completed', 'en');
    await waitForStatus(stack, ARTICLE, arabicId, 'completed', 'ar');

    for (const [documentId, locale] of [
      [englishId, 'en'],
      [arabicId, 'ar'],
    ]) {
      const articleId = `${documentId}-${locale}`;
      const deliveries = await settledDeliveries('narration.ready', articleId, 1);
      expect(deliveries).toHaveLength(1);
      const [{ header, body }] = deliveries;
      expect(header).toBe('narration.ready');
      expect(Number.isNaN(Date.parse(body.createdAt))).toBe(false);
      expect(body).toMatchObject({
        event: 'narration.ready',
        model: 'article',
        uid: ARTICLE,
        narration: {
          articleId,
          documentId,
          locale,
          contentType: ARTICLE,
          status: 'ready',
          audioUrl: `${stack.url}/api/speech/narrations/${articleId}/audio.mp3`,
          srtUrl: `${stack.url}/api/speech/narrations/${articleId}/subtitles.srt`,
          vttUrl: `${stack.url}/api/speech/narrations/${articleId}/subtitles.vtt`,
          voice: expect.any(String),
          error: null,
        },
      });
      expect(body.narration.durationSeconds).toBeGreaterThan(0);
      // The URLs answer, as a front end revalidating on this event would fetch them.
      for (const url of [body.narration.audioUrl, body.narration.srtUrl, body.narration.vttUrl]) {
        expect({ url, status: (await fetch(url)).status }).toEqual({ url, status: 200 });
      }
      // Nothing internal leaves the server.
      const text = JSON.stringify(body);
      for (const secret of ['leaseOwner', 'fingerprint', 'pendingResult', EMULATOR_API_KEY]) expect(text).not.toContain(secret);
    }
  });

  it('does not come again for an unchanged republish, and comes once more for a regenerate', async () => {
    const articleId = `${englishId}-en`;
    await articles.publish(englishId, 'en');
    await sleep(QUIET_MS);
    expect(receiver.of('narration.ready', articleId)).toHaveLength(1);

    const before = await narrationRow(stack, ARTICLE, englishId, 'en');
    const regenerated = await stack.admin('POST', '/speech/narrations/regenerate', {
      contentType: ARTICLE,
      documentId: englishId,
      locale: 'en',
    });
    expect(regenerated.body.queued).toBe(true);
    await waitForNewNarration(stack, ARTICLE, englishId, 'en', before.completedAt);
    const deliveries = await settledDeliveries('narration.ready', articleId, 2);
    expect(deliveries).toHaveLength(2);
    expect(deliveries[1].body.narration.status).toBe('ready');
    expect(receiver.of('narration.failed', articleId)).toHaveLength(0);
  });

  it('comes once when the service delivers the same callback ten times at once', async () => {
    const { documentId } = await articles.create({ title: 'Ten callbacks', summary: 'Delivered ten times concurrently.' }, 'en');
    const articleId = `${documentId}-en`;
    await stack.control('POST', '/inject', { kind: 'duplicateCallback', articleId, times: 10, concurrent: true });
    await articles.publish(documentId, 'en');
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    await waitFor(
      async () => {
        const { callbacks } = await stack.control<any>('GET', `/callbacks?articleId=${articleId}`);
        return callbacks.length >= 10 && callbacks.every((callback: any) => callback.outcome !== 'pending');
      },
      { what: 'all ten deliveries of the callback' }
    );
    expect(await settledDeliveries('narration.ready', articleId, 1)).toHaveLength(1);
  });
});

describe('narration.failed', () => {
  it('comes once for a narration that fails for good, after its retries, with the reason the admin shows', async () => {
    const { documentId } = await articles.create({ title: 'Never audio', summary: 'Every generation produces no audio.' }, 'en');
    const articleId = `${documentId}-en`;
    await stack.control('POST', '/inject', { kind: 'noAudio', articleId, count: 5 });
    await articles.publish(documentId, 'en');
    const row = await waitForStatus(stack, ARTICLE, documentId, 'failed', 'en');
    const deliveries = await settledDeliveries('narration.failed', articleId, 1);
    // Two attempts (SPEECH_MAX_ATTEMPTS), each null result confirmed by a free request first; one event.
    expect((await submissionsFor(stack, articleId)).map((s) => s.body.postData.regenerate)).toEqual([false, false, true, false]);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].header).toBe('narration.failed');
    expect(deliveries[0].body).toMatchObject({
      event: 'narration.failed',
      model: 'article',
      uid: ARTICLE,
      narration: {
        articleId,
        documentId,
        locale: 'en',
        status: 'failed',
        audioUrl: null,
        error: { code: 'NO_AUDIO', message: row.lastError },
      },
    });
    expect(row.lastError).toMatch(/no audio/i);
    expect(receiver.of('narration.ready', articleId)).toHaveLength(0);
  });

  it('does not come for a failure that is retried and then succeeds', async () => {
    const { documentId } = await articles.create({ title: 'Null once', summary: 'The first generation produces no audio.' }, 'en');
    const articleId = `${documentId}-en`;
    await stack.control('POST', '/inject', { kind: 'noAudio', articleId, count: 1 });
    await articles.publish(documentId, 'en');
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    // The null result, its free confirmation, the paid retry.
    expect(await submissionsFor(stack, articleId)).toHaveLength(3);
    expect(await settledDeliveries('narration.ready', articleId, 1)).toHaveLength(1);
    expect(receiver.of('narration.failed', articleId)).toHaveLength(0);
  });
});

describe('a segmented narration', () => {
  // Parts of at most 200 characters: each paragraph of `longBody` is a part of its own.
  beforeAll(async () => {
    await setNarrationMode(stack, ARTICLE, 'segmented', 200);
  });
  afterAll(async () => {
    await setNarrationMode(stack, ARTICLE, 'whole');
  });

  let documentId: string;
  let body: string[];

  /** A delivery's narration is the joined one: its files' URLs, and the duration and length of the MP3 they serve, whose SRT reads every paragraph. */
  async function expectJoined(narration: any, articleId: string) {
    expect(narration).toMatchObject({
      articleId,
      documentId,
      locale: 'en',
      status: 'ready',
      audioUrl: `${stack.url}/api/speech/narrations/${articleId}/audio.mp3`,
      srtUrl: `${stack.url}/api/speech/narrations/${articleId}/subtitles.srt`,
      vttUrl: `${stack.url}/api/speech/narrations/${articleId}/subtitles.vtt`,
      error: null,
    });
    const { mp3, seconds } = await narrationAudio(stack, articleId);
    expect(narration.audioBytes).toBe(mp3.length);
    expect(narration.durationSeconds).toBeCloseTo(seconds, 6);
    const srt = spokenText(await (await fetch(narration.srtUrl)).text());
    for (const paragraph of body) expect(srt).toContain(paragraph);
    return seconds;
  }

  /** No delivery names a part, nor carries a part's key. */
  async function expectNoPartEvents(articleId: string) {
    const keys = (await partRequests(stack, articleId)).map((request) => request.body.postData.articleId as string);
    expect(keys.length).toBeGreaterThan(0);
    const named = receiver.deliveries.map((delivery) => String(delivery.body?.narration?.articleId));
    expect(named.filter((name) => name !== articleId && name.startsWith(articleId))).toEqual([]);
    const text = JSON.stringify(receiver.deliveries);
    expect(keys.filter((key) => text.includes(key))).toEqual([]);
  }

  it('comes once, for the article, with the joined files: their URLs, the whole duration and byte length; never for a part', async () => {
    body = longBody(6);
    documentId = await publishArticleIn(stack, ARTICLE, 'en', { title: 'Heard in parts', body: blocks(...body) });
    const articleId = `${documentId}-en`;
    const row = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en', 120_000);
    expect(row.parts.total).toBeGreaterThanOrEqual(6);
    const deliveries = await settledDeliveries('narration.ready', articleId, 1);
    expect(deliveries).toHaveLength(1);
    const seconds = await expectJoined(deliveries[0].body.narration, articleId);
    // Every part's audio, one after the other (within one frame: 1152 samples at 22.05 kHz).
    const parts = await partsSeconds(stack, await partRequests(stack, articleId));
    expect(Math.abs(seconds - parts)).toBeLessThanOrEqual(1152 / 22050);
    await expectNoPartEvents(articleId);
  });

  it('an edit of one paragraph: one more event, with the new joined file; none for the part', async () => {
    const articleId = `${documentId}-en`;
    const partsBefore = (await partRequests(stack, articleId)).length;
    ({ body } = await publishOneParagraphEdited(stack, ARTICLE, documentId, 'en', body, 2));
    expect((await partRequests(stack, articleId)).length).toBe(partsBefore + 1);
    const deliveries = await settledDeliveries('narration.ready', articleId, 2);
    expect(deliveries).toHaveLength(2);
    await expectJoined(deliveries[1].body.narration, articleId);
    expect(deliveries[1].body.narration.audioBytes).not.toBe(deliveries[0].body.narration.audioBytes);
    await expectNoPartEvents(articleId);
    expect(receiver.of('narration.failed', articleId)).toHaveLength(0);
  });

  it('a part that fails for good: one narration.failed, for the article, naming the part; none for the part', async () => {
    // Every generation produces no audio: each part fails its two attempts (SPEECH_MAX_ATTEMPTS).
    await stack.control('POST', '/inject', { kind: 'noAudio', count: 100 });
    let articleId: string;
    try {
      const failing = await publishArticleIn(stack, ARTICLE, 'en', {
        title: 'Never heard in parts',
        body: blocks(...longBody(4, 'silent')),
      });
      articleId = `${failing}-en`;
      const row = await waitForStatus(stack, ARTICLE, failing, 'failed', 'en', 60_000);
      expect(row.lastError).toMatch(/^Part \d+ of \d+: /);
      const deliveries = await settledDeliveries('narration.failed', articleId, 1);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0].body.narration).toMatchObject({
        articleId,
        documentId: failing,
        status: 'failed',
        audioUrl: null,
        error: { code: row.lastErrorCode, message: row.lastError },
      });
    } finally {
      await stack.control('DELETE', '/inject');
    }
    await expectNoPartEvents(articleId);
    expect(receiver.of('narration.ready', articleId)).toHaveLength(0);
  });
});

describe('narration.verification_failed', () => {
  it('comes once for a check that heard something else than the text sent, with the places, the narration still ready', async () => {
    const settings = (await stack.admin('GET', '/speech/settings')).body.settings;
    const saved = await stack.admin('PUT', '/speech/settings', {
      contentTypes: { [ARTICLE]: { ...settings.contentTypes[ARTICLE], narrationMode: 'whole', verify: true } },
    });
    expect(saved.status).toBe(200);
    const subscribed = await stack.admin('PUT', `/admin/webhooks/${webhookId}`, {
      name: 'Front end revalidation',
      url: receiver.url,
      headers: {},
      events: ['narration.ready', 'narration.failed', 'narration.verification_failed'],
    });
    expect(subscribed.status).toBe(200);
    // Sentences 0 and 1 are the title and the summary: the body's second one is lost from the audio.
    await stack.control('POST', '/inject', { kind: 'dropSentence', sentence: 3 });
    const documentId = await publishArticle('Checked by listening', 'The first sentence stays. The second goes missing. The third stays.');
    const articleId = `${documentId}-en`;
    const deliveries = await waitFor(
      async () => {
        const found = receiver.of('narration.verification_failed', articleId);
        return found.length > 0 ? found : null;
      },
      { timeoutMs: 60_000, what: 'narration.verification_failed' }
    );
    await sleep(QUIET_MS);
    expect(receiver.of('narration.verification_failed', articleId)).toHaveLength(1);
    expect(deliveries[0].body).toMatchObject({
      event: 'narration.verification_failed',
      uid: ARTICLE,
      narration: { articleId, status: 'ready', error: null },
      verification: { status: 'mismatch', placeCount: 1, places: [{ expected: 'The second goes missing', heard: '' }] },
    });
    expect(receiver.of('narration.ready', articleId)).toHaveLength(1);
  });
});

it('delivered nothing else: every delivery is one of the events above, its header naming it', async () => {
  await sleep(QUIET_MS);
  const summary = receiver.deliveries.map((delivery) => `${delivery.body?.event}:${delivery.body?.narration?.articleId}`);
  // 2 first narrations + 1 regenerate + 1 (ten callbacks) + 1 after a retry + 2 of the segmented article + 1 checked = 8 ready;
  // 1 failed whole, 1 failed in parts; 1 check that heard something else.
  expect(summary.filter((entry) => entry.startsWith('narration.ready:'))).toHaveLength(8);
  expect(summary.filter((entry) => entry.startsWith('narration.failed:'))).toHaveLength(2);
  expect(summary.filter((entry) => entry.startsWith('narration.verification_failed:'))).toHaveLength(1);
  expect(receiver.deliveries).toHaveLength(11);
  expect(receiver.deliveries.every((delivery) => delivery.header === delivery.body?.event)).toBe(true);
});
