import { blocks, contentManager, startStack, waitFor, type Stack } from './harness';
import {
  adminNarration,
  emulatorRequests,
  ledgerEntries,
  mediaFiles,
  narrationRow,
  publicNarration,
  signCallback,
  sleep,
  submissionsFor,
  waitForStatus,
} from './narration-helpers';

/**
 * The narration pipeline on a real Strapi against the emulator: publish -> one submission ->
 * signed callback -> MP3, SRT and VTT in the Media Library and on the public routes.
 */

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';
jest.setTimeout(180_000);

let stack: Stack;
let articles: ReturnType<typeof contentManager>;
let pages: ReturnType<typeof contentManager>;

beforeAll(async () => {
  stack = await startStack({ env: { SPEECH_MAX_ATTEMPTS: '3', SPEECH_NO_AUDIO_GRACE_MS: '3000' } });
  articles = contentManager(stack, ARTICLE);
  pages = contentManager(stack, PAGE);
});

afterAll(async () => {
  await stack?.stop();
});

async function publishArticle(title: string, text: string, locale = 'en') {
  const created = await articles.create({ title, summary: 'A short summary.', body: blocks(text) }, locale);
  await articles.publish(created.documentId, locale);
  return created.documentId;
}

describe('narration on publish', () => {
  let documentId: string;
  let articleId: string;

  it('submits a published article once, with the contract body, and stores the result', async () => {
    documentId = await publishArticle('Narrated on publish', 'The first paragraph of a narrated article.');
    articleId = `${documentId}-en`;
    const row = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    expect(row.articleId).toBe(articleId);

    const submissions = await submissionsFor(stack, articleId);
    expect(submissions).toHaveLength(1);
    const { body } = submissions[0];
    expect(body.text).toContain('Narrated on publish.');
    expect(body.text).toContain('The first paragraph of a narrated article.');
    expect(body.postData).toEqual({
      name: 'Narrated on publish',
      articleId,
      voiceId: 'en-female-1',
      callbackURL: `${stack.url}/api/speech/callback`,
      preprocessType: '0',
      regenerate: false,
    });
    expect(row.characters).toBe([...body.text].length);
    expect(row.credits).toBe(row.characters);
  });

  it('serves the stored files on the public routes, with the right content types', async () => {
    const narration = await publicNarration(stack, articleId);
    expect(narration.status).toBe(200);
    expect(narration.body).toMatchObject({ articleId, documentId, locale: 'en', contentType: ARTICLE, status: 'ready' });

    const audio = await fetch(narration.body.audioUrl);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toMatch(/audio\/mpeg/);
    const bytes = Buffer.from(await audio.arrayBuffer());
    const isMp3 = bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0);
    expect(isMp3).toBe(true);
    expect(bytes.length).toBeGreaterThan(1000);

    const srt = await fetch(narration.body.srtUrl);
    expect(srt.status).toBe(200);
    const srtText = await srt.text();
    expect(srtText).toMatch(/^\uFEFF?1\r?\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}/);

    const vtt = await fetch(narration.body.vttUrl);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toMatch(/text\/vtt/);
    expect(await vtt.text()).toMatch(/^WEBVTT\n\n1\n\d\d:\d\d:\d\d\.\d{3} --> /);

    const files = await mediaFiles(stack, `narration-${articleId}`);
    expect(files.map((file) => file.name).sort()).toEqual([
      `narration-${articleId}.mp3`,
      `narration-${articleId}.srt`,
      `narration-${articleId}.vtt`,
    ]);
  });

  it('does not submit an unchanged republish (no charge)', async () => {
    const before = (await emulatorRequests(stack)).length;
    await articles.publish(documentId, 'en');
    await sleep(1500);
    expect((await emulatorRequests(stack)).length).toBe(before);
    expect((await narrationRow(stack, ARTICLE, documentId, 'en')).status).toBe('completed');
  });

  it('resubmits an edited article with regenerate true and replaces the old files', async () => {
    const oldFiles = await mediaFiles(stack, `narration-${articleId}`);
    await articles.update(
      documentId,
      { title: 'Narrated on publish', summary: 'An edited summary.', body: blocks('The edited paragraph.') },
      'en'
    );
    await articles.publish(documentId, 'en');
    await waitFor(async () => (await submissionsFor(stack, articleId)).length === 2, { what: 'a second submission' });
    const row = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    const submissions = await submissionsFor(stack, articleId);
    expect(submissions[1].body.postData.regenerate).toBe(true);
    expect(submissions[1].body.text).toContain('The edited paragraph.');

    // The replaced files are deleted right after the new ones are linked.
    const newFiles = await waitFor(
      async () => {
        const current = await mediaFiles(stack, `narration-${articleId}`);
        return current.length === 3 ? current : null;
      },
      { what: 'the replaced files to be deleted', timeoutMs: 10_000 }
    );
    expect(newFiles.map((f) => f.id).some((id) => oldFiles.some((old) => old.id === id))).toBe(false);
    expect(row.audio.id).toBe(newFiles.find((f) => f.name.endsWith('.mp3'))!.id);
  });

  it('narrates each locale separately, under its own articleId', async () => {
    await articles.update(documentId, { title: 'مقال مسموع', summary: 'ملخص قصير.', body: blocks('هذه فقرة عربية للتجربة.') }, 'ar');
    await articles.publish(documentId, 'ar');
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'ar');
    const arabic = await submissionsFor(stack, `${documentId}-ar`);
    expect(arabic).toHaveLength(1);
    expect(arabic[0].body.text).toContain('هذه فقرة عربية للتجربة.');
    expect(arabic[0].body.postData.regenerate).toBe(false);
    expect((await submissionsFor(stack, `${documentId}-en`)).length).toBe(2);
  });

  it('refuses forged, truncated and wrongly keyed signatures with 401 and changes nothing', async () => {
    const before = await narrationRow(stack, ARTICLE, documentId, 'en');
    const audioFile = 'http://127.0.0.1:1/forged.mp3';
    const srtFile = 'http://127.0.0.1:1/forged.srt';
    const valid = signCallback(articleId, audioFile, srtFile);
    const attempts = [
      'f'.repeat(64),
      valid.slice(0, 40),
      signCallback(articleId, audioFile, srtFile, 'another-company-key'),
      valid.toUpperCase(),
      '',
    ];
    for (const signature of attempts) {
      const response = await stack.request('/api/speech/callback', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ articleId, response: { audioFile, srtFile, signature } }),
      });
      expect([400, 401]).toContain(response.status);
      if (signature) expect(response.status).toBe(401);
    }
    const after = await narrationRow(stack, ARTICLE, documentId, 'en');
    expect(after).toEqual(before);
  });

  it('answers 400 to a malformed callback body', async () => {
    for (const body of [
      'not json',
      JSON.stringify({ articleId: 5 }),
      JSON.stringify({ articleId: 'x', response: { audioFile: 'not a url', srtFile: null, signature: 'ab' } }),
    ]) {
      const response = await stack.request('/api/speech/callback', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
    }
  });

  it('accepts a validly signed callback for an unknown article without changing anything', async () => {
    const response = await stack.request('/api/speech/callback', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        articleId: 'no-such-article',
        response: { audioFile: null, srtFile: null, signature: signCallback('no-such-article', null, null) },
      }),
    });
    expect(response.status).toBe(200);
    expect((await publicNarration(stack, 'no-such-article')).status).toBe(404);
  });

  it('keeps unpublished content off the public routes', async () => {
    await articles.unpublish(documentId, 'ar');
    expect((await publicNarration(stack, `${documentId}-ar`)).status).toBe(404);
    expect((await publicNarration(stack, `${documentId}-en`)).status).toBe(200);
  });
});

