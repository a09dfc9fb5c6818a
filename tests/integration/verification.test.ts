import { blocks, contentManager, startStack, waitFor, type Stack } from './harness';
import { ledgerEntries, narrationRow, publicNarration, setNarrationMode, submissionsFor, waitForStatus } from './narration-helpers';

/**
 * Verified narration (docs/verification.md) on a real Strapi against the emulator, whose speech to
 * text transcribes its own narrations faithfully, faults injected into the audio included: each
 * stored narration of a type that verifies is sent to speech to text once, and its transcript
 * compared with the text sent.
 */

jest.setTimeout(240_000);

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';
/** How long the emulator keeps an STT job queued, then processing, and how often the plugin looks. */
const STT_STEP_MS = 300;

let stack: Stack;
/** A page stored while pages did not verify (the settings test turns them on later). */
let earlierPage = '';

interface SttJob {
  job_id: string;
  language: string;
  status: string;
  recognisedAudio?: string[];
  audio: { sha256: string };
}

beforeAll(async () => {
  stack = await startStack({
    env: {
      SPEECH_DEFAULT_VOICE: 'en-male-1',
      SPEECH_LOCALE_VOICES: 'ar=ar-male-1',
      SPEECH_STT_POLL_MS: String(STT_STEP_MS),
      SPEECH_VERIFICATION: JSON.stringify({ maxAttempts: 3 }),
      SPEECH_CONTENT_TYPES: JSON.stringify({
        [ARTICLE]: { titleField: 'title', textFields: ['summary', 'body'], trigger: 'publish', verify: true },
        [PAGE]: { titleField: 'title', textFields: ['content'], trigger: 'save' },
      }),
    },
    emulatorArgs: ['--stt-queued-ms', String(STT_STEP_MS), '--stt-processing-ms', String(STT_STEP_MS)],
  });
});

afterAll(async () => {
  await stack?.stop();
});

/** The SHA-256 of the MP3 the emulator made for an article. */
async function audioSha(articleId: string): Promise<string | null> {
  const { articles } = await stack.control<{ articles: Array<{ audio?: { sha256?: string } }> }>(
    'GET',
    `/articles?articleId=${encodeURIComponent(articleId)}`
  );
  return articles[0]?.audio?.sha256 ?? null;
}

/** The speech-to-text jobs of the emulator made of an article's audio (its MP3, or a file holding its frames). */
async function sttJobsOf(articleId: string): Promise<SttJob[]> {
  const sha = await audioSha(articleId);
  if (!sha) return [];
  return (await stack.control<{ jobs: SttJob[] }>('GET', `/stt-jobs?sha256=${sha}`)).jobs;
}

async function verificationOf(contentType: string, documentId: string, locale = 'en') {
  const { body } = await stack.admin(
    'GET',
    `/speech/narrations/document/${documentId}?contentType=${encodeURIComponent(contentType)}&locale=${locale}`
  );
  return body.data.find((row: { locale: string | null }) => row.locale === locale || row.locale === null)?.verification ?? null;
}

async function waitForVerification(contentType: string, documentId: string, statuses: string[], locale = 'en') {
  return waitFor(
    async () => {
      const verification = await verificationOf(contentType, documentId, locale);
      return verification && statuses.includes(verification.status) ? verification : null;
    },
    { timeoutMs: 60_000, what: `a verification ${statuses.join(' or ')}` }
  );
}

async function publishedArticle(title: string, summary: string, body: string) {
  const articles = contentManager(stack, ARTICLE);
  const { documentId } = await articles.create({ title, summary, body: blocks(body) }, 'en');
  await articles.publish(documentId, 'en');
  await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
  return documentId;
}

it('a clean narration is verified, by exactly one speech-to-text job in its voice language', async () => {
  const documentId = await publishedArticle(
    'A clean narration',
    'Checked by listening.',
    'The first sentence is here. The second one follows it.'
  );
  const verification = await waitForVerification(ARTICLE, documentId, ['verified', 'mismatch', 'failed']);
  expect(verification).toMatchObject({ status: 'verified', placeCount: 0, places: [], checks: { total: 1, done: 1 }, reason: null });
  expect(verification.wordAccuracy).toBeGreaterThanOrEqual(0.95);
  const jobs = await sttJobsOf(`${documentId}-en`);
  expect(jobs).toHaveLength(1);
  expect(jobs[0].language.toLowerCase().startsWith('en')).toBe(true);
});

