#!/usr/bin/env node
/**
 * `npm run demo`: builds the plugin and the playground, starts the speech-service emulator (unless
 * SPEECH_BASE_URL points elsewhere) and Strapi on SQLite, creates an admin user, seeds sample
 * articles in English and Arabic, and prints where to go. Ctrl-C stops everything it started.
 *
 * Environment: SPEECH_BASE_URL, SPEECH_WEB_URL, SPEECH_API_KEY (a real service: no emulator),
 * PORT, PUBLIC_URL, DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD, EMULATOR_PORT, SPEECH_LOCALE_VOICES (default
 * `ar=ar-female-1,en=en-female-1`, so the Arabic sample is read in Arabic).
 * Flags: --reset (start from an empty database), --skip-build (reuse the last build).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const playground = path.join(root, 'playground');
const args = new Set(process.argv.slice(2));
const children = [];
const say = (message) => console.log(`[demo] ${message}`);

function ensureEnvFile() {
  const file = path.join(playground, '.env');
  if (existsSync(file)) return;
  const secret = () => randomBytes(16).toString('base64');
  const template = readFileSync(path.join(playground, '.env.example'), 'utf8');
  const filled = template
    .split('\n')
    .map((line) => (/=change-me/.test(line) ? line.replace(/change-me(-\d)?/g, () => secret()) : line))
    .join('\n');
  writeFileSync(file, filled);
  say('wrote playground/.env with fresh secrets');
}

/** The emulator's voices for the demo's two locales. */
const DEMO_LOCALE_VOICES = 'ar=ar-female-1,en=en-female-1';

/** Whether playground/.env gives `name` a value. */
function envFileSets(name) {
  const file = path.join(playground, '.env');
  if (!existsSync(file)) return false;
  return readFileSync(file, 'utf8')
    .split('\n')
    .some((line) => line.trim().startsWith(`${name}=`));
}

function build() {
  const steps = [
    ['plugin', [path.join(root, 'node_modules/@strapi/sdk-plugin/bin/strapi-plugin.js'), 'build'], root],
    ['player', [path.join(root, 'scripts/build-player.cjs')], root],
    ['playground (server and admin)', [path.join(root, 'node_modules/@strapi/strapi/bin/strapi.js'), 'build'], playground],
  ];
  for (const [label, command, cwd] of steps) {
    const started = Date.now();
    const result = spawnSync(process.execPath, command, {
      cwd,
      stdio: 'inherit',
      env: { ...process.env, STRAPI_TELEMETRY_DISABLED: 'true' },
    });
    if (result.status !== 0) throw new Error(`building the ${label} failed`);
    say(`built ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** Starts a child and resolves with the first JSON line whose `event` matches. */
function startChild(label, command, options, event) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, command, { ...options, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    let buffer = '';
    let ready = false;
    child.stdout.on('data', (chunk) => {
      const text = chunk.toString();
      process.stdout.write(text);
      if (ready) return;
      buffer += text;
      for (const line of buffer.split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          const parsed = JSON.parse(line);
          if (parsed.event === event) {
            ready = true;
            resolve(parsed);
          }
        } catch {
          /* a log line */
        }
      }
    });
    child.once('exit', (code) => {
      if (!ready) reject(new Error(`${label} exited with code ${code} before it was ready`));
    });
  });
}

async function json(url, method = 'GET', body, token) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function ensureAdmin(url, email, password) {
  const init = await json(`${url}/admin/init`);
  if (!init.body?.data?.hasAdmin) {
    const created = await json(`${url}/admin/register-admin`, 'POST', { firstname: 'Demo', lastname: 'Editor', email, password });
    if (created.status >= 300) throw new Error(`could not create the admin user: ${JSON.stringify(created.body)}`);
    say(`created admin user ${email}`);
    return created.body.data.token;
  }
  const login = await json(`${url}/admin/login`, 'POST', { email, password });
  if (login.status >= 300) {
    say(`an admin user already exists with other credentials; log in with those, or run \`npm run demo -- --reset\` to start over`);
    return null;
  }
  say(`reusing existing admin user ${email} (database kept; --reset starts over)`);
  return login.body.data.token;
}

const paragraph = (text) => ({ type: 'paragraph', children: [{ type: 'text', text }] });

