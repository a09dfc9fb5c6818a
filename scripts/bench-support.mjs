/**
 * What the bench scripts share: cleanup of everything they start (on success, error and signals),
 * child processes that announce themselves with a JSON line, JSON requests, the build step, the
 * playground Strapi with its emulator and environment, the benches' articles. Figures and tables are
 * in bench/figures.mjs. Not a bench itself.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Ends the process at once with this code (after a signal, a usage error, or at the very end). */
export const leave = process.exit.bind(process);

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const require = createRequire(import.meta.url);

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The value after `--name` in argv, or undefined. */
export function optionOf(argv, name) {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : undefined;
}

/** The number after `--name` in argv; `fallback` without the option (NaN when its value is no number). */
export function numberOption(argv, name, fallback) {
  const value = optionOf(argv, name);
  return value === undefined ? fallback : Number(value);
}

// ---------------------------------------------------------------------------------------------
// Cleanup: every process and folder a bench makes is registered here, undone in reverse order,
// at the end, on an error and on Ctrl-C / SIGTERM.

const cleanups = [];
let cleaning = null;
let sayCleanup = (message) => console.log(message);

/** Registers `fn` to run at cleanup; returns a function that runs it now (once) instead. */
export function onCleanup(label, fn) {
  const entry = { label, fn };
  cleanups.push(entry);
  return async () => {
    const index = cleanups.indexOf(entry);
    if (index < 0) return;
    cleanups.splice(index, 1);
    await fn();
  };
}

export function cleanupAll() {
  cleaning ??= (async () => {
    while (cleanups.length) {
      const { label, fn } = cleanups.pop();
      try {
        await fn();
      } catch (error) {
        sayCleanup(`cleanup of ${label}: ${error.message}`);
      }
    }
  })();
  return cleaning;
}

