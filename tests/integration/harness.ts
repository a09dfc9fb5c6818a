import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  mkdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import Database from 'better-sqlite3';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startEmulatorProcess, type EmulatorProcess } from '../emulator/spawn-emulator';

/**
 * Boots the real playground Strapi (as a child process, exactly as `npm run demo` does) with the
 * plugin loaded from this repository, against a fresh emulator. Each test file gets its own
 * database, uploads folder and ports, so files can run one after another without sharing state.
 */

const ROOT = path.resolve(__dirname, '..', '..');
export const EMULATOR_API_KEY = 'integration-test-key';

/**
 * Waits out the last `marginMs` of a UTC day or month: a test that compares one day's or one
 * month's figures must take them all within it (the month's turn itself is budget.test.ts's).
 */
export async function outsideTurnOf(period: 'day' | 'month', marginMs: number): Promise<void> {
  const now = new Date();
  const next =
    period === 'day'
      ? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)
      : Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  const left = next - now.getTime();
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 1_000));
}

/**
 * Ports for the servers a test starts (Strapi, database servers), each jest worker in a range of its
 * own below the kernel's ephemeral ports (32768 and up, where port 0 and outgoing connections land):
 * with test files running side by side, a port found free and then bound a moment later is never
 * one that another worker found free meanwhile. Within a worker the range is walked from a random
 * point, so a port a previous file's server still holds is passed over, and one just handed out is
 * not handed out again before the walk comes round.
 */
const PORTS_PER_WORKER = 1000;
const FIRST_PORT = 20_000 + ((Number(process.env.JEST_WORKER_ID ?? 1) - 1) % 12) * PORTS_PER_WORKER;
let nextPort = Math.floor(Math.random() * PORTS_PER_WORKER);

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let tried = 0; tried < PORTS_PER_WORKER; tried++) {
    const port = FIRST_PORT + (nextPort++ % PORTS_PER_WORKER);
    if (await listens(port)) return port;
  }
  throw new Error(`no free port in ${FIRST_PORT}-${FIRST_PORT + PORTS_PER_WORKER - 1}`);
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined | null | false>,
  { timeoutMs = 30_000, intervalMs = 150, what = 'condition' } = {}
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`);
}

/**
 * The environment of a playground Strapi in its own folder (production mode, no admin panel, a
 * SQLite file there, throwaway secrets): tests that start Strapi by hand add their own keys.
 */
export function playgroundEnv(workDir: string, port: number | string): Record<string, string> {
  mkdirSync(path.join(workDir, 'public', 'uploads'), { recursive: true });
  return {
    NODE_ENV: 'production',
    STRAPI_TELEMETRY_DISABLED: 'true',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_DIR: path.join(workDir, 'public'),
    SERVE_ADMIN_PANEL: 'false',
    DATABASE_FILENAME: path.join(workDir, 'data.db'),
    APP_KEYS: 'a,b',
    API_TOKEN_SALT: 'x',
    ADMIN_JWT_SECRET: 'x',
    TRANSFER_TOKEN_SALT: 'x',
    JWT_SECRET: 'x',
    ENCRYPTION_KEY: 'x',
  };
}

/**
 * A SQLite database as the playground's first boot leaves it (Strapi's tables, roles and
 * permissions, the playground's locales, no admin yet), kept in the temporary folder for the build
 * it was made by. A stack on SQLite starts from a copy of it: Strapi then boots as on any later
 * start, about 3 s (a third of a boot) sooner, with nothing of another test in it.
 */
/** Read once a test file: the build does not change while it runs. */
let templatePath: string | undefined;
function templateDatabase(): string {
  templatePath ??= templateFor();
  return templatePath;
}

/** The template's path for the build on disk: the plugin's server bundle and the compiled playground. */
function templateFor(): string {
  const built = createHash('sha256').update(readFileSync(path.join(ROOT, 'dist', 'server', 'index.js')));
  const playgroundDist = path.join(ROOT, 'playground', 'dist');
  for (const entry of readdirSync(playgroundDist, { recursive: true, encoding: 'utf8' }).sort()) {
    const file = path.join(playgroundDist, entry);
    if (statSync(file).isFile()) built.update(`${entry}:${readFileSync(file).length}\n`);
  }
  return path.join(os.tmpdir(), `speech-playground-template-${built.digest('hex').slice(0, 16)}.db`);
}

/** Keeps a consistent copy of a live SQLite database as the template (written whole, then renamed into place). */
function keepAsTemplate(database: string, template: string) {
  const partial = `${template}.${process.pid}.partial`;
  rmSync(partial, { force: true });
  const source = new Database(database, { readonly: true });
  try {
    source.prepare('VACUUM INTO ?').run(partial);
  } finally {
    source.close();
  }
  renameSync(partial, template);
}

/** Strapi's environment beyond the harness's own; an undefined value removes an inherited variable. */
export type StrapiEnv = Record<string, string | undefined>;

export interface StackOptions {
  /** Extra environment for Strapi (plugin settings such as SPEECH_MAX_ATTEMPTS); a function sees the emulator's URLs. */
  env?: StrapiEnv | ((emulator: EmulatorProcess) => StrapiEnv);
  /** Extra CLI arguments for the emulator. */
  emulatorArgs?: string[];
  /** Start no emulator (tests of the plugin with the service down). */
  withoutEmulator?: boolean;
  /** A SQLite database to start from (upgrade tests): copied into the stack's folder first. */
  seedDatabase?: Buffer;
  /** Log in as this existing admin instead of registering the first one. */
  existingAdmin?: { email: string; password: string };
  /**
   * Serve GraphQL (the playground's GraphQL plugin). Off unless a test reads it: like most apps, the
   * stack then has no GraphQL, which the plugin must work without, and boots in 4 CPU-s, not 5.5.
   */
  graphql?: boolean;
}

export interface StrapiProcess {
  url: string;
  logs: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

/** Starts the playground (scripts/playground.cjs) and waits for its ready line. */
export async function launchStrapi(env: NodeJS.ProcessEnv, cwd: string): Promise<StrapiProcess> {
  let output = '';
  const proc: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'scripts', 'playground.cjs'), 'start'], {
    cwd, // no .env here: the test's environment is the whole configuration
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (chunk) => (output += chunk.toString()));
  proc.stderr!.on('data', (chunk) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Strapi did not start in 120 s:\n${output.slice(-4000)}`)), 120_000);
    const onData = () => {
      if (output.includes('"event":"strapi-ready"')) {
        clearTimeout(timer);
        proc.stdout!.off('data', onData);
        resolve();
      }
    };
    proc.stdout!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Strapi exited with code ${code} before it was ready:\n${output.slice(-4000)}`));
    });
  });
  return {
    url: `http://127.0.0.1:${env.PORT}`,
    logs: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
        proc.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        proc.kill(signal);
      });
    },
  };
}