async function seed(url, token) {
  const articles = '/content-manager/collection-types/api::article.article';
  const existing = await json(`${url}${articles}?page=1&pageSize=1`, 'GET', undefined, token);
  if ((existing.body?.pagination?.total ?? 0) > 0) {
    say('sample content already there; not seeding again');
    return;
  }
  const english = await json(
    `${url}${articles}?locale=en`,
    'POST',
    {
      title: 'Why narrated articles keep readers listening',
      summary: 'Audio versions let readers follow a story on the move.',
      body: [
        { type: 'heading', level: 2, children: [{ type: 'text', text: 'Listening on the move' }] },
        paragraph('Many readers open an article on the bus and finish it while walking. A narrated version lets them keep going.'),
        paragraph('Subtitles follow the voice sentence by sentence, so nobody loses their place.'),
      ],
    },
    token
  );
  const documentId = english.body.data.documentId;
  await json(
    `${url}${articles}/${documentId}?locale=ar`,
    'PUT',
    {
      title: 'لماذا تجذب المقالات المسموعة القراء',
      summary: 'تتيح النسخ الصوتية للقراء متابعة القصة أثناء التنقل.',
      body: [paragraph('يفتح كثير من القراء المقال في الحافلة ويكملونه أثناء المشي. النسخة المسموعة تتيح لهم المتابعة.')],
    },
    token
  );
  await json(`${url}${articles}/${documentId}/actions/publish?locale=en`, 'POST', {}, token);
  await json(`${url}${articles}/${documentId}/actions/publish?locale=ar`, 'POST', {}, token);
  await json(
    `${url}${articles}?locale=en`,
    'POST',
    {
      title: 'A draft waiting for review',
      summary: 'Drafts are not narrated until they are published.',
      body: [paragraph('This article is still a draft, so it has not been sent for narration.')],
    },
    token
  );
  await json(
    `${url}/content-manager/collection-types/api::page.page`,
    'POST',
    {
      title: 'About this site',
      content: '# About\n\nPages have no draft state: **saving** one sends it for narration.',
    },
    token
  );
  say('seeded two published articles (English and Arabic locales of one document), a draft and a page');
}

async function main() {
  if (args.has('--reset')) {
    rmSync(path.join(playground, '.tmp'), { recursive: true, force: true });
    say('reset: removed the playground database');
  }
  mkdirSync(path.join(playground, 'public', 'uploads'), { recursive: true });
  ensureEnvFile();
  if (!args.has('--skip-build')) build();

  const env = { ...process.env, STRAPI_TELEMETRY_DISABLED: 'true' };
  // The Arabic sample is read by an Arabic voice, unless the caller chose voices per locale
  // (in the environment, or in playground/.env, which Strapi reads and an env value would hide).
  if (env.SPEECH_LOCALE_VOICES === undefined && !envFileSets('SPEECH_LOCALE_VOICES')) {
    env.SPEECH_LOCALE_VOICES = DEMO_LOCALE_VOICES;
  }
  if (!process.env.SPEECH_BASE_URL) {
    const emulatorPort = process.env.EMULATOR_PORT ?? '4010';
    const apiKey = process.env.SPEECH_API_KEY ?? 'emulator-dev-key';
    const listening = await startChild(
      'emulator',
      [path.join(root, 'emulator/src/main.mjs'), '--port', emulatorPort, '--api-keys', apiKey],
      { cwd: root, env },
      'listening'
    );
    Object.assign(env, { SPEECH_BASE_URL: listening.url, SPEECH_WEB_URL: listening.webUrl ?? listening.url, SPEECH_API_KEY: apiKey });
    say(`speech-service emulator at ${listening.url}`);
  } else {
    say(`using the speech service at ${process.env.SPEECH_BASE_URL} (no emulator)`);
  }

  const ready = await startChild('strapi', [path.join(root, 'scripts/playground.cjs'), 'start'], { cwd: playground, env }, 'strapi-ready');
  const port = process.env.PORT ?? '1337';
  const localUrl = `http://127.0.0.1:${port}`;
  const email = process.env.DEMO_ADMIN_EMAIL ?? 'admin@example.com';
  const password = process.env.DEMO_ADMIN_PASSWORD ?? 'Admin-Passw0rd!';
  const token = await ensureAdmin(localUrl, email, password);
  if (token) await seed(localUrl, token);

  console.log(`
  Strapi admin:  ${ready.url}/admin
  Log in with:   ${email} / ${password}
  Narrations:    ${ready.url}/api/speech/narrations/<articleId>
  Speech API:    ${env.SPEECH_BASE_URL}
  Ctrl-C stops everything.
`);
}

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  // Once every child is gone nothing holds this process: it ends with `code`. A child that ignores
  // SIGTERM (Strapi finishing its shutdown) is killed after 15 s.
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  }
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

main().catch((error) => {
  console.error(`[demo] ${error.message}`);
  stopAll(1);
});
