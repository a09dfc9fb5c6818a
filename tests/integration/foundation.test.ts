import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { EMULATOR_API_KEY, blocks, contentManager, freePort, launchStrapi, playgroundEnv, startStack, type Stack } from './harness';
import { waitForStatus } from './narration-helpers';
import routes from '../../server/src/routes';
import { fromForm, toForm, validateForm } from '../../admin/src/pages/Settings/form';

/** The plugin loads in a real Strapi, its routes answer, its config is validated, its key stays secret. */

jest.setTimeout(180_000);

let stack: Stack;

/** The playground's types, notes narrated in parts of 900 characters by the configuration file. */
const FILE_TYPES = {
  'api::article.article': { titleField: 'title', textFields: ['summary', 'body'], trigger: 'publish' },
  'api::page.page': { titleField: 'title', textFields: ['content'], trigger: 'save' },
  'api::note.note': { titleField: 'title', textFields: ['text'], narrationMode: 'segmented', segmentCharacters: 900 },
  'api::homepage.homepage': { titleField: 'title', textFields: ['intro'] },
};

beforeAll(async () => {
  stack = await startStack({ env: { SPEECH_CONTENT_TYPES: JSON.stringify(FILE_TYPES) } });
});

afterAll(async () => {
  await stack?.stop();
});

it('loads the plugin: its public route answers with a JSON 404 for an unknown article', async () => {
  const response = await stack.request('/api/speech/narrations/unknown-article');
  expect(response.status).toBe(404);
  expect(await response.json()).toMatchObject({ error: { status: 404, message: 'No narration for this article.' } });
});

it('registers its RBAC actions and guards its admin routes', async () => {
  const { body } = await stack.admin('GET', '/admin/permissions');
  const actions = JSON.stringify(body);
  for (const action of [
    'plugin::speech.settings.read',
    'plugin::speech.settings.update',
    'plugin::speech.narrate',
    'plugin::speech.transcribe',
  ]) {
    expect(actions).toContain(action);
  }
  const anonymous = await stack.request('/speech/overview');
  expect(anonymous.status).toBe(401);
});

it('refuses every admin route to a caller without an admin session (401), before anything reaches the service', async () => {
  // Every feature's admin routes, as routes/index.ts gathers them (transcriptions included).
  const adminRoutes = routes.admin.routes;
  expect(adminRoutes.length).toBeGreaterThan(25);
  expect(adminRoutes.map((route) => route.path)).toEqual(expect.arrayContaining(['/transcriptions', '/tts/preview', '/settings']));
  const before = (await stack.control<any>('GET', '/requests')).requests.length;
  for (const route of adminRoutes) {
    const pathname = `/speech${route.path.replace(/:[A-Za-z]+/g, '1')}`;
    const response = await stack.request(pathname, {
      method: route.method,
      headers: { 'content-type': 'application/json' },
      body: route.method === 'GET' ? undefined : '{}',
    });
    expect(`${route.method} ${pathname} ${response.status}`).toBe(`${route.method} ${pathname} 401`);
  }
  expect((await stack.control<any>('GET', '/requests')).requests.length).toBe(before);
});

it('refuses runtime settings naming a field or a type that does not exist with a 400 naming the key, and changes nothing', async () => {
  const before = (await stack.admin('GET', '/speech/settings')).body.settings.contentTypes;
  const typo = await stack.admin('PUT', '/speech/settings', {
    contentTypes: { 'api::article.article': { titleField: 'titel', textFields: ['summary', 'bdy'] } },
  });
  expect(typo.status).toBe(400);
  expect(typo.body.error.message.split('\n')).toEqual([
    'contentTypes.api::article.article.titleField: api::article.article has no field "titel"',
    'contentTypes.api::article.article.textFields.1: api::article.article has no field "bdy"',
  ]);
  expect(typo.body.error.details.errors.map((error: { path: string[] }) => error.path.join('.'))).toEqual([
    'contentTypes.api::article.article.titleField',
    'contentTypes.api::article.article.textFields.1',
  ]);
  const ghost = await stack.admin('PUT', '/speech/settings', { contentTypes: { 'api::artcle.artcle': { textFields: ['body'] } } });
  expect(ghost.status).toBe(400);
  expect(ghost.body.error.message).toBe('contentTypes.api::artcle.artcle: api::artcle.artcle: unknown content type');
  expect((await stack.admin('GET', '/speech/settings')).body.settings.contentTypes).toEqual(before);
});

