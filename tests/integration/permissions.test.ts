import path from 'node:path';
import Database from 'better-sqlite3';
import { blocks, contentManager, createAdmin, startStack, type Stack } from './harness';
import { emulatorRequests, waitForStatus } from './narration-helpers';

/**
 * The plugin's RBAC actions on a real Strapi: an admin user whose role lacks an action gets 403
 * from the routes it guards, and nothing reaches the speech service; granting the action opens
 * exactly those routes. (The harness's own user is a super admin, so every other test passes RBAC.)
 */

const ARTICLE = 'api::article.article';
jest.setTimeout(180_000);

let stack: Stack;
let roleId: number;
let token: string;
let documentId: string;

async function as(method: string, pathname: string, body?: unknown) {
  const response = await stack.request(pathname, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

/** The Content Manager's permissions on articles (read and publish), which document routes also need. */
const ARTICLE_ACCESS = ['read', 'publish'].map((action) => ({
  action: `plugin::content-manager.explorer.${action}`,
  subject: ARTICLE,
  properties: action === 'read' ? { fields: ['title', 'summary', 'body'], locales: ['en', 'ar'] } : { locales: ['en', 'ar'] },
  conditions: [],
}));

async function grant(actions: string[]) {
  const permissions = [...actions.map((action) => ({ action, subject: null, properties: {}, conditions: [] })), ...ARTICLE_ACCESS];
  const { status, body } = await stack.admin('PUT', `/admin/roles/${roleId}/permissions`, { permissions });
  if (status !== 200) throw new Error(`could not set the role's permissions: ${status} ${JSON.stringify(body)}`);
}

/** One multipart upload of a tiny audio file to the transcription route. */
async function upload() {
  const form = new FormData();
  form.append('language', 'en-US');
  form.append('output_format', 'json');
  form.append('audio', new Blob([Buffer.from('ID3 not really audio')], { type: 'audio/mpeg' }), 'tiny.mp3');
  const response = await stack.request('/speech/transcriptions', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return response.status;
}

/** A queue paused by the service's 402 (as the worker records it), written straight to Strapi's store. */
function pauseQueue() {
  const value = JSON.stringify({
    paused: true,
    pausedUntil: new Date(Date.now() + 60 * 60_000).toISOString(),
    pauseCode: 'INSUFFICIENT_CREDITS',
    pauseReason: 'Not enough credits.',
    creditsRemaining: 0,
    creditsRequired: 10,
    creditsSeenAt: new Date().toISOString(),
  });
  const db = new Database(path.join(stack.workDir, 'data.db'));
  try {
    const key = 'plugin_speech_queue';
    if (db.prepare('SELECT 1 FROM strapi_core_store_settings WHERE key = ?').get(key)) {
      db.prepare('UPDATE strapi_core_store_settings SET value = ? WHERE key = ?').run(value, key);
    } else {
      db.prepare("INSERT INTO strapi_core_store_settings (key, value, type, environment, tag) VALUES (?, ?, 'object', NULL, NULL)").run(
        key,
        value
      );
    }
  } finally {
    db.close();
  }
}

/** What an editor may change in Settings -> Speech, every key of the runtime settings. */
const SETTINGS_CHANGE = {
  preprocessType: '2',
  defaultVoiceId: 'en-male-1',
  localeVoices: { ar: 'ar-male-1' },
  lexicon: [{ term: 'Guarded', spoken: 'Guard it' }],
  siteName: 'Taken over',
  introTemplates: { '*': 'Welcome to {site}.' },
  outroTemplates: { en: 'The end.' },
  contentTypes: {
    [ARTICLE]: { titleField: 'title', textFields: ['summary'], trigger: 'publish', skipBlocks: ['quote'], authorField: 'title' },
  },
};

beforeAll(async () => {
  stack = await startStack();
  const role = await stack.admin('POST', '/admin/roles', { name: 'Speechless', description: 'No speech permissions' });
  if (role.status !== 201 && role.status !== 200) throw new Error(`role: ${role.status} ${JSON.stringify(role.body)}`);
  roleId = role.body.data.id;
  ({ token } = await createAdmin(stack, 'limited@example.com', roleId));
  ({ documentId } = await contentManager(stack, ARTICLE).create({ title: 'Guarded', summary: 'Summary.', body: blocks('Body.') }, 'en'));
});

afterAll(async () => {
  await stack?.stop();
});

it('refuses every guarded route to a role without the plugin actions, and nothing reaches the service', async () => {
  const target = { contentType: ARTICLE, documentId, locale: 'en' };
  const settingsBefore = (await stack.admin('GET', '/speech/settings')).body.settings;
  pauseQueue();
  const queueBefore = (await stack.admin('GET', '/speech/overview')).body.queue;
  expect(queueBefore.paused).toBe(true);
  const before = (await stack.control<any>('GET', '/requests')).requests.length;

  const settingsRead = await as('GET', '/speech/settings');
  expect(settingsRead.status).toBe(403);
  expect(settingsRead.body).not.toHaveProperty('settings');
  const overview = await as('GET', '/speech/overview');
  expect(overview.status).toBe(403);
  expect(JSON.stringify(overview.body)).not.toMatch(/counts|apiKeyConfigured|INSUFFICIENT_CREDITS/);
  expect((await as('PUT', '/speech/settings', { preprocessType: '2' })).status).toBe(403);
  expect((await as('PUT', '/speech/settings', SETTINGS_CHANGE)).status).toBe(403);
  expect((await as('POST', '/speech/lexicon/hear', { rule: { spoken: 'Guard it', locale: 'en' } })).status).toBe(403);
  expect((await as('POST', '/speech/queue/resume', {})).status).toBe(403);
  expect((await as('POST', '/speech/connection/test', {})).status).toBe(403);
  expect((await as('POST', '/speech/narrations/narrate', target)).status).toBe(403);
  expect((await as('POST', '/speech/narrations/regenerate', target)).status).toBe(403);
  expect((await as('POST', '/speech/narrations/listen', { ...target, index: 0 })).status).toBe(403);
  expect((await as('PUT', '/speech/narrations/voice', { ...target, voiceId: 'en-female-1' })).status).toBe(403);
  expect(
    (await as('PUT', '/speech/narrations/passages/voice', { ...target, passageKey: '0123456789abcdef', voiceId: 'en-female-1' })).status
  ).toBe(403);
  expect((await as('POST', '/speech/narrations/cancel', target)).status).toBe(403);
  expect((await as('POST', '/speech/tts/preview', { voiceId: 'en-female-1' })).status).toBe(403);
  expect((await as('GET', '/speech/transcriptions')).status).toBe(403);
  expect(await upload()).toBe(403);

  // Which types are narrated is open to any admin; a document's narration needs the Content
  // Manager's permission to read that document, which this role lacks.
  expect((await as('GET', '/speech/narrated-types')).status).toBe(200);
  expect((await as('POST', '/speech/narrations/estimate', target)).status).toBe(403);
  expect((await as('POST', '/speech/narrations/paragraphs', target)).status).toBe(403);
  expect((await as('POST', '/speech/narrations/passages', target)).status).toBe(403);

  // The service saw nothing from this user, and the settings were not changed (the settings
  // page's own read may ask the service for its voice list, so it comes after the count).
  expect((await stack.control<any>('GET', '/requests')).requests.length).toBe(before);
  expect((await stack.admin('GET', '/speech/settings')).body.settings.preprocessType).toBe('0');
  expect((await stack.admin('GET', '/speech/settings')).body.settings).toEqual(settingsBefore);
  // The queue is still paused: only who may narrate lifts a pause.
  expect((await stack.admin('GET', '/speech/overview')).body.queue).toEqual(queueBefore);
});

it('lets any admin list the voices, price a text and ask what the lexicon would change, without a document they cannot read or a credit spent', async () => {
  // A published, narrated article this role may not read (Content Manager permissions: none); the
  // queue the test above left paused is resumed by who may.
  expect((await stack.admin('POST', '/speech/queue/resume', {})).status).toBe(200);
  await contentManager(stack, ARTICLE).publish(documentId, 'en');
  await waitForStatus(stack, ARTICLE, documentId, 'completed');
  expect((await stack.admin('PUT', '/speech/settings', { lexicon: [{ term: 'Guarded', spoken: 'Kept safe' }] })).status).toBe(200);
  const before = (await stack.control<any>('GET', '/requests')).requests.filter((entry: any) => entry.method === 'POST').length;

  // The lexicon would change that article, but only documents the caller may read are looked at:
  // it is counted as refused, and nothing of it is told.
  const affected = await as('POST', '/speech/lexicon/affected', { contentType: ARTICLE, locale: 'en' });
  expect(affected.status).toBe(200);
  expect(affected.body).toMatchObject({ items: [], totalCredits: 0, refused: 1 });
  expect(JSON.stringify(affected.body)).not.toContain('Guarded');
  expect((await stack.admin('POST', '/speech/lexicon/affected', { contentType: ARTICLE, locale: 'en' })).body.items).toHaveLength(1);
  expect((await stack.admin('PUT', '/speech/settings', { lexicon: [] })).status).toBe(200);

  const cost = await as('POST', '/speech/cost', { text: 'Hello مرحبا' });
  expect(cost.status).toBe(200);
  expect(cost.body).toEqual({
    verbatim: { characters: 11, multiplier: 1, credits: 11 },
    preprocessed: { characters: 11, multiplier: 2, credits: 22 },
  });
  expect((await as('POST', '/speech/cost', { text: 'x'.repeat(1_000_001) })).status).toBe(400);
  const voices = await as('GET', '/speech/voices');
  expect(voices.status).toBe(200);
  expect(voices.body.voices.map((voice: any) => voice.id)).toEqual(expect.arrayContaining(['en-female-1']));
  expect(JSON.stringify(voices.body)).not.toMatch(/apiKey|Bearer/i);
  // Reading the voice list is free (a GET); nothing was submitted or generated.
  expect((await stack.control<any>('GET', '/requests')).requests.filter((entry: any) => entry.method === 'POST')).toHaveLength(before);
});

it('opens exactly the routes of the actions granted', async () => {
  await grant(['plugin::speech.transcribe']);
  expect((await as('GET', '/speech/transcriptions')).status).toBe(200);
  expect(await upload()).toBe(201);
  const [transcription] = (await as('GET', '/speech/transcriptions?mine=true')).body.data;
  expect(transcription.fileName).toBe('tiny.mp3');
  expect((await as('GET', `/speech/transcriptions/${transcription.id}`)).status).toBe(200);
  expect((await as('POST', '/speech/queue/resume', {})).status).toBe(403);
  expect((await as('POST', '/speech/narrations/narrate', { contentType: ARTICLE, documentId, locale: 'en' })).status).toBe(403);
  expect((await as('GET', '/speech/settings')).status).toBe(403);

  await grant(['plugin::speech.transcribe', 'plugin::speech.narrate']);
  const before = (await emulatorRequests(stack, '/api/v1/tts/generate')).length;
  const listened = await as('POST', '/speech/narrations/listen', { contentType: ARTICLE, documentId, locale: 'en', index: 0 });
  expect(listened.status).toBe(200);
  expect((await emulatorRequests(stack, '/api/v1/tts/generate')).length).toBe(before + 1);
  expect((await as('PUT', '/speech/settings', { preprocessType: '2' })).status).toBe(403);
  // Hearing a lexicon rule is for who may change the lexicon, not for who may narrate.
  expect((await as('POST', '/speech/lexicon/hear', { rule: { spoken: 'Guard it', locale: 'en' } })).status).toBe(403);
  expect((await emulatorRequests(stack, '/api/v1/tts/generate')).length).toBe(before + 1);
  const resumed = await as('POST', '/speech/queue/resume', {});
  expect(resumed.status).toBe(200);
  expect(resumed.body.queue.paused).toBe(false);

  await grant(['plugin::speech.settings.read', 'plugin::speech.settings.update']);
  expect((await as('GET', '/speech/settings')).status).toBe(200);
  expect((await as('GET', '/speech/overview')).status).toBe(200);
  const generated = (await emulatorRequests(stack, '/api/v1/tts/generate')).length;
  const heard = await as('POST', '/speech/lexicon/hear', { rule: { spoken: 'Guard it', locale: 'en' } });
  expect(heard.status).toBe(200);
  expect((await emulatorRequests(stack, '/api/v1/tts/generate')).length).toBe(generated + 1);

  // The change refused above was a valid one: the permission alone decided.
  const changed = await as('PUT', '/speech/settings', SETTINGS_CHANGE);
  expect(changed.status).toBe(200);
  expect(changed.body.settings).toMatchObject({ localeVoices: SETTINGS_CHANGE.localeVoices, siteName: 'Taken over' });

  // Speech to text is closed again: the transcription made above, its result and its file with it.
  expect((await as('GET', '/speech/transcriptions')).status).toBe(403);
  const id = transcription.id;
  for (const [method, pathname] of [
    ['GET', `/speech/transcriptions/${id}`],
    ['GET', `/speech/transcriptions/${id}/download?format=srt`],
    ['POST', `/speech/transcriptions/${id}/save`],
  ] as const) {
    const answer = await as(method, pathname, method === 'POST' ? { format: 'srt' } : undefined);
    expect([pathname, answer.status]).toEqual([pathname, 403]);
    expect(JSON.stringify(answer.body)).not.toContain('tiny.mp3');
  }
  expect((await stack.admin('GET', `/speech/transcriptions/${id}`)).body.data.savedFile).toBeNull();
});
