import { blocks, contentManager, startStack, waitFor, type Stack } from './harness';
import { waitForStatus } from './narration-helpers';

/** The Prometheus endpoint: behind its own token, and its figures move with a narration. */

const ARTICLE = 'api::article.article';
const TOKEN = 'metrics-token-for-the-tests-0123456789';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
jest.setTimeout(180_000);

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ env: { SPEECH_METRICS: JSON.stringify({ enabled: true, token: TOKEN }) } });
});

afterAll(async () => {
  await stack?.stop();
});

async function scrape(token: string | null = TOKEN) {
  const response = await stack.request('/api/speech/metrics', token === null ? {} : { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

/** A sample's value from the text format; 0 when absent. */
function sample(body: string, name: string, labels = ''): number {
  const line = body.split('\n').find((candidate) => candidate.startsWith(`${name}${labels} `) || candidate === `${name}${labels}`);
  return line ? Number(line.split(' ').pop()) : 0;
}

it('refuses a caller without the token, or with another one, and changes nothing', async () => {
  for (const token of [null, 'wrong-token-of-the-same-size-0123456', `${TOKEN}x`, '']) {
    const answer = await scrape(token);
    expect([token, answer.status]).toEqual([token, 401]);
    expect(answer.body).not.toContain('speech_');
  }
  const basic = await stack.request('/api/speech/metrics', {
    headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
  });
  expect(basic.status).toBe(401);
});

it('counts a narration: a submission accepted, its callback timed, its store, and the queue depth read from the database', async () => {
  const before = (await scrape()).body;
  const articles = contentManager(stack, ARTICLE);
  const { documentId } = await articles.create(
    { title: 'Counted', summary: 'Measured.', body: blocks('One sentence, narrated and counted.') },
    'en'
  );
  await articles.publish(documentId, 'en');
  await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
  const after = await waitFor(
    async () => {
      const { body } = await scrape();
      return sample(body, 'speech_stores_total', '{outcome="stored"}') >= 1 ? body : null;
    },
    { what: 'the store counted' }
  );
  expect(sample(after, 'speech_submissions_total', '{outcome="accepted"}')).toBe(
    sample(before, 'speech_submissions_total', '{outcome="accepted"}') + 1
  );
  expect(sample(after, 'speech_callback_latency_seconds_count', '{with_files="true"}')).toBe(1);
  expect(sample(after, 'speech_callback_latency_seconds_sum', '{with_files="true"}')).toBeGreaterThan(0);
  // Every status, the active ones counted at the scrape (the archive's are at most a minute old).
  for (const status of ['queued', 'submitting', 'awaiting_callback', 'awaiting_parts', 'storing'])
    expect([status, sample(after, 'speech_queue_depth', `{status="${status}"}`)]).toEqual([status, 0]);
  for (const status of ['completed', 'failed', 'cancelled']) expect(after).toContain(`speech_queue_depth{status="${status}"}`);
  expect(sample(after, 'speech_generations_in_flight')).toBe(0);
  // The ledger's spending, read at the scrape: what this narration cost.
  expect(sample(after, 'speech_credits_spent')).toBeGreaterThan(sample(before, 'speech_credits_spent'));
  expect(after).toContain('speech_verification_checks{outcome="verified"} 0');

  // A listening event: counted; a malformed one: refused.
  const events = (body: unknown) =>
    stack.request('/api/speech/insights/events', {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER },
      body: JSON.stringify(body),
    });
  expect((await events({ articleId: `${documentId}-en`, event: 'play', heard: 0 })).status).toBe(204);
  expect((await events({ nothing: true })).status).toBe(400);
  const listened = (await scrape()).body;
  expect(sample(listened, 'speech_insights_events_total', '{outcome="counted"}')).toBe(1);
  expect(sample(listened, 'speech_insights_events_total', '{outcome="refused"}')).toBe(1);
  const { type } = await scrape();
  expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
});