/** On SIGINT, SIGTERM or SIGHUP: clean up, then leave with 130. */
export function cleanUpOnSignals(say) {
  sayCleanup = say;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      say(`${signal}: stopping and cleaning up`);
      cleanupAll().finally(() => leave(130));
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Processes and requests

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a Node child; resolves when a stdout JSON line satisfies `ready`. Registered for cleanup.
 * `onLine`, if given, sees every stdout line (the ring buffer of the log keeps only the last 16 kB).
 */
async function startChild(label, args, options, ready, onLine) {
  const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (text) => (log = (log + text).slice(-16_000));
  child.stderr.on('data', (chunk) => keep(chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = onCleanup(`${label} (pid ${child.pid})`, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.kill('SIGTERM');
    await exited;
    clearTimeout(timer);
  });
  const info = await new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error(`${label} did not start in 180 s:\n${log}`)), 180_000);
    const onExit = (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with code ${code}:\n${log}`));
    };
    child.once('exit', onExit);
    lines.on('line', (line) => {
      keep(`${line}\n`);
      onLine?.(line);
      if (!line.startsWith('{')) return;
      try {
        const parsed = JSON.parse(line);
        if (ready(parsed)) {
          clearTimeout(timer);
          child.off('exit', onExit);
          resolve(parsed);
        }
      } catch {
        /* a log line */
      }
    });
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  return { pid: child.pid, info, stop };
}

/** The emulator (emulator/src/main.mjs) on free ports with these extra arguments; `info.url`, `info.webUrl`. */
export function startEmulator(apiKey, args = []) {
  return startChild(
    'emulator',
    [path.join(root, 'emulator/src/main.mjs'), '--port', '0', '--web-port', '0', '--api-keys', apiKey, ...args],
    { env: { ...process.env } },
    (line) => line.event === 'listening'
  );
}

/** The playground Strapi (scripts/playground.cjs start) in `workDir` with `env`; resolves once it listens. */
export function startPlayground(workDir, env, { nodeArgs = [], onLine } = {}) {
  return startChild(
    'strapi',
    [...nodeArgs, path.join(root, 'scripts/playground.cjs'), 'start'],
    { cwd: workDir, env },
    (line) => line.event === 'strapi-ready',
    onLine
  );
}

/** A fresh folder for a playground Strapi (public/uploads/, tmp/), removed at cleanup or by `remove()`. */
export function playgroundWorkDir(prefix) {
  const workDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const remove = onCleanup('work folder', () => rmSync(workDir, { recursive: true, force: true }));
  mkdirSync(path.join(workDir, 'public', 'uploads'), { recursive: true });
  mkdirSync(path.join(workDir, 'tmp'));
  return { workDir, remove };
}

/** The plugin's settings a bench measures at their defaults, whatever the caller's shell says. */
const DEFAULTS_MEASURED = ['SPEECH_POLL_INTERVAL_MS', 'SPEECH_LEASE_MS', 'SPEECH_MAX_IN_FLIGHT', 'SPEECH_CONTENT_TYPES'];

/**
 * The environment of a playground Strapi of the benches: production mode, no admin panel, files in
 * `workDir` (public/, tmp/, data.db), throwaway secrets, the speech plugin pointed at the emulator
 * with its default worker tick, lease, in-flight limit and content types (then `extra`).
 */
export function playgroundEnv({ workDir, port, apiKey, emulator, extra = {} }) {
  const url = `http://127.0.0.1:${port}`;
  const callers = Object.fromEntries(Object.entries(process.env).filter(([name]) => !DEFAULTS_MEASURED.includes(name)));
  return {
    ...callers,
    NODE_ENV: 'production',
    TZ: 'UTC',
    STRAPI_TELEMETRY_DISABLED: 'true',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    PUBLIC_DIR: path.join(workDir, 'public'),
    SERVE_ADMIN_PANEL: 'false',
    DATABASE_CLIENT: 'sqlite',
    DATABASE_FILENAME: path.join(workDir, 'data.db'),
    APP_KEYS: 'bench-1,bench-2',
    API_TOKEN_SALT: 'bench',
    ADMIN_JWT_SECRET: 'bench-admin-jwt',
    TRANSFER_TOKEN_SALT: 'bench',
    JWT_SECRET: 'bench-jwt',
    ENCRYPTION_KEY: 'bench-encryption',
    SPEECH_API_KEY: apiKey,
    SPEECH_BASE_URL: emulator.info.url,
    SPEECH_WEB_URL: emulator.info.webUrl,
    TMPDIR: path.join(workDir, 'tmp'),
    ...extra,
  };
}

export async function json(url, method, body, token) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: response.status, body: parsed };
}

/**
 * What a playground Strapi of a bench runs beside, in `workDir`: the emulator started with
 * `emulatorArgs`, a free port and the environment (playgroundEnv, then `extra`); `start()` starts
 * Strapi on them (again after a stop), with startPlayground's options.
 */
export async function playgroundAround({ workDir, apiKey, emulatorArgs = [], extra = {} }) {
  const emulator = await startEmulator(apiKey, emulatorArgs);
  const port = await freePort();
  const env = playgroundEnv({ workDir, port, apiKey, emulator, extra });
  return { emulator, port, url: `http://127.0.0.1:${port}`, env, start: (options) => startPlayground(workDir, env, options) };
}

/** A bench's log line: `[label] message`. */
export const sayAs = (label) => (message) => console.log(`[${label}] ${message}`);

/** An article of the playground's type, as the benches create them: a title, a summary and two paragraphs. */
export function benchArticle(label, { summary, firstParagraph }) {
  const paragraph = (text) => ({ type: 'paragraph', children: [{ type: 'text', text }] });
  return {
    title: `Bench article ${label}`,
    summary,
    body: [paragraph(firstParagraph), paragraph('Paragraph two: a few more words for the speech service to read aloud.')],
  };
}