export interface Stack {
  url: string;
  emulator: EmulatorProcess;
  adminToken: string;
  workDir: string;
  logs: () => string;
  /** fetch against Strapi. */
  request: (pathname: string, init?: RequestInit) => Promise<Response>;
  /** JSON request to an admin route with the admin token. */
  admin: <T = any>(method: string, pathname: string, body?: unknown) => Promise<{ status: number; body: T }>;
  /** JSON request to the emulator's control API. */
  control: <T = any>(method: string, pathname: string, body?: unknown) => Promise<T>;
  /** Stops Strapi (SIGTERM, or SIGKILL to simulate a crash) and starts it again on the same database. */
  restartStrapi: (env?: StrapiEnv, signal?: NodeJS.Signals) => Promise<void>;
  stopStrapi: (signal?: NodeJS.Signals) => Promise<void>;
  /** Another Strapi process on the same database and emulator (multi-instance tests). */
  startExtraInstance: (env?: StrapiEnv) => Promise<StrapiProcess>;
  stop: () => Promise<void>;
}

export async function jsonFetch(url: string, method: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: response.status, body: parsed as any };
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'speech-it-'));
  const publicDir = path.join(workDir, 'public');
  mkdirSync(path.join(publicDir, 'uploads'), { recursive: true });
  if (options.seedDatabase) writeFileSync(path.join(workDir, 'data.db'), options.seedDatabase);

  const emulator = options.withoutEmulator
    ? ({ url: 'http://127.0.0.1:9', webUrl: 'http://127.0.0.1:9', stop: async () => {} } as EmulatorProcess)
    : await startEmulatorProcess({ webPort: true, apiKeys: [EMULATOR_API_KEY], delayMs: 300, args: options.emulatorArgs ?? [] });
  // Strapi's port is picked once the emulator listens: the emulator takes any free port (0), and
  // could otherwise be given the one just picked for Strapi (seen once: Strapi refused to start).
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;

  let extraEnv = typeof options.env === 'function' ? options.env(emulator) : (options.env ?? {});

  const baseEnv = () => ({
    ...process.env,
    NODE_ENV: 'production',
    STRAPI_TELEMETRY_DISABLED: 'true',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    PUBLIC_DIR: publicDir,
    SERVE_ADMIN_PANEL: 'false',
    DATABASE_CLIENT: process.env.DATABASE_CLIENT ?? 'sqlite',
    DATABASE_FILENAME: path.join(workDir, 'data.db'),
    APP_KEYS: 'test-key-1,test-key-2',
    API_TOKEN_SALT: 'test-salt',
    ADMIN_JWT_SECRET: 'test-admin-jwt-secret',
    TRANSFER_TOKEN_SALT: 'test-transfer-salt',
    JWT_SECRET: 'test-jwt-secret',
    ENCRYPTION_KEY: 'test-encryption-key',
    SPEECH_API_KEY: EMULATOR_API_KEY,
    SPEECH_BASE_URL: emulator.url,
    SPEECH_WEB_URL: emulator.webUrl,
    SPEECH_POLL_INTERVAL_MS: '200',
    // An empty result answering the free check is held this long for a late audio (a minute by default).
    SPEECH_NO_AUDIO_GRACE_MS: '1000',
    PLAYGROUND_GRAPHQL: options.graphql ? 'true' : 'false',
    ...extraEnv,
  });

  let main: StrapiProcess | null = null;
  const extras: StrapiProcess[] = [];
  const database = path.join(workDir, 'data.db');
  const template = !options.seedDatabase && baseEnv().DATABASE_CLIENT === 'sqlite' ? templateDatabase() : null;
  const fromTemplate = template !== null && existsSync(template);
  if (fromTemplate) copyFileSync(template, database);

  async function startStrapi() {
    main = await launchStrapi(baseEnv(), workDir);
  }

  async function stopStrapi(signal: NodeJS.Signals = 'SIGTERM') {
    const proc = main;
    main = null;
    await proc?.stop(signal);
  }

  const credentials = options.existingAdmin ?? { email: 'editor@example.com', password: 'Editor-Passw0rd!' };
  let adminToken: string;
  try {
    await startStrapi();
    if (template && !fromTemplate) keepAsTemplate(database, template);
    const registered = options.existingAdmin
      ? await jsonFetch(`${url}/admin/login`, 'POST', credentials)
      : await jsonFetch(`${url}/admin/register-admin`, 'POST', { firstname: 'Test', lastname: 'Editor', ...credentials });
    if (registered.status !== 200 && registered.status !== 201) {
      throw new Error(`admin registration failed: ${registered.status} ${JSON.stringify(registered.body)}`);
    }
    adminToken = registered.body.data.token;
  } catch (error) {
    // No stack for the test to stop: the emulator left running would keep jest waiting for ever.
    await stopStrapi('SIGKILL');
    await emulator.stop();
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }

  const stack: Stack = {
    url,
    emulator,
    adminToken,
    workDir,
    logs: () => main?.logs() ?? '',
    request: (pathname, init) => fetch(`${url}${pathname}`, init),
    admin: (method, pathname, body) => jsonFetch(`${url}${pathname}`, method, body, { authorization: `Bearer ${stack.adminToken}` }),
    control: async (method, pathname, body) => (await jsonFetch(`${emulator.url}/__control${pathname}`, method, body)).body,
    async restartStrapi(env, signal) {
      await stopStrapi(signal);
      if (env) extraEnv = { ...extraEnv, ...env };
      await startStrapi();
      const login = await jsonFetch(`${url}/admin/login`, 'POST', credentials);
      stack.adminToken = login.body.data.token;
    },
    stopStrapi,
    async startExtraInstance(env = {}) {
      const extraPort = await freePort();
      const instance = await launchStrapi(
        { ...baseEnv(), PORT: String(extraPort), PUBLIC_URL: `http://127.0.0.1:${extraPort}`, ...env },
        workDir
      );
      extras.push(instance);
      return instance;
    },
    async stop() {
      await Promise.all(extras.map((instance) => instance.stop()));
      await stopStrapi();
      await emulator.stop();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
  return stack;
}

/** Content-manager helpers: the same calls the admin panel makes. */
export function contentManager(stack: Stack, uid: string) {
  const base = `/content-manager/collection-types/${uid}`;
  return {
    async create(data: Record<string, unknown>, locale?: string) {
      const res = await stack.admin('POST', `${base}${locale ? `?locale=${locale}` : ''}`, data);
      if (res.status >= 300) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data as { documentId: string; id: number };
    },
    async update(documentId: string, data: Record<string, unknown>, locale?: string) {
      const res = await stack.admin('PUT', `${base}/${documentId}${locale ? `?locale=${locale}` : ''}`, data);
      if (res.status >= 300) throw new Error(`update failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async publish(documentId: string, locale?: string) {
      const res = await stack.admin('POST', `${base}/${documentId}/actions/publish${locale ? `?locale=${locale}` : ''}`, {});
      if (res.status >= 300) throw new Error(`publish failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async unpublish(documentId: string, locale?: string) {
      const res = await stack.admin('POST', `${base}/${documentId}/actions/unpublish${locale ? `?locale=${locale}` : ''}`, {});
      if (res.status >= 300) throw new Error(`unpublish failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async remove(documentId: string, locale?: string) {
      const res = await stack.admin('DELETE', `${base}/${documentId}${locale ? `?locale=${locale}` : ''}`);
      if (res.status >= 300) throw new Error(`delete failed: ${res.status} ${JSON.stringify(res.body)}`);
    },
  };
}

/** A Strapi blocks body of a few paragraphs. */
export function blocks(...paragraphs: string[]) {
  return paragraphs.map((text) => ({ type: 'paragraph', children: [{ type: 'text', text }] }));
}

/**
 * Another admin, in `roleId`, invited and registered the way the admin panel does it; returns
 * their token and a JSON caller with it (permission tests act as them).
 */
export async function createAdmin(stack: Stack, email: string, roleId: number) {
  const user = await stack.admin('POST', '/admin/users', { firstname: email.split('@')[0], lastname: 'Test', email, roles: [roleId] });
  if (user.status !== 201) throw new Error(`user: ${user.status} ${JSON.stringify(user.body)}`);
  const registered = await jsonFetch(`${stack.url}/admin/register`, 'POST', {
    registrationToken: user.body.data.registrationToken,
    userInfo: { firstname: 'T', lastname: 'User', password: 'Passw0rd-For-Tests!' },
  });
  const token = registered.body?.data?.token as string | undefined;
  if (!token) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  return {
    token,
    call: (method: string, pathname: string, body?: unknown) =>
      jsonFetch(`${stack.url}${pathname}`, method, body, { authorization: `Bearer ${token}` }),
  };
}

/** The id of one of Strapi's seeded admin roles (`strapi-author`, `strapi-editor`). */
export async function roleByCode(stack: Stack, code: string): Promise<number> {
  const roles = await stack.admin('GET', '/admin/roles');
  const role = (roles.body.data as Array<{ id: number; code: string }>).find((candidate) => candidate.code === code);
  if (!role) throw new Error(`no role ${code}`);
  return role.id;
}

/**
 * A role's permissions on the playground's articles (every Content Manager action, English and
 * Arabic, under `conditions`) and the plugin's narrate and transcribe, set explicitly so a test does
 * not depend on Strapi's seeded defaults.
 */
export async function setArticleRolePermissions(stack: Stack, roleId: number, conditions: string[]) {
  const cm = ['read', 'create', 'update', 'delete', 'publish'].map((action) => ({
    action: `plugin::content-manager.explorer.${action}`,
    subject: 'api::article.article',
    properties:
      action === 'delete' || action === 'publish'
        ? { locales: ['en', 'ar'] }
        : { fields: ['title', 'summary', 'body'], locales: ['en', 'ar'] },
    conditions,
  }));
  const speech = ['plugin::speech.narrate', 'plugin::speech.transcribe'].map((action) => ({
    action,
    subject: null,
    properties: {},
    conditions: [],
  }));
  const response = await stack.admin('PUT', `/admin/roles/${roleId}/permissions`, { permissions: [...cm, ...speech] });
  if (response.status !== 200) throw new Error(`permissions of role ${roleId}: ${response.status} ${JSON.stringify(response.body)}`);
}