it('audio that lost a sentence is a mismatch listing that sentence at its time, checked once and never again', async () => {
  // Sentences 0 and 1 are the title and the summary: the body's second sentence is lost.
  await stack.control('POST', '/inject', { kind: 'dropSentence', sentence: 3 });
  const documentId = await publishedArticle(
    'A narration with a hole',
    'The summary comes first.',
    'Alpha sentence opens the body. Bravo sentence goes missing today. Charlie sentence closes it.'
  );
  const verification = await waitForVerification(ARTICLE, documentId, ['verified', 'mismatch', 'failed']);
  expect(verification.status).toBe('mismatch');
  expect(verification.wordAccuracy).toBeLessThan(0.95);
  expect(verification.placeCount).toBe(1);
  expect(verification.places).toEqual([
    { expected: expect.stringMatching(/^Bravo sentence goes missing today$/), heard: '', atSeconds: expect.any(Number) },
  ]);
  expect(verification.places[0].atSeconds).toBeGreaterThan(0);
  // No loop: several poll intervals later, still the one job, and the narration still ready and public.
  await new Promise((resolve) => setTimeout(resolve, 6 * STT_STEP_MS));
  expect(await sttJobsOf(`${documentId}-en`)).toHaveLength(1);
  expect((await publicNarration(stack, `${documentId}-en`)).status).toBe(200);
});

it('Arabic heard without its diacritics is verified against the text sent with them', async () => {
  const articles = contentManager(stack, ARTICLE);
  const placeholder = { title: 'placeholder', summary: 'placeholder', body: blocks('Placeholder.') };
  const { documentId } = await articles.create(placeholder, 'en');
  // The audio says the plain spelling of the diacritized word: the transcript has no harakat there.
  await stack.control('POST', '/inject', { kind: 'replaceWord', word: 'المَدْرَسَةِ', with: 'المدرسة' });
  await articles.update(
    documentId,
    { title: 'مقالة', summary: 'ملخص قصير.', body: blocks('ذَهَبَ الوَلَدُ إلى المَدْرَسَةِ صباحا.') },
    'ar'
  );
  await articles.publish(documentId, 'ar');
  await waitForStatus(stack, ARTICLE, documentId, 'completed', 'ar');
  const verification = await waitForVerification(ARTICLE, documentId, ['verified', 'mismatch', 'failed'], 'ar');
  expect(verification).toMatchObject({ status: 'verified', wordAccuracy: 1, placeCount: 0 });
  const [job] = await sttJobsOf(`${documentId}-ar`);
  expect(job.language.toLowerCase().startsWith('ar')).toBe(true);
  const { articles: emulated } = await stack.control<{ articles: Array<{ audio: { injected: unknown[] } }> }>(
    'GET',
    `/articles?articleId=${documentId}-ar`
  );
  expect(emulated[0].audio.injected).toEqual([expect.objectContaining({ kind: 'replaceWord', with: 'المدرسة' })]);
});

it('a type that does not verify sends nothing to speech to text, and its narration has no verification', async () => {
  const pages = contentManager(stack, PAGE);
  const { documentId } = await pages.create({ title: 'A page', content: 'Pages are not checked.' });
  earlierPage = documentId;
  const row = await waitForStatus(stack, PAGE, documentId, 'completed');
  await new Promise((resolve) => setTimeout(resolve, 4 * STT_STEP_MS));
  expect(await audioSha(row.articleId)).toEqual(expect.any(String));
  expect(await sttJobsOf(row.articleId)).toEqual([]);
  expect(await verificationOf(PAGE, documentId)).toBeNull();
});

it('with speech to text down, the check fails after its bounded attempts and the narration stays ready and public', async () => {
  const since = new Date().toISOString();
  /** Submissions to speech to text since this test began (the log's times are the emulator's clock, this machine's). */
  const attempts = async () =>
    (await stack.control<{ requests: Array<{ status: number; at: string }> }>('GET', '/requests?path=/api/v1/stt/submit/')).requests.filter(
      (entry) => entry.at >= since
    );
  await stack.control('POST', '/inject', { kind: 'http5xx', target: 'stt-submit', count: 50 });
  try {
    const documentId = await publishedArticle('Checked while down', 'Nobody answers.', 'The speech to text service is down for now.');
    const verification = await waitForVerification(ARTICLE, documentId, ['failed', 'verified', 'mismatch']);
    expect(verification).toMatchObject({ status: 'failed', wordAccuracy: null, checks: { total: 1, done: 1 } });
    expect(verification.reason).toEqual(expect.any(String));
    // maxAttempts is 3: three submissions (each answered 500), then no more. No other check is under way.
    expect((await attempts()).map((entry) => entry.status)).toEqual([500, 500, 500]);
    await new Promise((resolve) => setTimeout(resolve, 4 * STT_STEP_MS));
    expect(await attempts()).toHaveLength(3);
    const row = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    expect(row.status).toBe('completed');
    expect((await publicNarration(stack, `${documentId}-en`)).status).toBe(200);
  } finally {
    await stack.control('DELETE', '/inject');
  }
});