/** The narration rows of these documents, as the list view asks for them (`POST /speech/narrations/statuses`). */
export async function narrationStatuses({ url, token }, contentType, documentIds) {
  const res = await json(`${url}/speech/narrations/statuses`, 'POST', { contentType, documentIds }, token);
  if (res.status !== 200) throw new Error(`statuses failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** The first admin (registered on an empty database) or, with `registered`, a login; returns the token. */
export async function adminToken(url, credentials, { registered = false } = {}) {
  const auth = registered
    ? await json(`${url}/admin/login`, 'POST', credentials)
    : await json(`${url}/admin/register-admin`, 'POST', { firstname: 'Bench', lastname: 'Admin', ...credentials });
  const token = auth.body?.data?.token;
  if (!token) throw new Error(`admin sign-in failed: ${auth.status} ${JSON.stringify(auth.body)}`);
  return token;
}

/** Content Manager calls, as the admin panel makes them. */
export function contentManager(url, token, uid) {
  const base = `${url}/content-manager/collection-types/${uid}`;
  const call = async (what, method, address, body) => {
    const res = await json(address, method, body, token);
    if (res.status >= 300) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return {
    create: async (data) => (await call('create', 'POST', base, data)).data,
    update: async (documentId, data) => (await call('update', 'PUT', `${base}/${documentId}`, data)).data,
    publish: async (documentId) => (await call('publish', 'POST', `${base}/${documentId}/actions/publish`, {})).data,
    bulkPublish: (documentIds) => call('bulk publish', 'POST', `${base}/actions/bulkPublish`, { documentIds }),
  };
}

export async function waitFor(probe, { timeoutMs, intervalMs = 20, what }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** VmRSS and VmHWM (peak) of a process, in bytes, from /proc/<pid>/status. */
export function memoryOf(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
}

// ---------------------------------------------------------------------------------------------
// Build, and Strapi in the bench's process

/** With `--build` in argv: builds the plugin and the playground; then checks that both are built. */
export function ensureBuilt(argv, say) {
  if (argv.includes('--build')) {
    for (const [label, args] of [
      ['plugin', [path.join(root, 'node_modules/@strapi/sdk-plugin/bin/strapi-plugin.js'), 'build']],
      ['player', [path.join(root, 'scripts/build-player.cjs')]],
      ['playground', [path.join(root, 'scripts/playground.cjs'), 'compile']],
    ]) {
      say(`building ${label}...`);
      const built = spawnSync(process.execPath, args, {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, STRAPI_TELEMETRY_DISABLED: 'true' },
      });
      if (built.status !== 0) throw new Error(`building the ${label} failed`);
    }
  }
  if (!existsSync(path.join(root, 'dist/server/index.js')) || !existsSync(path.join(root, 'playground/dist'))) {
    throw new Error(
      'build first: node node_modules/@strapi/sdk-plugin/bin/strapi-plugin.js build && node scripts/playground.cjs compile (or pass --build)'
    );
  }
}

/**
 * The playground Strapi loaded inside the bench's own Node process (createStrapi().load(), as
 * tests/integration/query-plans.test.ts does), with `env` as its environment; destroyed at cleanup.
 */
export async function loadStrapiHere(env) {
  Object.assign(process.env, env);
  const { createStrapi } = require('@strapi/strapi');
  const appDir = path.join(root, 'playground');
  // createStrapi adds SIGINT/SIGTERM handlers that destroy Strapi and end the process at once; the
  // bench's own handlers stop the emulator too, and destroy Strapi through the cleanup below.
  const before = { SIGINT: new Set(process.listeners('SIGINT')), SIGTERM: new Set(process.listeners('SIGTERM')) };
  const app = createStrapi({ appDir, distDir: path.join(appDir, 'dist'), autoReload: false, serveAdminPanel: false });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    for (const listener of process.listeners(signal)) if (!before[signal].has(listener)) process.removeListener(signal, listener);
  }
  const destroy = onCleanup('strapi in this process', () => app.destroy());
  await app.load();
  return { app, destroy };
}

/**
 * Runs a bench's `main` with cleanup on signals, an error printed as `[label] …` and exit code 1,
 * and everything it started cleaned up; then ends the process (Strapi loaded in the process may
 * leave handles open: timers, pools).
 */
export function runBench(label, main, say) {
  cleanUpOnSignals(say);
  main()
    .catch((error) => {
      console.error(`[${label}] ${error.stack ?? error}`);
      process.exitCode = 1;
    })
    .finally(async () => {
      await cleanupAll();
      leave(process.exitCode ?? 0);
    });
}