it('takes a type’s narration mode and the part sizes from PUT /speech/settings, refuses bad ones with a 400 naming the key, and answers them in effect', async () => {
  const ARTICLE = 'api::article.article';
  const before = (await stack.admin('GET', '/speech/settings')).body.settings;
  expect(before.segmentCharacters).toBe(2_000);
  expect(before.contentTypes[ARTICLE].narrationMode).toBe('whole');
  const article = { titleField: 'title', textFields: ['summary', 'body'] };

  const zero = await stack.admin('PUT', '/speech/settings', { segmentCharacters: 0 });
  expect(zero.status).toBe(400);
  expect(zero.body.error.message).toBe('segmentCharacters: must be a whole number of characters from 200 to 100000');
  expect(zero.body.error.details.errors).toEqual([
    { path: ['segmentCharacters'], message: 'must be a whole number of characters from 200 to 100000' },
  ]);
  const parts = await stack.admin('PUT', '/speech/settings', {
    contentTypes: { [ARTICLE]: { ...article, narrationMode: 'parts', segmentCharacters: 50 } },
  });
  expect(parts.status).toBe(400);
  expect(parts.body.error.message.split('\n')).toEqual([
    `contentTypes.${ARTICLE}.narrationMode: Invalid enum value. Expected 'whole' | 'segmented', received 'parts'`,
    `contentTypes.${ARTICLE}.segmentCharacters: must be a whole number of characters from 200 to 100000`,
  ]);
  expect((await stack.admin('GET', '/speech/settings')).body.settings).toEqual(before);

  const saved = await stack.admin('PUT', '/speech/settings', {
    segmentCharacters: 1_500,
    contentTypes: { [ARTICLE]: { ...article, narrationMode: 'segmented', segmentCharacters: 600 } },
  });
  expect(saved.status).toBe(200);
  const inEffect = (await stack.admin('GET', '/speech/settings')).body.settings;
  for (const settings of [saved.body.settings, inEffect]) {
    expect(settings.segmentCharacters).toBe(1_500);
    expect(settings.contentTypes[ARTICLE]).toMatchObject({ narrationMode: 'segmented', segmentCharacters: 600 });
    expect(settings.contentTypes['api::page.page'].narrationMode).toBe('whole');
  }
  const restored = await stack.admin('PUT', '/speech/settings', {
    segmentCharacters: before.segmentCharacters,
    contentTypes: { [ARTICLE]: before.contentTypes[ARTICLE] },
  });
  expect(restored.body.settings).toEqual(before);
});