it('a restart while a transcription is under way resumes the check: the same job is polled to its end', async () => {
  await stack.control('PUT', '/config', { sttProcessingMs: 4000 });
  try {
    const documentId = await publishedArticle(
      'Checked across a restart',
      'Still checked.',
      'A restart comes while the service transcribes this.'
    );
    const articleId = `${documentId}-en`;
    await waitFor(async () => (await sttJobsOf(articleId)).length === 1, { timeoutMs: 30_000, what: 'the check sent to speech to text' });
    await stack.restartStrapi();
    const verification = await waitForVerification(ARTICLE, documentId, ['verified', 'mismatch', 'failed']);
    expect(verification.status).toBe('verified');
    expect(await sttJobsOf(articleId)).toHaveLength(1);
  } finally {
    await stack.control('PUT', '/config', { sttProcessingMs: STT_STEP_MS });
  }
});

describe('a type that regenerates on a mismatch', () => {
  const charges = async (articleId: string) =>
    (await stack.control<{ events: unknown[] }>('GET', `/events?articleId=${articleId}&type=CREDITS_CHARGED`)).events.length;
  const submissions = async (articleId: string) =>
    (await submissionsFor(stack, articleId)).map((request) => request.body.postData.regenerate ?? false);

  beforeAll(async () => {
    const article = (await stack.admin('GET', '/speech/settings')).body.settings.contentTypes[ARTICLE];
    const saved = await stack.admin('PUT', '/speech/settings', {
      contentTypes: { [ARTICLE]: { ...article, verification: { onMismatch: 'regenerate' } } },
    });
    expect(saved.status).toBe(200);
  });

  it("regenerates a mismatched article once, paid once more, in the ledger as the verification's", async () => {
    await stack.control('POST', '/inject', { kind: 'dropSentence', sentence: 3 });
    const documentId = await publishedArticle(
      'Regenerated once',
      'Checked, then narrated again.',
      'First words here. These words get lost. Last words here.'
    );
    const articleId = `${documentId}-en`;
    await waitFor(async () => (await submissions(articleId)).length === 2, { timeoutMs: 30_000, what: 'the regenerate' });
    const verification = await waitFor(
      async () => {
        const current = await verificationOf(ARTICLE, documentId);
        return current?.status === 'verified' ? current : null;
      },
      { timeoutMs: 60_000, what: 'the regenerated audio verified' }
    );
    expect(verification.wordAccuracy).toBe(1);
    expect(await submissions(articleId)).toEqual([false, true]);
    expect(await charges(articleId)).toBe(2);
    const ledger = (await ledgerEntries(stack)).filter((entry) => entry.articleId === articleId);
    expect(ledger.map((entry) => entry.cause)).toEqual(expect.arrayContaining(['verification']));
  });

  it('never loops: a regenerate that mismatches again is only flagged', async () => {
    await stack.control('POST', '/inject', { kind: 'dropSentence', sentence: 3, count: 2 });
    const documentId = await publishedArticle(
      'Mismatched twice',
      'Checked twice.',
      'First words here. These words get lost twice. Last words here.'
    );
    const articleId = `${documentId}-en`;
    const refused = `${articleId}: not regenerated after the mismatch: this audio is already the regenerate a mismatch asked for`;
    await waitFor(async () => stack.logs().includes(refused), { timeoutMs: 60_000, what: 'the second mismatch, not regenerated' });
    expect((await verificationOf(ARTICLE, documentId)).status).toBe('mismatch');
    await new Promise((resolve) => setTimeout(resolve, 8 * STT_STEP_MS));
    expect(await submissions(articleId)).toEqual([false, true]);
    expect(await charges(articleId)).toBe(2);
  });
});

