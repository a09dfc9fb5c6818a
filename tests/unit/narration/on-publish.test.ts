import { narrateOnPublish } from '../../../server/src/narration/narrate-on-publish';

/**
 * The Document Service middleware, without Strapi: which actions look at the narration settings
 * and which record a version. Every document read of every type passes through it.
 */

function setUp() {
  const calls: string[] = [];
  const narrations = {
    triggerFor: async (uid: string) => {
      calls.push(`triggerFor ${uid}`);
      return 'publish';
    },
    recordFromDocument: async (
      uid: string,
      documentId: string,
      locale: string | null,
      options: { origin?: { cause: string; causedBy: string | null } }
    ) => {
      calls.push(`record ${uid} ${documentId} ${locale} by ${options.origin?.cause} ${options.origin?.causedBy}`);
      return { queued: true };
    },
  };
  const strapi = {
    db: { inTransaction: () => false },
    // The request Strapi is serving: an admin publishing in the Content Manager.
    requestContext: { get: () => ({ state: { isAuthenticatedAdmin: true, user: { id: 7, firstname: 'Ada' } } }) },
    log: { error: (message: string) => calls.push(`error ${message}`) },
    plugin: () => ({ service: () => narrations }),
  };
  (globalThis as unknown as { strapi: unknown }).strapi = strapi;
  const middleware = narrateOnPublish(strapi as never);
  const run = (action: string, result: unknown, params: Record<string, unknown> = {}) =>
    middleware({ uid: 'api::article.article', action, params }, async () => result);
  return { calls, run };
}

afterEach(() => {
  delete (globalThis as unknown as { strapi?: unknown }).strapi;
});

describe('narrateOnPublish', () => {
  it.each(['findOne', 'findMany', 'findFirst', 'count'])('%s passes its result through without reading the settings', async (action) => {
    const { calls, run } = setUp();
    const result = { documentId: 'doc', locale: 'en' };
    await expect(run(action, result)).resolves.toBe(result);
    expect(calls).toEqual([]);
  });

  it('a publish reads the trigger and records each published entry', async () => {
    const { calls, run } = setUp();
    const result = {
      documentId: 'doc',
      entries: [
        { documentId: 'doc', locale: 'en' },
        { documentId: 'doc', locale: 'ar' },
      ],
    };
    await expect(run('publish', result, { documentId: 'doc' })).resolves.toBe(result);
    expect(calls).toEqual([
      'triggerFor api::article.article',
      'record api::article.article doc en by admin-publish Ada (#7)',
      'record api::article.article doc ar by admin-publish Ada (#7)',
    ]);
  });
});
