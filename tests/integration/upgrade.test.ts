import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { blocks, contentManager, startStack, type Stack } from './harness';
import { submissionsFor, waitForStatus } from './narration-helpers';

/**
 * An upgrade: a database made by the previous release (0.1.0 at 3112d0e: `npm run demo`, its
 * English and Arabic article and a page narrated, a voice chosen for the Arabic one, stored as one
 * object in the plugin store) opened by this version. Strapi's schema sync adds the new indexes
 * and tables; no narration is lost, the voice override moves to its own table, and the queue
 * goes on working.
 */

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'speech-0.1.0-3112d0e.sqlite.gz');
const ARTICLE = 'api::article.article';
const ARTICLE_DOC = 'petndxjgjey7g9c27zcbcbg1';
jest.setTimeout(180_000);

let stack: Stack;
let db: Database.Database;

beforeAll(async () => {
  stack = await startStack({
    seedDatabase: gunzipSync(readFileSync(FIXTURE)),
    existingAdmin: { email: 'admin@example.com', password: 'Admin-Passw0rd!' },
  });
  db = new Database(path.join(stack.workDir, 'data.db'), { readonly: true });
});

afterAll(async () => {
  db?.close();
  await stack?.stop();
});

it('gains the new indexes on the existing narration table', () => {
  const indexes = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'speech_narrations'").all() as Array<{ name: string }>
  ).map((row) => row.name);
  expect(indexes).toEqual(
    expect.arrayContaining([
      'speech_narrations_status_due_idx',
      'speech_narrations_status_lease_idx',
      'speech_narrations_status_callback_idx',
      'speech_narrations_target_idx',
      // Kept from the release.
      'speech_narrations_article_id_uq',
    ])
  );
});

it('keeps every narration of the release, still served', async () => {
  const rows = db.prepare('SELECT article_id, status FROM speech_narrations ORDER BY article_id').all() as Array<{
    article_id: string;
    status: string;
  }>;
  expect(rows.map((row) => [row.article_id, row.status])).toEqual([
    [`${ARTICLE_DOC}-ar`, 'completed'],
    [`${ARTICLE_DOC}-en`, 'completed'],
    ['u60u99g23o7vd0j5t0cqweqt', 'completed'],
  ]);
  const response = await stack.request(`/api/speech/narrations/${ARTICLE_DOC}-en`);
  expect(response.status).toBe(200);
  const json = (await response.json()) as any;
  expect(json.status).toBe('ready');
  expect(json.audioUrl).toBe(`${stack.url}/api/speech/narrations/${ARTICLE_DOC}-en/audio.mp3`);
});

it("dates each narration of the release's first audio by its store, the date its feed item showed", () => {
  const rows = db.prepare('SELECT completed_at, first_completed_at FROM speech_narrations').all() as Array<{
    completed_at: number | string | null;
    first_completed_at: number | string | null;
  }>;
  expect(rows).toHaveLength(3);
  for (const row of rows) {
    expect(row.completed_at).not.toBeNull();
    expect(row.first_completed_at).toEqual(row.completed_at);
  }
});

it('moves the voice override from the plugin store into its table', async () => {
  const overrides = db.prepare('SELECT article_id, voice_id FROM speech_voice_overrides').all();
  expect(overrides).toEqual([{ article_id: `${ARTICLE_DOC}-ar`, voice_id: 'ar-female-1' }]);
  expect(db.prepare("SELECT count(*) AS n FROM strapi_core_store_settings WHERE key = 'plugin_speech_voiceOverrides'").get()).toEqual({
    n: 0,
  });
  const estimate = await stack.admin('POST', '/speech/narrations/estimate', {
    contentType: ARTICLE,
    documentId: ARTICLE_DOC,
    locale: 'ar',
  });
  expect(estimate.body.voiceOverride).toBe('ar-female-1');
});

it('narrates a new article after the upgrade, once', async () => {
  const articles = contentManager(stack, ARTICLE);
  const { documentId } = await articles.create(
    { title: 'After the upgrade', summary: 'New.', body: blocks('Written after the upgrade.') },
    'en'
  );
  await articles.publish(documentId, 'en');
  await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en');
  expect(await submissionsFor(stack, `${documentId}-en`)).toHaveLength(1);
});