describe('other triggers', () => {
  it('narrates on REST auto-publish (POST /api/articles)', async () => {
    const token = await stack.admin('POST', '/admin/api-tokens', { name: 'rest-test', type: 'full-access', lifespan: null });
    expect(token.status).toBe(201);
    const response = await stack.request('/api/articles', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.body.data.accessKey}` },
      body: JSON.stringify({ data: { title: 'Created over REST', summary: 'Published at once by the REST API.' } }),
    });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as any;
    await waitForStatus(stack, ARTICLE, data.documentId, 'completed', 'en');
    expect(await submissionsFor(stack, `${data.documentId}-en`)).toHaveLength(1);
  });

  it('narrates a type without draft & publish on save, and not again when saved unchanged', async () => {
    const page = await pages.create({ title: 'About us', content: '## Who we are\n\nA *small* team that **narrates** articles.' });
    await waitForStatus(stack, PAGE, page.documentId, 'completed');
    const submissions = await submissionsFor(stack, page.documentId);
    expect(submissions).toHaveLength(1);
    expect(submissions[0].body.text).toBe('About us.\n\nWho we are.\n\nA small team that narrates articles.');
    await pages.update(page.documentId, { title: 'About us', content: '## Who we are\n\nA *small* team that **narrates** articles.' });
    await sleep(1200);
    expect(await submissionsFor(stack, page.documentId)).toHaveLength(1);
  });

  it('does not narrate a draft', async () => {
    const draft = await articles.create({ title: 'Only a draft', summary: 'Never published.' }, 'en');
    await sleep(1200);
    expect(await submissionsFor(stack, `${draft.documentId}-en`)).toHaveLength(0);
    expect(await narrationRow(stack, ARTICLE, draft.documentId, 'en')).toBeNull();
  });

  it('deleting a document removes its narration and files', async () => {
    const documentId = await publishArticle('To be deleted', 'This article will be deleted.');
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    expect(await mediaFiles(stack, `narration-${documentId}-en`)).toHaveLength(3);
    await articles.remove(documentId, 'en');
    await waitFor(async () => (await narrationRow(stack, ARTICLE, documentId, 'en')) === null, { what: 'the narration to be removed' });
    await waitFor(async () => (await mediaFiles(stack, `narration-${documentId}-en`)).length === 0, {
      what: 'its files to be removed',
      timeoutMs: 10_000,
    });
  });
});

describe('callbacks that are failures, duplicates or replays', () => {
  it('resubmits a null result with regenerate true, once a free request confirmed it', async () => {
    const documentId = (await articles.create({ title: 'Null once', summary: 'The first generation produces no audio.' }, 'en')).documentId;
    await stack.control('POST', '/inject', { kind: 'noAudio', articleId: `${documentId}-en`, count: 1 });
    await articles.publish(documentId, 'en');
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    const submissions = await submissionsFor(stack, `${documentId}-en`);
    // The second asks again without regenerate (the service re-delivers its empty result, free).
    expect(submissions.map((s) => s.body.postData.regenerate)).toEqual([false, false, true]);
  });

  it('pays for one retry of a version that came back empty: empty again, it fails with a reason an editor can read', async () => {
    const documentId = (await articles.create({ title: 'Never audio', summary: 'Every generation produces no audio.' }, 'en')).documentId;
    await stack.control('POST', '/inject', { kind: 'noAudio', articleId: `${documentId}-en`, count: 5 });
    await articles.publish(documentId, 'en');
    const row = await waitForStatus(stack, ARTICLE, documentId, 'failed', 'en');
    expect(row.lastErrorCode).toBe('NO_AUDIO');
    expect(row.lastError).toMatch(/no audio.*asked again/i);
    await sleep(1000);
    // One paid retry (regenerate true), each null result confirmed by a free request first; the
    // third attempt that SPEECH_MAX_ATTEMPTS leaves is not spent.
    expect((await submissionsFor(stack, `${documentId}-en`)).map((s) => s.body.postData.regenerate)).toEqual([false, false, true, false]);
  });

  it.each([
    ['still generating it: the check is answered 409', 'generating'],
    ['done, its callback on the way: the check is re-delivered the audio, free', 'delivering'],
    ['re-delivering the audio to the check while the replay comes again: the empty result is held, the audio wins', 'redelivering'],
  ] as const)(
    'a replayed null result, while a later paid request awaits its callback, costs nothing (the service %s)',
    async (_, phase) => {
      const documentId = (await articles.create({ title: `Replayed null ${phase}`, summary: 'The first take has no audio.' }, 'en'))
        .documentId;
      const articleId = `${documentId}-en`;
      await stack.control('POST', '/inject', { kind: 'noAudio', articleId, count: 1 });
      await articles.publish(documentId, 'en');
      await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
      // A genuine signed callback without files, as anyone on its way could have kept it.
      const { callbacks } = await stack.control<any>('GET', `/callbacks?articleId=${articleId}`);
      const captured = callbacks.find((callback: any) => callback.payload.response.audioFile === null).payload;

      // A later version: paid (regenerate true), and held in flight while the replay comes.
      const { config } = await stack.control<any>('GET', '/config');
      if (phase === 'generating') await stack.control('PUT', '/config', { generationDelayMs: 6000 });
      else await stack.control('POST', '/inject', { kind: 'slowCallback', articleId, delayMs: 6000 });
      // The check's re-delivery, slowed too: the replay comes again before it, as an answer to the check.
      if (phase === 'redelivering') await stack.control('POST', '/inject', { kind: 'slowCallback', articleId, delayMs: 1000 });
      try {
        await articles.update(documentId, { summary: 'The second version, narrated once.' }, 'en');
        await articles.publish(documentId, 'en');
        await waitForStatus(stack, ARTICLE, documentId, 'awaiting_callback', 'en');
        if (phase !== 'generating') {
          const generated = async () =>
            (await stack.control<any>('GET', `/articles?articleId=${articleId}`)).articles[0].state === 'generated';
          await waitFor(generated, { what: 'the generation done' });
        }
        const charges = async () => (await stack.control<any>('GET', `/events?articleId=${articleId}&type=CREDITS_CHARGED`)).events.length;
        const chargedBefore = await charges();
        const replay = await stack.request('/api/speech/callback', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(captured),
        });
        expect(await replay.json()).toEqual({ received: true, outcome: 'checking' });
        if (phase === 'redelivering') {
          // The check accepted (202), its re-delivery on the way: the replay again.
          const checkAccepted = async () => {
            const requests = await submissionsFor(stack, articleId);
            return requests.length === 5 && requests[4].status === 202;
          };
          await waitFor(checkAccepted, { intervalMs: 50, what: 'the check accepted' });
          const again = await stack.request('/api/speech/callback', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(captured),
          });
          expect(await again.json()).toEqual({ received: true, outcome: 'checking' });
        }

        const row = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en', 30_000);
        expect(row.lastErrorCode).toBeNull();
        expect(await charges()).toBe(chargedBefore);
        // Three requests before (null, its check, the paid regenerate), then the new version and the free check of the replay.
        const requests = (await submissionsFor(stack, articleId)).map((s) => [s.body.postData.regenerate, s.status]);
        expect(requests.slice(3)).toEqual([
          [true, 202],
          [false, phase === 'generating' ? 409 : 202],
        ]);
        const spoken = await (await stack.request(`/api/speech/narrations/${articleId}/subtitles.srt`)).text();
        expect(spoken).toContain('The second version, narrated once.');
        // The plugin's ledger books the paid request as generated (and the check, when accepted, as free), as the emulator charged them.
        const entries = await waitFor(
          async () => {
            const rows = (await ledgerEntries(stack)).filter((entry) => entry.articleId === articleId);
            return rows.every((entry) => entry.outcome !== 'pending') && rows;
          },
          { what: 'the ledger settled' }
        );
        const booked = entries.slice(3).map((entry) => [entry.credits === '0' ? 'free' : 'paid', entry.outcome]);
        expect(booked).toEqual(
          phase === 'generating'
            ? [['paid', 'generated']]
            : [
                ['paid', 'generated'],
                ['free', 'redelivered'],
              ]
        );
      } finally {
        await stack.control('PUT', '/config', { generationDelayMs: config.generationDelayMs });
      }
    }
  );

  it('two replays, an old empty result and then an old result with files, while a later paid request is generated: one charge, and the later version completes', async () => {
    const documentId = (await articles.create({ title: 'Two replays', summary: 'The first take has no audio.' }, 'en')).documentId;
    const articleId = `${documentId}-en`;
    await stack.control('POST', '/inject', { kind: 'noAudio', articleId, count: 1 });
    await articles.publish(documentId, 'en');
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    // Both genuine and signed, as anyone on their way could have kept them.
    const { callbacks } = await stack.control<any>('GET', `/callbacks?articleId=${articleId}`);
    const empty = callbacks.find((callback: any) => callback.payload.response.audioFile === null).payload;
    const withFiles = callbacks.find((callback: any) => callback.payload.response.audioFile !== null).payload;
    const replay = async (payload: unknown) =>
      (
        await stack.request('/api/speech/callback', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload),
        })
      ).json();

    const { config } = await stack.control<any>('GET', '/config');
    await stack.control('PUT', '/config', { generationDelayMs: 6000 });
    try {
      await articles.update(documentId, { summary: 'The later version, paid for once.' }, 'en');
      await articles.publish(documentId, 'en');
      await waitForStatus(stack, ARTICLE, documentId, 'awaiting_callback', 'en');
      const charges = async () => (await stack.control<any>('GET', `/events?articleId=${articleId}&type=CREDITS_CHARGED`)).events.length;
      const chargedBefore = await charges();
      expect(await replay(empty)).toEqual({ received: true, outcome: 'checking' });
      // The free check went out (and was answered 409: the service is still generating).
      await waitFor(async () => (await submissionsFor(stack, articleId)).at(-1)?.body.postData.regenerate === false, { what: 'the check' });
      expect((await replay(withFiles)).received).toBe(true);
      const row = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en', 30_000);
      expect(row.lastErrorCode).toBeNull();
      expect(await charges()).toBe(chargedBefore);
      const spoken = await (await stack.request(`/api/speech/narrations/${articleId}/subtitles.srt`)).text();
      expect(spoken).toContain('The later version, paid for once.');
    } finally {
      await stack.control('PUT', '/config', { generationDelayMs: config.generationDelayMs });
    }
  });

  it('stores one set of files when the same callback arrives 10 times at once', async () => {
    const documentId = (await articles.create({ title: 'Ten callbacks', summary: 'Delivered ten times concurrently.' }, 'en')).documentId;
    await stack.control('POST', '/inject', { kind: 'duplicateCallback', articleId: `${documentId}-en`, times: 10, concurrent: true });
    await articles.publish(documentId, 'en');
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    const { callbacks } = await stack.control<any>('GET', `/callbacks?articleId=${documentId}-en`);
    await waitFor(
      async () => {
        const { callbacks: all } = await stack.control<any>('GET', `/callbacks?articleId=${documentId}-en`);
        return all.length >= 10 && all.every((c: any) => c.outcome !== 'pending');
      },
      { what: 'all ten deliveries' }
    );
    expect(callbacks.length).toBeGreaterThanOrEqual(10);
    const { callbacks: delivered } = await stack.control<any>('GET', `/callbacks?articleId=${documentId}-en`);
    expect(delivered.every((c: any) => c.statusCode === 200)).toBe(true);
    expect(await mediaFiles(stack, `narration-${documentId}-en`)).toHaveLength(3);
  });

  it('ignores a replay of an older callback after a newer submission', async () => {
    const documentId = await publishArticle('Replay target', 'The first version.');
    const articleId = `${documentId}-en`;
    const first = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    const { callbacks } = await stack.control<any>('GET', `/callbacks?articleId=${articleId}`);
    const oldPayload = callbacks[callbacks.length - 1].payload;
    expect(oldPayload.response.audioFile).toBeTruthy();

    // The second version's callback is held back, so the replay lands while we await it.
    await stack.control('POST', '/inject', { kind: 'slowCallback', articleId, delayMs: 3000 });
    await articles.update(documentId, { title: 'Replay target', summary: 'A short summary.', body: blocks('The second version.') }, 'en');
    await articles.publish(documentId, 'en');
    await waitForStatus(stack, ARTICLE, documentId, 'awaiting_callback', 'en');
    const replay = await stack.request('/api/speech/callback', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(oldPayload),
    });
    expect(replay.status).toBe(200);
    expect((await narrationRow(stack, ARTICLE, documentId, 'en')).status).toBe('awaiting_callback');

    const second = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    expect(second.audio.id).not.toBe(first.audio.id);
    const audio = await fetch(`${stack.url}/api/speech/narrations/${articleId}/audio.mp3`, { redirect: 'manual' });
    expect(audio.headers.get('location')).toBe(second.audio.url);
  });
});

describe('editor actions (admin routes)', () => {
  it('narrate now does not pay twice for unchanged content; regenerate does, with regenerate true', async () => {
    const documentId = await publishArticle('Editor actions', 'A paragraph for the editor actions.');
    const articleId = `${documentId}-en`;
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');

    const again = await stack.admin('POST', '/speech/narrations/narrate', { contentType: ARTICLE, documentId, locale: 'en' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ articleId, queued: false });
    expect(again.body.reason).toMatch(/unchanged/);

    const estimate = await stack.admin('POST', '/speech/narrations/estimate', { contentType: ARTICLE, documentId, locale: 'en' });
    expect(estimate.body).toMatchObject({ articleId, unchanged: true, preprocessType: '0' });
    expect(estimate.body.credits).toBe(estimate.body.characters);

    const regenerate = await stack.admin('POST', '/speech/narrations/regenerate', { contentType: ARTICLE, documentId, locale: 'en' });
    expect(regenerate.body).toMatchObject({ articleId, queued: true });
    await waitFor(async () => (await submissionsFor(stack, articleId)).length === 2, { what: 'the regeneration' });
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    expect((await submissionsFor(stack, articleId)).map((s) => s.body.postData.regenerate)).toEqual([false, true]);
  });

  it('returns the statuses of a whole list page in one request', async () => {
    const a = await publishArticle('Batch one', 'First.');
    const b = (await articles.create({ title: 'Batch two (draft)', summary: 'Draft.' }, 'en')).documentId;
    await waitForStatus(stack, ARTICLE, a, 'completed', 'en');
    const { status, body } = await stack.admin('POST', '/speech/narrations/statuses', { contentType: ARTICLE, documentIds: [a, b] });
    expect(status).toBe(200);
    expect(body.data.map((row: any) => row.documentId)).toEqual([a]);
    expect(body.queue).toMatchObject({ paused: false });
    const invalid = await stack.admin('POST', '/speech/narrations/statuses', { contentType: 'not a uid', documentIds: 'x' });
    expect(invalid.status).toBe(400);
  });

  it('cancels queued work, and an unpublish cancels it too', async () => {
    await stack.control('PUT', '/credits', { credits: 0 });
    try {
      const documentId = await publishArticle('To cancel', 'This one is cancelled before it is paid for.');
      await waitFor(async () => (await stack.admin('GET', '/speech/overview')).body.queue.paused, { what: 'the 402 pause' });
      const cancelled = await stack.admin('POST', '/speech/narrations/cancel', { contentType: ARTICLE, documentId, locale: 'en' });
      expect(cancelled.body).toEqual({ cancelled: true });
      expect((await narrationRow(stack, ARTICLE, documentId, 'en')).status).toBe('cancelled');

      const other = await publishArticle('Unpublished while queued', 'Unpublishing cancels this.');
      await waitFor(async () => (await narrationRow(stack, ARTICLE, other, 'en'))?.status === 'queued', { what: 'queued' });
      await articles.unpublish(other, 'en');
      await waitFor(async () => (await narrationRow(stack, ARTICLE, other, 'en'))?.status === 'cancelled', {
        what: 'cancelled by unpublish',
      });
    } finally {
      await stack.control('PUT', '/credits', { credits: 100_000 });
      await stack.admin('POST', '/speech/queue/resume');
    }
  });

  it('narrates every entry of a Content Manager bulk publish (enqueued after its transaction commits)', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await articles.create({ title: `Bulk ${n}`, summary: `Bulk article ${n}.` }, 'en')).documentId);
    const bulk = await stack.admin('POST', `/content-manager/collection-types/${ARTICLE}/actions/bulkPublish?locale=en`, {
      documentIds: ids,
    });
    expect(bulk.status).toBe(200);
    for (const documentId of ids) await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    for (const documentId of ids) expect(await submissionsFor(stack, `${documentId}-en`)).toHaveLength(1);
  });
});

describe('run-time settings (plugin store) override the file config', () => {
  afterAll(async () => {
    await stack.admin('PUT', '/speech/settings', {
      preprocessType: '0',
      contentTypes: { [ARTICLE]: { titleField: 'title', textFields: ['summary', 'body'], trigger: 'publish' } },
    });
  });

  it('sends preprocessType "2" as a JSON string and records twice the credits', async () => {
    const saved = await stack.admin('PUT', '/speech/settings', { preprocessType: '2' });
    expect(saved.status).toBe(200);
    expect(saved.body.settings.preprocessType).toBe('2');
    const documentId = await publishArticle('AI preprocessing', 'Cleaner narration costs twice as much.');
    const row = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    const [submission] = await submissionsFor(stack, `${documentId}-en`);
    expect(submission.body.postData.preprocessType).toBe('2');
    expect(row.credits).toBe(2 * row.characters);
  });

  it('rejects an invalid setting with a message that names the field, and changes nothing', async () => {
    const bad = await stack.admin('PUT', '/speech/settings', { preprocessType: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/preprocessType/);
    expect((await stack.admin('GET', '/speech/settings')).body.settings.preprocessType).toBe('2');
  });

  it('narrates nothing for a type switched off', async () => {
    await stack.admin('PUT', '/speech/settings', {
      contentTypes: { [ARTICLE]: { titleField: 'title', textFields: ['summary', 'body'], trigger: 'off' } },
    });
    const documentId = await publishArticle('Switched off', 'This type is not narrated now.');
    await sleep(1_500);
    expect(await submissionsFor(stack, `${documentId}-en`)).toHaveLength(0);
  });
});

describe('listen to a paragraph (edit view)', () => {
  const listen = (body: Record<string, unknown>) =>
    stack.request('/speech/narrations/listen', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
      body: JSON.stringify(body),
    });
  const ttsRequests = async () => emulatorRequests(stack, '/api/v1/tts/generate');

  it("lists the draft's paragraphs and speaks one in the entry's voice, paying once per text", async () => {
    // A draft: nothing is narrated, but the editor can hear how a paragraph will sound.
    const { documentId } = await articles.create(
      { title: 'Listening in', summary: 'A short summary.', body: blocks('First paragraph of the body.', 'Second paragraph, read aloud.') },
      'en'
    );
    const target = { contentType: ARTICLE, documentId, locale: 'en' };
    const { status, body } = await stack.admin('POST', '/speech/narrations/paragraphs', target);
    expect(status).toBe(200);
    expect(body.paragraphs.map((p: any) => p.text)).toEqual([
      'Listening in.',
      'A short summary.',
      'First paragraph of the body.',
      'Second paragraph, read aloud.',
    ]);
    expect(body.paragraphs[3]).toMatchObject({ index: 3, characters: 'Second paragraph, read aloud.'.length });
    const defaultVoice = body.voiceId;

    const before = (await ttsRequests()).length;
    const spoken = await listen({ ...target, index: 3 });
    expect(spoken.status).toBe(200);
    expect(spoken.headers.get('content-type')).toMatch(/audio\/mpeg/);
    expect(spoken.headers.get('x-speech-preview-cache')).toBe('miss');
    const audio = Buffer.from(await spoken.arrayBuffer());
    expect(audio.length).toBeGreaterThan(1000);
    let sent = (await ttsRequests()).slice(before);
    expect(sent.map((r) => r.body)).toEqual([{ text: 'Second paragraph, read aloud.', voice_id: defaultVoice }]);

    // The same paragraph again: served from the cache, no second charge.
    const again = await listen({ ...target, index: 3 });
    expect(again.headers.get('x-speech-preview-cache')).toBe('hit');
    expect((await ttsRequests()).length).toBe(before + 1);

    // A voice chosen for this entry is the one heard.
    await stack.admin('PUT', '/speech/narrations/voice', { ...target, voiceId: 'ar-male-1' === defaultVoice ? 'en-male-1' : 'ar-male-1' });
    const { body: withOverride } = await stack.admin('POST', '/speech/narrations/paragraphs', target);
    expect(withOverride.voiceId).not.toBe(defaultVoice);
    await listen({ ...target, index: 2 });
    sent = (await ttsRequests()).slice(before);
    expect(sent[sent.length - 1].body).toEqual({ text: 'First paragraph of the body.', voice_id: withOverride.voiceId });
  });

  it('refuses a paragraph that does not exist, bad input and unknown documents, without spending anything', async () => {
    const { documentId } = await articles.create({ title: 'Short one', summary: 'Only this.' }, 'en');
    const before = (await ttsRequests()).length;
    const missing = await listen({ contentType: ARTICLE, documentId, locale: 'en', index: 9 });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as any).error.message).toBe('There is no paragraph 10: the text has 2.');
    expect((await listen({ contentType: ARTICLE, documentId, locale: 'en', index: -1 })).status).toBe(400);
    expect((await listen({ contentType: ARTICLE, documentId, locale: 'en' })).status).toBe(400);
    expect((await listen({ contentType: ARTICLE, documentId: 'no-such-document', locale: 'en', index: 0 })).status).toBe(404);
    expect((await listen({ contentType: 'api::nope.nope', documentId, index: 0 })).status).toBe(404);
    expect((await ttsRequests()).length).toBe(before);
  });
});

describe('one row per article', () => {
  it('five first narrations of one entry at once make one row and one submission', async () => {
    // With articles switched off, publishing records nothing, so every request below is a first.
    const articleSettings = { titleField: 'title', textFields: ['summary', 'body'] };
    await stack.admin('PUT', '/speech/settings', { contentTypes: { [ARTICLE]: { ...articleSettings, trigger: 'off' } } });
    let documentId: string;
    try {
      documentId = await publishArticle('Raced', 'Five editors click at once.');
    } finally {
      await stack.admin('PUT', '/speech/settings', { contentTypes: { [ARTICLE]: { ...articleSettings, trigger: 'publish' } } });
    }
    const articleId = `${documentId}-en`;
    await sleep(500);
    expect(await narrationRow(stack, ARTICLE, documentId, 'en')).toBeNull();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => stack.admin('POST', '/speech/narrations/narrate', { contentType: ARTICLE, documentId, locale: 'en' }))
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((answer) => answer.body.queued)).toHaveLength(1);
    const { data } = await adminNarration(stack, ARTICLE, documentId, 'en');
    expect(data).toHaveLength(1);
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    expect((await submissionsFor(stack, articleId)).filter((s) => s.status === 202)).toHaveLength(1);
  });
});

describe('the worker woken by a publish', () => {
  it('submits a Content Manager publish at once, outside the publish transaction, with no tick to wait for', async () => {
    // The Content Manager publishes in a transaction of its own, and the plugin records the
    // narration in it. The worker's pass must run after that commit and on its own queries: with
    // the worker's own tick an hour away, only the wake-up can submit it.
    await stack.restartStrapi({ SPEECH_POLL_INTERVAL_MS: '3600000' });
    const documentId = await publishArticle('Woken by its publish', 'Submitted before any tick.');
    const articleId = `${documentId}-en`;
    await waitFor(async () => (await submissionsFor(stack, articleId)).length === 1, {
      timeoutMs: 20_000,
      what: 'the submission of the published article',
    });
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    expect((await submissionsFor(stack, articleId)).filter((s) => s.status === 202)).toHaveLength(1);
    expect(stack.logs()).not.toMatch(/the narration queue failed/);
  });
});