describe('segmented', () => {
  const paragraph = (n: number, word = 'paragraph') =>
    `This is ${word} ${n} of a long read. It goes on for a while, so that the article is cut into several parts.`;

  beforeAll(async () => {
    await setNarrationMode(stack, ARTICLE, 'segmented', 400);
  });

  it('checks each part once, and an edit of one paragraph re-checks that part alone', async () => {
    const articles = contentManager(stack, ARTICLE);
    const body = Array.from({ length: 8 }, (_, i) => paragraph(i + 1));
    const { documentId } = await articles.create({ title: 'A long checked read', summary: 'In parts.', body: blocks(...body) }, 'en');
    await articles.publish(documentId, 'en');
    await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
    const first = await waitForVerification(ARTICLE, documentId, ['verified', 'mismatch', 'failed']);
    expect(first.status).toBe('verified');
    expect(first.checks.total).toBeGreaterThan(1);
    const jobsBefore = (await stack.control<{ jobs: SttJob[] }>('GET', '/stt-jobs')).jobs.length;

    const firstStore = (await narrationRow(stack, ARTICLE, documentId, 'en'))!.completedAt;
    body[6] = paragraph(7, 'an edited paragraph');
    await articles.update(documentId, { body: blocks(...body) }, 'en');
    await articles.publish(documentId, 'en');
    await waitFor(
      async () => {
        const row = await narrationRow(stack, ARTICLE, documentId, 'en');
        return row?.status === 'completed' && row.completedAt !== firstStore;
      },
      { timeoutMs: 45_000, what: 'the edited narration stored' }
    );
    const second = await waitForVerification(ARTICLE, documentId, ['verified', 'mismatch', 'failed']);
    expect(second).toMatchObject({ status: 'verified', checks: { total: first.checks.total, done: first.checks.total } });
    const jobs = (await stack.control<{ jobs: SttJob[] }>('GET', '/stt-jobs')).jobs;
    // One new job: the edited part's (found by the emulator as its own audio, cut out of the joined file).
    expect(jobs.length - jobsBefore).toBe(1);
    expect(jobs.at(-1)?.recognisedAudio).toHaveLength(1);
  });
});

describe('settings', () => {
  it("take a type's verify and the minimum word accuracy at run time, and refuse a bad value naming its key", async () => {
    const refused = await stack.admin('PUT', '/speech/settings', { verification: { minWordAccuracy: 1.5 } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('verification.minWordAccuracy');
    expect((await stack.admin('GET', '/speech/settings')).body.settings.verification).toEqual({ minWordAccuracy: 0.95 });

    const saved = await stack.admin('PUT', '/speech/settings', { verification: { minWordAccuracy: 0.99 } });
    expect(saved.status).toBe(200);
    expect(saved.body.settings.verification).toEqual({ minWordAccuracy: 0.99 });

    const page = (await stack.admin('GET', '/speech/settings')).body.settings.contentTypes[PAGE];
    const verifying = await stack.admin('PUT', '/speech/settings', { contentTypes: { [PAGE]: { ...page, verify: true } } });
    expect(verifying.status).toBe(200);
    expect(verifying.body.settings.contentTypes[PAGE].verify).toBe(true);
    // The file's types stay under the saved map: the article still verifies.
    expect(verifying.body.settings.contentTypes[ARTICLE].verify).toBe(true);

    // Pages stored from now on are checked; the one stored before pages verified is not.
    const pages = contentManager(stack, PAGE);
    const earlier = await waitForStatus(stack, PAGE, earlierPage, 'completed');
    const { documentId } = await pages.create({ title: 'A page checked', content: 'Pages are checked from now on.' });
    const row = await waitForStatus(stack, PAGE, documentId, 'completed');
    await waitFor(async () => (await sttJobsOf(row.articleId)).length === 1, { timeoutMs: 30_000, what: 'the new page checked' });
    expect(await sttJobsOf(earlier.articleId)).toEqual([]);
  });

  it("count the month's checks on the usage page", async () => {
    // The last page's check may still be under way: every check of this file ends.
    const body = await waitFor(
      async () => {
        const usage = (await stack.admin('GET', '/speech/usage?days=30')).body;
        return usage.checks.underWay === 0 ? usage : null;
      },
      { timeoutMs: 30_000, what: 'every check ended' }
    );
    // Every check of this file ended: clean ones, the mismatches (a lost sentence, two regenerated, the segmented part), one failed.
    expect(body.checks.underWay).toBe(0);
    expect(body.checks.failed).toBe(1);
    expect(body.checks.mismatches).toBeGreaterThanOrEqual(3);
    expect(body.checks.verified).toBeGreaterThanOrEqual(5);
    expect(body.checks.done).toBe(body.checks.verified + body.checks.mismatches + body.checks.failed);
  });
});
