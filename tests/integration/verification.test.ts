import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { blocks, contentManager, startStack, waitFor, type Stack } from './harness';
import {
  ledgerEntries,
  narrationRow,
  partRequests,
  publicNarration,
  setNarrationMode,
  submissionsFor,
  waitForStatus,
} from './narration-helpers';

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
/** How long a check waits for its transcription before it is `failed`. */
const MAX_WAIT_MS = 10_000;

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
      SPEECH_VERIFICATION: JSON.stringify({ maxAttempts: 3, maxWaitMs: MAX_WAIT_MS }),
      SPEECH_CONTENT_TYPES: JSON.stringify({
        [ARTICLE]: { titleField: 'title', textFields: ['summary', 'body'], trigger: 'publish', verify: true },
        [PAGE]: { titleField: 'title', textFields: ['content'], trigger: 'save' },
      }),
    },
    // Polls every 300 ms: more than the default 60 a minute of the status endpoint.
    emulatorArgs: ['--stt-queued-ms', String(STT_STEP_MS), '--stt-processing-ms', String(STT_STEP_MS), '--rate-limit', '600/60'],
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

/** The speech-to-text jobs of the emulator made of an article's audio: the service's MP3, a file holding its frames, or the file Strapi stored (tagged). */
async function sttJobsOf(articleId: string): Promise<SttJob[]> {
  const sha = await audioSha(articleId);
  const stored = await stack.request(`/api/speech/narrations/${encodeURIComponent(articleId)}/audio.mp3`);
  const storedSha = stored.ok
    ? createHash('sha256')
        .update(Buffer.from(await stored.arrayBuffer()))
        .digest('hex')
    : null;
  const jobs = new Map<string, SttJob>();
  for (const wanted of [sha, storedSha]) {
    if (!wanted) continue;
    for (const job of (await stack.control<{ jobs: SttJob[] }>('GET', `/stt-jobs?sha256=${wanted}`)).jobs)
      jobs.set(JSON.stringify(job), job);
  }
  return [...jobs.values()];
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

/** Articles regenerate on a mismatch from now on. */
async function regenerateOnMismatch() {
  const article = (await stack.admin('GET', '/speech/settings')).body.settings.contentTypes[ARTICLE];
  const saved = await stack.admin('PUT', '/speech/settings', {
    contentTypes: { [ARTICLE]: { ...article, verification: { onMismatch: 'regenerate' } } },
  });
  expect(saved.status).toBe(200);
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

it('deleting a verified document deletes its checks, the text sent and what was heard with them', async () => {
  const documentId = await publishedArticle(
    'Checked, then deleted',
    'Its checks go with it.',
    'A sentence that is heard and then forgotten.'
  );
  await waitForVerification(ARTICLE, documentId, ['verified', 'mismatch', 'failed']);
  const checksOf = () => {
    const db = new Database(path.join(stack.workDir, 'data.db'), { readonly: true });
    try {
      return (
        db.prepare('select count(*) as count from speech_verifications where article_id = ?').get(`${documentId}-en`) as { count: number }
      ).count;
    } finally {
      db.close();
    }
  };
  expect(checksOf()).toBe(1);
  await contentManager(stack, ARTICLE).remove(documentId, 'en');
  await waitFor(async () => checksOf() === 0, { timeoutMs: 20_000, what: 'the checks deleted with the document' });
});

it('an ended check is deleted once it is older than every period the usage page counts; recent ones stay', async () => {
  const database = () => new Database(path.join(stack.workDir, 'data.db'));
  const db = database();
  const recent = (db.prepare("select count(*) as count from speech_verifications where status != 'pending'").get() as { count: number })
    .count;
  try {
    // Written as Strapi writes its dates here (read from a row it wrote).
    const written = (db.prepare('select created_at as at from admin_users limit 1').get() as { at: unknown }).at;
    const oldAt = Date.now() - 100 * 24 * 60 * 60_000;
    const old = typeof written === 'number' ? oldAt : new Date(oldAt).toISOString();
    db.prepare(
      "insert into speech_verifications (narration_id, article_id, audio_key, text, status, attempts, regenerated, replaced, completed_at, created_at, updated_at) values (0, 'long-gone-en', 'a', 'Old text.', 'verified', 1, 0, 1, ?, ?, ?)"
    ).run(old, old, old);
  } finally {
    db.close();
  }
  const count = (where: string) => {
    const reader = database();
    try {
      return (reader.prepare(`select count(*) as count from speech_verifications where ${where}`).get() as { count: number }).count;
    } finally {
      reader.close();
    }
  };
  expect(count("article_id = 'long-gone-en'")).toBe(1);
  // A new process prunes at its first pass.
  await stack.restartStrapi();
  await waitFor(async () => count("article_id = 'long-gone-en'") === 0, { timeoutMs: 30_000, what: 'the old check pruned' });
  expect(count("status != 'pending'")).toBe(recent);
});

it("a check the service charges for is in the ledger at what the service's answer said, as the verification's", async () => {
  // The contract prices narration only; the emulator charges for speech to text when told to.
  await stack.control('PUT', '/config', { sttCreditsPerJob: 7 });
  try {
    const documentId = await publishedArticle('A priced check', 'Listened to for a fee.', 'The service charges for listening to this one.');
    expect((await waitForVerification(ARTICLE, documentId, ['verified', 'mismatch', 'failed'])).status).toBe('verified');
    const [job] = await sttJobsOf(`${documentId}-en`);
    const entries = (await ledgerEntries(stack)).filter((entry) => entry.articleId === `transcription:${job.job_id}`);
    expect(entries).toEqual([
      expect.objectContaining({
        kind: 'transcription',
        cause: 'verification',
        contentType: ARTICLE,
        documentId,
        locale: 'en',
        title: 'A priced check',
        credits: '7',
        outcome: 'generated',
      }),
    ]);
    expect(Number(entries[0].creditsRemaining)).toBe((await stack.control<{ credits: number }>('GET', '/credits')).credits);
  } finally {
    await stack.control('PUT', '/config', { sttCreditsPerJob: 0 });
  }
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

it("speech to text's 429s on the polls delay a check without spending its attempts", async () => {
  // More refusals than maxAttempts (3), each asking for a second's wait.
  await stack.control('POST', '/inject', { kind: 'rateLimit429', target: 'stt-status', retryAfter: 1, count: 4 });
  try {
    const documentId = await publishedArticle(
      'Checked at a slower pace',
      'Waited for.',
      'The service asks the plugin to poll more slowly.'
    );
    const verification = await waitForVerification(ARTICLE, documentId, ['verified', 'mismatch', 'failed']);
    expect(verification.status).toBe('verified');
    const polls = (await stack.control<{ requests: Array<{ status: number }> }>('GET', '/requests?route=stt-status')).requests;
    expect(polls.filter((entry) => entry.status === 429)).toHaveLength(4);
  } finally {
    await stack.control('DELETE', '/inject');
  }
});

it('a transcription that never completes fails the check once it has waited maxWaitMs, and the narration stays ready', async () => {
  await stack.control('POST', '/inject', { kind: 'sttStuck' });
  const documentId = await publishedArticle('Never transcribed', 'Waited for.', 'The service takes this audio and never finishes it.');
  const verification = await waitForVerification(ARTICLE, documentId, ['failed', 'verified', 'mismatch']);
  expect(verification).toMatchObject({ status: 'failed', wordAccuracy: null, checks: { total: 1, done: 1 } });
  expect(verification.reason).toContain(`did not finish the transcription within ${MAX_WAIT_MS / 1000} s`);
  // One job, still processing at the service: given up, not sent again.
  const jobs = await sttJobsOf(`${documentId}-en`);
  expect(jobs.map((job) => job.status)).toEqual(['processing']);
  expect((await narrationRow(stack, ARTICLE, documentId, 'en'))!.status).toBe('completed');
  expect((await publicNarration(stack, `${documentId}-en`)).status).toBe(200);
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

  beforeAll(regenerateOnMismatch);

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

  it("holds the verification's regenerate when the monthly budget is reached, like any paid request, and sends it once there is room", async () => {
    const usage = async () => (await stack.admin('GET', '/speech/usage?days=30')).body;
    const setBudget = async (monthlyCredits: number | null) =>
      expect((await stack.admin('PUT', '/speech/settings', { budget: { monthlyCredits } })).status).toBe(200);
    // The check waits at the service until the budget is set: the regenerate then finds the month full.
    await stack.control('PUT', '/config', { sttProcessingMs: 3000 });
    await stack.control('POST', '/inject', { kind: 'dropSentence', sentence: 3 });
    try {
      const documentId = await publishedArticle(
        'Held by the budget',
        'Checked, then held.',
        'First words here. These words are lost on the way. Last words here.'
      );
      const articleId = `${documentId}-en`;
      await setBudget((await usage()).monthToDate.credits);
      const held = await waitFor(
        async () => {
          const row = await narrationRow(stack, ARTICLE, documentId, 'en');
          return row?.status === 'queued' && row.lastErrorCode === 'BUDGET_REACHED' ? row : null;
        },
        { timeoutMs: 60_000, what: 'the regenerate held by the budget' }
      );
      expect(held.lastError).toMatch(/^Monthly budget reached/);
      expect((await verificationOf(ARTICLE, documentId)).status).toBe('mismatch');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await submissions(articleId)).toEqual([false]);
      expect(await charges(articleId)).toBe(1);
      // The listeners keep the audio they had meanwhile.
      expect((await publicNarration(stack, articleId)).status).toBe(200);

      await setBudget(null);
      await waitFor(async () => (await submissions(articleId)).length === 2, { timeoutMs: 30_000, what: 'the regenerate sent' });
      await waitForVerification(ARTICLE, documentId, ['verified']);
      expect(await submissions(articleId)).toEqual([false, true]);
      expect(await charges(articleId)).toBe(2);
    } finally {
      await stack.control('PUT', '/config', { sttProcessingMs: STT_STEP_MS });
      await setBudget(null);
    }
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

describe('segmented, regenerating on a mismatch', () => {
  beforeAll(regenerateOnMismatch);

  it('regenerates only the part that mismatched, once, paying for that part alone, and checks it again', async () => {
    const articles = contentManager(stack, ARTICLE);
    // A sentence a paragraph: the one lost is a good share of its part's words.
    const body = Array.from(
      { length: 8 },
      (_, i) => `This is mended paragraph ${i + 1}, long enough to share a part with one or two others`
    );
    const { documentId } = await articles.create({ title: 'A read mended in part', summary: 'In parts.', body: blocks(...body) }, 'en');
    const articleId = `${documentId}-en`;
    const jobsBefore = (await stack.control<{ jobs: SttJob[] }>('GET', '/stt-jobs')).jobs.length;
    // The first part asked for loses a sentence: its first paragraph (after the title and the summary).
    await stack.control('POST', '/inject', { kind: 'dropSentence', sentence: 2 });
    await articles.publish(documentId, 'en');
    const requests = async () => (await partRequests(stack, articleId)).filter((request) => request.status === 202);
    await waitFor(async () => (await requests()).some((request) => request.body.postData.regenerate === true), {
      timeoutMs: 60_000,
      what: 'the mismatched part regenerated',
    });
    const verification = await waitForVerification(ARTICLE, documentId, ['verified']);
    const sent = await requests();
    const first = sent.filter((request) => request.body.postData.regenerate !== true);
    const again = sent.filter((request) => request.body.postData.regenerate === true);
    expect(first.length).toBeGreaterThan(1);
    expect(again).toHaveLength(1);
    expect(again[0].body.postData.articleId).toBe(first[0].body.postData.articleId);
    expect(verification.checks).toEqual({ total: first.length, done: first.length });
    // One check per part, and one more of the part taken again.
    expect((await stack.control<{ jobs: SttJob[] }>('GET', '/stt-jobs')).jobs.length - jobsBefore).toBe(first.length + 1);
    // Paid: every part once, the mended one twice; the ledger says the second was the verification's.
    const charged = (await stack.control<{ events: Array<{ articleId?: string }> }>('GET', '/events?type=CREDITS_CHARGED')).events.filter(
      (event) => event.articleId?.startsWith(articleId)
    );
    expect(charged).toHaveLength(first.length + 1);
    const ledger = (await ledgerEntries(stack)).filter((entry) => entry.articleId === again[0].body.postData.articleId);
    expect(ledger.map((entry) => entry.cause)).toEqual(['admin-publish', 'verification']);
    await new Promise((resolve) => setTimeout(resolve, 6 * STT_STEP_MS));
    expect(await requests()).toHaveLength(sent.length);
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
    // Every check of this file ended: clean ones, the mismatches (a lost sentence, two regenerated, the segmented part), two failed (STT down, STT stuck).
    expect(body.checks.underWay).toBe(0);
    expect(body.checks.failed).toBe(2);
    expect(body.checks.mismatches).toBeGreaterThanOrEqual(3);
    expect(body.checks.verified).toBeGreaterThanOrEqual(5);
    expect(body.checks.done).toBe(body.checks.verified + body.checks.mismatches + body.checks.failed);
  });
});