it('takes segmentCharacters: null for a type from PUT /speech/settings: its own size cleared, the global one applies', async () => {
  const ARTICLE = 'api::article.article';
  const before = (await stack.admin('GET', '/speech/settings')).body.settings;
  const article = { titleField: 'title', textFields: ['summary', 'body'] };
  const own = await stack.admin('PUT', '/speech/settings', {
    contentTypes: { [ARTICLE]: { ...article, narrationMode: 'segmented', segmentCharacters: 600 } },
  });
  expect(own.body.settings.contentTypes[ARTICLE].segmentCharacters).toBe(600);
  const cleared = await stack.admin('PUT', '/speech/settings', {
    contentTypes: { [ARTICLE]: { ...article, narrationMode: 'segmented', segmentCharacters: null } },
  });
  expect(cleared.status).toBe(200);
  const inEffect = (await stack.admin('GET', '/speech/settings')).body.settings;
  for (const settings of [cleared.body.settings, inEffect]) {
    expect(settings.contentTypes[ARTICLE]).toMatchObject({ narrationMode: 'segmented', segmentCharacters: null });
    expect(settings.segmentCharacters).toBe(before.segmentCharacters);
  }
  // Only a size or null: anything else is still refused, naming the key.
  const refused = await stack.admin('PUT', '/speech/settings', {
    contentTypes: { [ARTICLE]: { ...article, narrationMode: 'segmented', segmentCharacters: 'none' } },
  });
  expect(refused.status).toBe(400);
  expect(refused.body.error.message).toContain(`contentTypes.${ARTICLE}.segmentCharacters`);
  const restored = await stack.admin('PUT', '/speech/settings', { contentTypes: { [ARTICLE]: before.contentTypes[ARTICLE] } });
  expect(restored.body.settings).toEqual(before);
});

it("gives Settings -> Speech the file's mode and part size of each type, and the page saving them back leaves them the file's", async () => {
  const NOTE = 'api::note.note';
  const { body } = await stack.admin('GET', '/speech/settings');
  // Only the fields a saved type may leave to the file (the rest of the file is not the admin's).
  expect(body.fileContentTypes).toEqual({
    'api::article.article': {},
    'api::page.page': {},
    [NOTE]: { narrationMode: 'segmented', segmentCharacters: 900 },
    'api::homepage.homepage': {},
  });
  expect(body.settings.contentTypes[NOTE]).toMatchObject({ narrationMode: 'segmented', segmentCharacters: 900 });
  // Saved as the page shows it, untouched: the same settings in effect...
  const form = toForm(body.settings, body.contentTypes, body.fileContentTypes);
  expect(validateForm(form)).toEqual([]);
  const saved = await stack.admin('PUT', '/speech/settings', fromForm(form));
  expect(saved.status).toBe(200);
  expect(saved.body.settings).toEqual(body.settings);
  // ...with no copy of the file's mode or size in the store, so a later change of the file applies.
  const db = new Database(path.join(stack.workDir, 'data.db'), { readonly: true });
  try {
    const row = db.prepare("SELECT value FROM strapi_core_store_settings WHERE key = 'plugin_speech_settings'").get() as { value: string };
    const stored = JSON.parse(row.value).contentTypes;
    expect(stored[NOTE]).toEqual({ titleField: 'title', textFields: ['text'] });
    expect(Object.values(stored).filter((type: any) => 'narrationMode' in type || 'segmentCharacters' in type)).toEqual([]);
  } finally {
    db.close();
  }
});

it('never shows the API key in admin responses, public responses or logs', async () => {
  const articles = contentManager(stack, 'api::article.article');
  const { documentId } = await articles.create({ title: 'Secret check', summary: 'Summary.', body: blocks('Body.') }, 'en');
  await articles.publish(documentId, 'en');
  await waitForStatus(stack, 'api::article.article', documentId, 'completed', 'en');

  const overview = await stack.admin('GET', '/speech/overview');
  expect(overview.body.apiKeyConfigured).toBe(true);
  const settings = await stack.admin('GET', '/speech/settings');
  const narration = await stack.request(`/api/speech/narrations/${documentId}-en`);
  const payloads = [JSON.stringify(overview.body), JSON.stringify(settings.body), await narration.text()];
  for (const payload of payloads) expect(payload).not.toContain(EMULATOR_API_KEY);
  expect(stack.logs()).not.toContain(EMULATOR_API_KEY);
  // the emulator's own request log redacts the Authorization header too
  expect(JSON.stringify(await stack.control('GET', '/requests'))).not.toContain(EMULATOR_API_KEY);
});

