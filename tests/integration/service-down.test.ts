import { blocks, contentManager, startStack, waitFor, type Stack } from './harness';
import { narrationRow } from './narration-helpers';

/** Publishing never waits on the speech service: with the service down, publish still succeeds at once. */

jest.setTimeout(120_000);
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ withoutEmulator: true, env: { SPEECH_MAX_ATTEMPTS: '5' } });
});
afterAll(async () => {
  await stack?.stop();
});

it('publishes at once and keeps the narration queued, with a readable reason, while the service is down', async () => {
  const articles = contentManager(stack, 'api::article.article');
  const { documentId } = await articles.create({ title: 'Service down', summary: 'Summary.', body: blocks('Body.') }, 'en');
  const started = Date.now();
  await articles.publish(documentId, 'en');
  const publishMs = Date.now() - started;
  expect(publishMs).toBeLessThan(2_000);

  const row = await waitFor(
    async () => {
      const current = await narrationRow(stack, 'api::article.article', documentId, 'en');
      return current?.lastErrorCode ? current : null;
    },
    { what: 'a failed attempt to be recorded' }
  );
  expect(row.status).toBe('queued');
  expect(row.lastErrorCode).toBe('SERVICE_UNAVAILABLE');
  expect(row.lastError).toMatch(/speech service/i);
  expect(new Date(row.nextAttemptAt).getTime()).toBeGreaterThan(Date.now() - 500);
});
