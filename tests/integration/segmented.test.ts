import { blocks, contentManager, startStack, type Stack } from './harness';
import { emulatorRequests, waitForStatus } from './narration-helpers';

/**
 * Long articles (issue 23). The emulator enforces a maximum text length (spec 8: a limit exists,
 * its value is not published); here it is lowered so that an ordinary article is over it.
 */

const ARTICLE = 'api::article.article';
const LIMIT = 400;
jest.setTimeout(180_000);

let stack: Stack;
let articles: ReturnType<typeof contentManager>;

beforeAll(async () => {
  stack = await startStack();
  articles = contentManager(stack, ARTICLE);
  await stack.control('PUT', '/config', { maxTextLength: LIMIT });
});

afterAll(async () => {
  await stack?.stop();
});

/** Paragraphs of about 180 characters each, `count` of them: three times the limit for 10. */
function longBody(count: number, word = 'paragraph') {
  return Array.from(
    { length: count },
    (_, i) => `This is ${word} ${i + 1} of a long read. It goes on for a while, so that the whole article is well over what the service takes.`
  );
}

describe('whole-article mode', () => {
  it('fails an article over the service limit at once, with a plain reason that suggests the segmented mode, and pays nothing', async () => {
    const creditsBefore = (await stack.control<any>('GET', '/credits')).credits;
    const { documentId } = await articles.create({ title: 'A long read', summary: 'Long.', body: blocks(...longBody(10)) }, 'en');
    await articles.publish(documentId, 'en');
    const row = await waitForStatus(stack, ARTICLE, documentId, 'failed', 'en');
    expect(row.characters).toBeGreaterThan(3 * LIMIT);
    expect(row.lastErrorCode).toBe('TEXT_TOO_LONG');
    expect(row.lastError).toMatch(/^This article \([\d,]+ characters\) is more than the speech service takes in one request/);
    expect(row.lastError).toContain(`maximum length of ${LIMIT} characters`);
    expect(row.lastError).toContain("narrationMode 'segmented'");
    expect(row.lastError).toContain('Nothing was charged.');
    // Asked once, refused once (422), never again: a second identical request would be refused too.
    const requests = (await emulatorRequests(stack)).filter((r) => r.body?.postData?.articleId === `${documentId}-en`);
    expect(requests.map((r) => r.status)).toEqual([422]);
    expect((await stack.control<any>('GET', '/credits')).credits).toBe(creditsBefore);
    const { events } = await stack.control<any>('GET', `/events?articleId=${documentId}-en&type=CREDITS_CHARGED`);
    expect(events).toEqual([]);
  });
});