it('keeps the API key out of the built admin bundle', () => {
  const root = path.resolve(__dirname, '..', '..');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(path.join(root, 'dist', 'admin'));
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/apiKey\s*[:=]\s*['"][^'"]+['"]/);
    expect(text).not.toContain('emulator-dev-key');
  }
});

it('refuses to start with a bad configuration, naming the key', async () => {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'speech-badconfig-'));
  const env = {
    ...process.env,
    ...playgroundEnv(workDir, await freePort()),
    SPEECH_BASE_URL: 'not a url',
    SPEECH_MAX_IN_FLIGHT: '0',
  };
  await expect(launchStrapi(env, workDir)).rejects.toThrow(
    /speech\.config\.baseUrl[\s\S]*speech\.config\.maxInFlight|speech\.config\.maxInFlight[\s\S]*speech\.config\.baseUrl/
  );
});

it('refuses to start in production without baseUrl, naming the key, rather than send the API key to the local emulator', async () => {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'speech-nobaseurl-'));
  const env = {
    ...process.env,
    ...playgroundEnv(workDir, await freePort()), // NODE_ENV=production
    SPEECH_API_KEY: EMULATOR_API_KEY,
    SPEECH_BASE_URL: undefined,
    SPEECH_WEB_URL: 'http://127.0.0.1:9',
  };
  const failure = launchStrapi(env, workDir);
  // Refused by the plugin's config validator, as Strapi words its refusal, before the plugin runs.
  await expect(failure).rejects.toThrow(
    /Error regarding speech config: Invalid configuration of the speech plugin:\nspeech\.config\.baseUrl: required when NODE_ENV=production/
  );
  await expect(failure).rejects.toThrow(/e\.g\. baseUrl: env\('SPEECH_BASE_URL'\), and SPEECH_BASE_URL in the environment/);
  await expect(failure).rejects.not.toThrow(/speech\.config\.webUrl/);
});

it('refuses to start with a content type that can never be narrated as configured, naming the type and field', async () => {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'speech-badtypes-'));
  const env = {
    ...process.env,
    ...playgroundEnv(workDir, await freePort()),
    // Hosts, which production requires; nothing listens there, and Strapi refuses before any request.
    SPEECH_BASE_URL: 'http://127.0.0.1:9',
    SPEECH_WEB_URL: 'http://127.0.0.1:9',
    SPEECH_CONTENT_TYPES: JSON.stringify({
      'api::note.note': { textFields: ['text'], trigger: 'publish' },
      'api::article.article': { titleField: 'title', textFields: ['summary', 'internalNotes'] },
      'plugin::users-permissions.user': { textFields: ['email'] },
      // Typos: a field the type does not have, and a type that does not exist.
      'api::page.page': { titleField: 'titel', textFields: ['content', 'contnet'], authorField: 'writer' },
      'api::artcle.artcle': { titleField: 'title', textFields: ['body'] },
    }),
  };
  const failure = launchStrapi(env, workDir);
  await expect(failure).rejects.toThrow(/Invalid configuration of the speech plugin:/);
  await expect(failure).rejects.toThrow(/speech\.config\.contentTypes\.api::page\.page\.titleField: api::page\.page has no field "titel"/);
  await expect(failure).rejects.toThrow(
    /speech\.config\.contentTypes\.api::page\.page\.textFields\.1: api::page\.page has no field "contnet"/
  );
  await expect(failure).rejects.toThrow(
    /speech\.config\.contentTypes\.api::page\.page\.authorField: api::page\.page has no field "writer"/
  );
  await expect(failure).rejects.toThrow(/speech\.config\.contentTypes\.api::artcle\.artcle: api::artcle\.artcle: unknown content type/);
  await expect(failure).rejects.toThrow(/speech\.config\.contentTypes\.api::note\.note\.trigger: api::note\.note has no draft & publish/);
  await expect(failure).rejects.toThrow(/api::article\.article "internalNotes" is a private field/);
  await expect(failure).rejects.toThrow(/plugin::users-permissions\.user: only content types of the site/);
});
