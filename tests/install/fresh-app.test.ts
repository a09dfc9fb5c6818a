import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { startEmulatorProcess, type EmulatorProcess } from '../emulator/spawn-emulator';
import { blocks, freePort, jsonFetch, waitFor } from '../integration/harness';
import { looksLikeMp3 } from '../unit/audio/mp3-fixtures';
import { envNamesRead, INSTALL_PAGE, insertAfterLine, readmeBlock, warnedPackages } from './readme-blocks';
import { strapiVersionsUnderTest, type VersionUnderTest } from './strapi-versions';

/**
 * What a new user does, from the README: pack this repository, make a Strapi 5 app with
 * create-strapi's TypeScript template (offline: the template is bundled, only the npm registry is
 * used), install it with the tarball, paste the README's snippets, build, start,
 * publish an article against the emulator and hear it on the public route. The snippets are read
 * from README.md by their `install-check` markers, so this fails when the README and the package
 * drift apart.
 *
 * It runs on two Strapi versions (tests/install/strapi-versions.ts): the floor of the plugin's
 * `@strapi/strapi` peer range, and the newest 5.x the registry can install, so the range claims
 * what is tested. One tarball serves both; the two apps install side by side, then each is built,
 * started and tried in turn.
 *
 * Slow by nature (about 3 min of `npm install` per app, better-sqlite3 compiling itself, and 1 min
 * of `strapi build` each); only npm's own download cache is shared with other runs.
 */

jest.setTimeout(30 * 60_000);

const ROOT = path.resolve(__dirname, '..', '..');
/** The install page users follow (docs/install.md): its `install-check` snippets are what this pastes. */
const README = readFileSync(path.join(ROOT, INSTALL_PAGE), 'utf8');
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
};
const API_KEY = 'fresh-app-key';
/** create-strapi's config/plugins.ts before 5.40 or so: no plugin configured. */
const EMPTY_PLUGINS_FILE = /^export default \(\) => \(\{\}\);?\s*$/;

/**
 * Runs a command to its end (`input`, if any, on its stdin): its stdout, and stdout and stderr as
 * they came; rejects with the end of its output when it fails.
 */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env, input?: string) {
  const timeoutMs = 15 * 60_000;
  return new Promise<{ stdout: string; output: string }>((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd, env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let output = '';
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const line = `${command} ${args.join(' ')}`;
      const where = workDir && cwd.startsWith(workDir) ? path.relative(workDir, cwd) || '.' : cwd;
      console.log(`[fresh app] ${where}: ${line}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (code === 0) resolve({ stdout, output });
      else reject(new Error(`${line} failed (${signal ?? code}) in ${cwd}:\n${output.slice(-6000)}`));
    });
  });
}

/**
 * The environment of the user's shell: none of this repository's test or speech settings leak in,
 * nor the npm_* variables `npm test` gives its scripts (a nested npm would take them as its own config).
 */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(SPEECH_|DATABASE_|PUBLIC_URL$|JEST_|EMULATOR_|npm_|INIT_CWD$)/i.test(name)) env[name] = value;
  }
  return { ...env, STRAPI_TELEMETRY_DISABLED: 'true', ...extra };
}

/**
 * A user's npm downloads better-sqlite3's prebuilt binary; this machine reaches no such host, so the
 * app's copy compiles, and without optimisation (appended after node-gyp's -O3, the last wins): a
 * third of the CPU (about 32 s against 104 here), for an app that runs a few queries.
 */
const UNOPTIMISED_NATIVE_BUILD = { CFLAGS: '-O0', CXXFLAGS: '-O0' };

/** Asked of the registry when jest collects this file, so that each version's tests carry its number. */
const VERSIONS = strapiVersionsUnderTest(PACKAGE.peerDependencies['@strapi/strapi'], userEnv());

interface FreshApp {
  dir: string;
  /** What npm printed installing the app with the tarball. */
  installOutput: string;
}

let workDir: string | undefined;
let tarball: { filename: string; files: string[] };
/** Each version's app, created and installed; started in beforeAll, awaited by that version's tests. */
const apps = new Map<string, Promise<FreshApp>>();

/**
 * create-strapi's app. When the registry has no create-strapi of this version, the app is made by
 * the newest one before it and upgraded to the version the way `@strapi/upgrade` does it: its
 * @strapi/* packages pinned, both where the app names them and, through `overrides`, where Strapi's
 * packages name each other with an open range (`@strapi/plugin-cloud` asks for `@strapi/admin
 * ^5.0.0`, which npm would otherwise fill with the newest admin beside the app's own).
 */
async function createApp(target: VersionUnderTest, dir: string) {
  mkdirSync(dir, { recursive: true });
  const options = ['--skip-cloud', '--no-example', '--typescript', '--use-npm', '--skip-db', '--no-git-init', '--no-install', '--no-run'];
  // Older makers have no --non-interactive and ask one question the options cannot answer (A/B testing): no.
  const help = (await run('npx', ['--yes', target.maker, '--help'], dir, userEnv())).stdout;
  if (help.includes('--non-interactive')) options.push('--non-interactive');
  await run('npx', ['--yes', target.maker, 'app', ...options], dir, userEnv(), 'n\n');
  const appDir = path.join(dir, 'app');
  if (target.pinned) {
    const file = path.join(appDir, 'package.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    const makerVersion = target.maker.slice(target.maker.lastIndexOf('@') + 1);
    const pinned = new Set(target.strapiPackages);
    for (const [name, range] of Object.entries<string>(manifest.dependencies)) {
      if (name.startsWith('@strapi/') && range === makerVersion) {
        manifest.dependencies[name] = target.version;
        pinned.add(name);
      }
    }
    manifest.overrides = Object.fromEntries([...pinned].sort().map((name) => [name, target.version]));
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    console.log(`[fresh app] strapi-${target.version}: made by ${target.maker}, pinned to ${target.version}:`, manifest.dependencies);
  }
  return appDir;
}

/**
 * The app's packages and the tarball in one `npm install`, as from a package.json naming both with
 * no lockfile: the harder case for sharing, since npm then places the plugin's own dependencies
 * and required peers before Strapi's (installing into an already installed app keeps what is there).
 */
async function installApp(appDir: string): Promise<FreshApp> {
  const { output } = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', path.join(workDir!, tarball.filename)],
    appDir,
    userEnv(UNOPTIMISED_NATIVE_BUILD)
  );
  return { dir: appDir, installOutput: output };
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'speech-fresh-app-'));
  const packed = JSON.parse((await run('npm', ['pack', '--json', '--pack-destination', workDir], ROOT)).stdout) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  tarball = { filename: packed[0].filename, files: packed[0].files.map((file) => file.path) };
  // One create-strapi at a time (npx shares one cache folder); each app installs as soon as it exists.
  let created: Promise<unknown> = Promise.resolve();
  for (const target of VERSIONS) {
    const appDir = created.then(() => createApp(target, path.join(workDir!, `strapi-${target.version}`)));
    created = appDir.catch(() => undefined);
    const ready = appDir.then(installApp);
    ready.catch(() => undefined); // reported by that version's tests
    apps.set(target.version, ready);
  }
});

afterAll(async () => {
  await Promise.allSettled(apps.values());
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

it('runs on the floor of the peer range and on a newer Strapi 5', () => {
  expect(VERSIONS[0].version).toBe(PACKAGE.peerDependencies['@strapi/strapi'].replace(/^\^/, ''));
  expect(VERSIONS.map((target) => target.version)).toEqual([...new Set(VERSIONS.map((target) => target.version))]);
});

it('packs what Strapi loads (the exports, strapi-server.js, strapi-admin.js), the README and LICENSE, and nothing of the tests, playground or emulator', () => {
  const files = new Set(tarball.files);
  expect(tarball.filename).toBe(`${PACKAGE.name}-${PACKAGE.version}.tgz`);
  for (const file of ['package.json', 'README.md', 'LICENSE', 'strapi-server.js', 'strapi-admin.js']) expect(files).toContain(file);
  // The root files re-export dist; the exports map points into dist (its `source` entries are for `strapi-plugin watch` only).
  for (const root of ['strapi-server.js', 'strapi-admin.js']) {
    const target = /require\('\.\/(.+?)'\)/.exec(readFileSync(path.join(ROOT, root), 'utf8'))![1];
    expect(files).toContain(`${target}/index.js`);
  }
  for (const [entry, conditions] of Object.entries(PACKAGE.exports)) {
    const targets = typeof conditions === 'string' ? { default: conditions } : conditions;
    for (const [condition, target] of Object.entries(targets)) {
      if (condition !== 'source')
        expect(`${entry} ${condition} ${files.has(target.replace(/^\.\//, '')) ? 'shipped' : target}`).toBe(
          `${entry} ${condition} shipped`
        );
    }
  }
  // Every relative import of a shipped declaration file resolves to a shipped one (the server's and
  // the admin's .d.ts import the contracts, which only the build's declaration step emits).
  const unresolved = tarball.files
    .filter((file) => file.endsWith('.d.ts'))
    .flatMap((file) =>
      [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)]
        .map((match) => path.posix.join(path.posix.dirname(file), match[1]))
        .filter((target) => !['.d.ts', '/index.d.ts'].some((suffix) => files.has(`${target}${suffix}`)))
        .map((target) => `${file} -> ${target}`)
    );
  expect(unresolved).toEqual([]);
  expect([...files].filter((file) => file.startsWith('dist/shared/contracts/')).length).toBeGreaterThanOrEqual(6);
  const strays = tarball.files.filter((file) => /^(tests|playground|emulator|scripts|docs|\.ci|admin|server)\//.test(file));
  expect(strays).toEqual([]);
  // The README's commands name the tarball npm pack writes.
  expect(readmeBlock(README, 'pack')).toContain(`npm pack             # writes ${tarball.filename}`);
  expect(readmeBlock(README, 'pack')).toContain(`npm install /path/to/${tarball.filename}`);
});

it('lists in the README every variable its snippets read, and reads every variable it lists', () => {
  const listed = readmeBlock(README, 'env')
    .split('\n')
    .map((line) => line.split('=')[0]);
  const read = envNamesRead(readmeBlock(README, 'plugins-key') + readmeBlock(README, 'server-url'));
  expect([...read].sort()).toEqual([...listed].sort());
  for (const variant of ['plugins-file-ts', 'plugins-file-js'])
    expect([...envNamesRead(readmeBlock(README, variant))].sort()).toEqual([...envNamesRead(readmeBlock(README, 'plugins-key'))].sort());
});

describe.each(VERSIONS)('on Strapi $version ($role)', (target) => {
  let app: FreshApp;
  let emulator: EmulatorProcess | undefined;
  let strapi: ChildProcess | undefined;
  let strapiOutput = '';
  /** Where `name` resolves from a folder of the app (a file path, so two copies of a package differ). */
  const resolveFrom = (from: string, name: string) => createRequire(path.join(from, 'package.json')).resolve(name);
  const packageDir = (from: string, name: string) =>
    path.dirname(createRequire(path.join(from, 'package.json')).resolve(`${name}/package.json`));

  beforeAll(async () => {
    app = await apps.get(target.version)!;
  });

  afterAll(async () => {
    if (strapi && strapi.exitCode === null && strapi.signalCode === null) {
      const exited = new Promise((resolve) => strapi!.once('exit', resolve));
      strapi.kill('SIGTERM');
      const timer = setTimeout(() => strapi!.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    await emulator?.stop();
    if (app) rmSync(path.dirname(app.dir), { recursive: true, force: true });
  });

  it(`installs Strapi ${target.version} itself, and its admin`, () => {
    const strapiDir = packageDir(app.dir, '@strapi/strapi');
    expect(JSON.parse(readFileSync(path.join(strapiDir, 'package.json'), 'utf8')).version).toBe(target.version);
    expect(JSON.parse(readFileSync(path.join(packageDir(strapiDir, '@strapi/admin'), 'package.json'), 'utf8')).version).toBe(
      target.version
    );
  });

  it('installs without a warning about this plugin, and the README explains every package npm warns about', () => {
    const warned = warnedPackages(app.installOutput);
    expect(warned.installScripts.length).toBeGreaterThan(0); // the app's own better-sqlite3 at least: the parsing still works
    const ours = [PACKAGE.name, ...Object.keys(PACKAGE.dependencies)];
    expect([...warned.installScripts, ...warned.engines].filter((name) => ours.includes(name))).toEqual([]);
    const explanation = README.slice(README.indexOf('**What npm prints on a fresh install**'), README.indexOf('### 2. Set the variables'));
    expect([...warned.installScripts, ...warned.engines].filter((name) => !explanation.includes(`\`${name}\``))).toEqual([]);
  });

  it("has one copy of @strapi/utils, Strapi's own, which the plugin uses (npm ls)", async () => {
    const env = userEnv();
    const tree = await run('npm', ['ls', '@strapi/utils', '--all'], app.dir, env);
    console.log(`[fresh app] Strapi ${target.version}: npm ls @strapi/utils --all\n${tree.stdout}`);
    const copies = new Set(
      (await run('npm', ['ls', '@strapi/utils', '--all', '--parseable'], app.dir, env)).stdout.split('\n').filter(Boolean)
    );
    expect([...copies]).toEqual([path.join(app.dir, 'node_modules', '@strapi', 'utils')]);
    const versions = new Set([...tree.stdout.matchAll(/@strapi\/utils@(\S+)/g)].map((match) => match[1]));
    expect([...versions]).toEqual([target.version]);
    const plugin = path.join(app.dir, 'node_modules', PACKAGE.name);
    expect(resolveFrom(plugin, '@strapi/utils')).toBe(resolveFrom(packageDir(app.dir, '@strapi/strapi'), '@strapi/utils'));
  });

  it("uses Strapi's own copy of every package it declares as a peer", () => {
    const plugin = path.join(app.dir, 'node_modules', PACKAGE.name);
    const strapiDir = packageDir(app.dir, '@strapi/strapi');
    const adminDir = packageDir(strapiDir, '@strapi/admin');
    // Each peer against the Strapi package that uses it: the server's from @strapi/strapi, the admin's from @strapi/admin.
    const owner: Record<string, string> = { '@strapi/strapi': app.dir, '@strapi/utils': strapiDir };
    const differing = Object.keys(PACKAGE.peerDependencies)
      .map((name) => ({ name, ours: packageDir(plugin, name), strapis: packageDir(owner[name] ?? adminDir, name) }))
      .filter(({ ours, strapis }) => ours !== strapis);
    expect(differing).toEqual([]);
  });

  describe('set up as the README says', () => {
    let url: string;
    /** config/plugins.ts as create-strapi wrote it. */
    let pluginsTemplate: string;

    beforeAll(async () => {
      const appDir = app.dir;
      emulator = await startEmulatorProcess({ webPort: true, apiKeys: [API_KEY], delayMs: 100 });
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      // .env: the README's variables, with this machine's service and address in place of the examples.
      const ours: Record<string, string> = {
        SPEECH_API_KEY: API_KEY,
        SPEECH_BASE_URL: emulator.url,
        SPEECH_WEB_URL: emulator.webUrl,
        PUBLIC_URL: url,
      };
      const env = readmeBlock(README, 'env')
        .split('\n')
        .map((line) => {
          const name = line.split('=')[0];
          return name in ours ? `${name}=${ours[name]}` : line;
        });
      appendFileSync(path.join(appDir, '.env'), `\n${env.join('\n')}\n`);
      // create-strapi before 5.3x leaves JWT_SECRET (users-permissions) out of .env: Strapi's first
      // `develop` writes one there, and `start` refuses to run without it. An app in use has it.
      if (!/^JWT_SECRET=/m.test(readFileSync(path.join(appDir, '.env'), 'utf8'))) {
        appendFileSync(path.join(appDir, '.env'), `JWT_SECRET=${randomBytes(16).toString('base64')}\n`);
      }
      const pluginsFile = path.join(appDir, 'config', 'plugins.ts');
      pluginsTemplate = readFileSync(pluginsFile, 'utf8');
      // Older templates' config/plugins.ts returns nothing: the README's whole file is for that case.
      if (EMPTY_PLUGINS_FILE.test(pluginsTemplate)) writeFileSync(pluginsFile, `${readmeBlock(README, 'plugins-file-ts')}\n`);
      // Newer ones configure users-permissions and upload: the README's key is merged beside them.
      else insertAfterLine(pluginsFile, /=> \(\{$/, readmeBlock(README, 'plugins-key'));
      insertAfterLine(path.join(appDir, 'config', 'server.ts'), /^\s*port: /, readmeBlock(README, 'server-url'));
      // The whole-file example is compiled by the same strict build (it is outside config/, so Strapi does not load it).
      mkdirSync(path.join(appDir, 'readme-example'));
      writeFileSync(path.join(appDir, 'readme-example', 'plugins.ts'), `${readmeBlock(README, 'plugins-file-ts')}\n`);
      writeFileSync(path.join(appDir, 'readme-example', 'plugins.js'), `${readmeBlock(README, 'plugins-file-js')}\n`);
      writeArticleType(appDir);

      const build = readmeBlock(README, 'build').split('\n');
      expect(build[0]).toBe('npm run build');
      await run('npm', ['run', 'build'], appDir, userEnv({ NODE_ENV: 'production' }));

      expect(build[1]).toMatch(/^npm run start\b/);
      expect(JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8')).scripts.start).toBe('strapi start');
      // `strapi start` itself (what `npm run start` runs), so that this process holds its PID.
      strapi = spawn(process.execPath, [path.join(appDir, 'node_modules/@strapi/strapi/bin/strapi.js'), 'start'], {
        cwd: appDir,
        env: userEnv({ HOST: '127.0.0.1', PORT: String(port), NODE_ENV: 'production' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      strapi.stdout!.on('data', (chunk) => (strapiOutput += chunk));
      strapi.stderr!.on('data', (chunk) => (strapiOutput += chunk));
      const exited = new Promise<never>((_, reject) =>
        strapi!.once('exit', (code) => reject(new Error(`strapi start exited (${code}):\n${strapiOutput.slice(-6000)}`)))
      );
      exited.catch(() => {});
      await Promise.race([
        exited,
        waitFor(async () => (await fetch(`${url}/_health`)).status === 204, { timeoutMs: 120_000, what: 'strapi start' }),
      ]);
    });

    it('builds the TypeScript snippet, the whole file and the JavaScript variant to the same plugin config', async () => {
      // The strict build compiled config/plugins.ts (merged snippet) and readme-example/plugins.ts.
      const evaluate = `
        process.loadEnvFile('.env'); // as Strapi reads it at start
        const { env } = require('@strapi/utils');
        const load = (file) => { const m = require(file); return (m.default ?? m)({ env }).speech; };
        console.log(JSON.stringify([load('./dist/config/plugins.js'), load('./dist/readme-example/plugins.js'), load('./readme-example/plugins.js')]));
      `;
      const [merged, wholeFile, javascript] = JSON.parse((await run(process.execPath, ['-e', evaluate], app.dir, userEnv())).stdout);
      expect(wholeFile).toEqual(merged);
      expect(javascript).toEqual(merged);
      expect(merged).toMatchObject({
        enabled: true,
        config: {
          apiKey: API_KEY,
          baseUrl: emulator!.url,
          webUrl: emulator!.webUrl,
          localeVoices: { ar: 'ar-female-1', en: 'en-female-1' },
        },
      });
      const pluginsFile = readFileSync(path.join(app.dir, 'config', 'plugins.ts'), 'utf8');
      if (EMPTY_PLUGINS_FILE.test(pluginsTemplate)) {
        expect(pluginsFile).toBe(`${readmeBlock(README, 'plugins-file-ts')}\n`);
      } else {
        // The template's own plugin settings are still there.
        expect(pluginsFile).toContain("'users-permissions': {");
        expect(pluginsFile).toContain('upload: {');
      }
    });

    it('narrates a published article and serves its MP3 on the public route', async () => {
      const admin = await jsonFetch(`${url}/admin/register-admin`, 'POST', {
        firstname: 'New',
        lastname: 'User',
        email: 'new.user@example.com',
        password: 'New-User-Passw0rd!',
      });
      expectSuccess('register the first admin', admin);
      const call = (method: string, pathname: string, body?: unknown) =>
        jsonFetch(`${url}${pathname}`, method, body, { authorization: `Bearer ${admin.body.data.token}` });

      // Settings -> Users & Permissions -> Roles -> Public: find and findOne on articles, as the README says.
      const roles = await call('GET', '/users-permissions/roles');
      const publicRole = roles.body.roles.find((role: { type: string }) => role.type === 'public');
      const role = (await call('GET', `/users-permissions/roles/${publicRole.id}`)).body.role;
      for (const action of ['find', 'findOne']) role.permissions['api::article'].controllers.article[action].enabled = true;
      const granted = await call('PUT', `/users-permissions/roles/${publicRole.id}`, {
        name: role.name,
        description: role.description,
        permissions: role.permissions,
      });
      expectSuccess('grant the Public role', granted);

      const created = await call('POST', '/content-manager/collection-types/api::article.article', {
        title: 'A first narration',
        summary: 'Installed from the tarball.',
        body: blocks('Every step came from the README.'),
      });
      expectSuccess('create an article', created);
      const { documentId } = created.body.data;
      const published = await call('POST', `/content-manager/collection-types/api::article.article/${documentId}/actions/publish`, {});
      expectSuccess('publish it', published);

      const narration = await waitFor(
        async () => {
          const response = await fetch(`${url}/api/speech/narrations/${documentId}`);
          const body = response.status === 200 ? ((await response.json()) as { status: string; voice: string }) : null;
          return body?.status === 'ready' ? body : null;
        },
        { timeoutMs: 90_000, intervalMs: 500, what: `the narration of ${documentId} (Strapi said:\n${strapiOutput.slice(-3000)})` }
      );
      expect(narration).toMatchObject({ status: 'ready', voice: 'en-female-1' });
      // The plugin throws @strapi/utils' errors; Strapi answers them as its own only when both use one
      // copy of @strapi/utils (with a second copy, `instanceof` fails and this is a 500).
      const unknown = await fetch(`${url}/api/speech/narrations/no-such-article-en`);
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: unknown }).error).toMatchObject({ status: 404, name: 'NotFoundError' });

      const { requests } = await emulator!.control<{ requests: Array<{ method: string; path: string; body?: unknown }> }>('requests');
      const submitted = requests.filter((request) => request.method === 'POST' && request.path === '/process-text');
      expect(submitted).toHaveLength(1);
      expect(JSON.stringify(submitted[0].body)).toContain('Every step came from the README.');

      const audio = await fetch(`${url}/api/speech/narrations/${documentId}/audio.mp3`);
      expect(audio.status).toBe(200);
      expect(audio.headers.get('content-type')).toMatch(/^audio\/mpeg/);
      const bytes = new Uint8Array(await audio.arrayBuffer());
      expect(bytes.length).toBeGreaterThan(1000);
      expect(looksLikeMp3(Buffer.from(bytes))).toBe(true);
    });
  });
});

/** A 2xx answer, or a failure that shows what Strapi answered. */
function expectSuccess(step: string, answer: { status: number; body: unknown }) {
  const summary = `${step}: ${answer.status}`;
  expect(answer.status >= 200 && answer.status < 300 ? summary : `${summary} ${JSON.stringify(answer.body).slice(0, 500)}`).toBe(summary);
}

/** An article type as the Content-Type Builder writes it: title, summary, body (blocks), draft & publish. */
function writeArticleType(app: string) {
  const base = path.join(app, 'src', 'api', 'article');
  for (const folder of ['content-types/article', 'controllers', 'routes', 'services'])
    mkdirSync(path.join(base, folder), { recursive: true });
  writeFileSync(
    path.join(base, 'content-types', 'article', 'schema.json'),
    JSON.stringify(
      {
        kind: 'collectionType',
        collectionName: 'articles',
        info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
        options: { draftAndPublish: true },
        pluginOptions: {},
        attributes: { title: { type: 'string', required: true }, summary: { type: 'text' }, body: { type: 'blocks' } },
      },
      null,
      2
    )
  );
  const factory = (kind: string) =>
    `import { factories } from '@strapi/strapi';\n\nexport default factories.createCore${kind}('api::article.article');\n`;
  writeFileSync(path.join(base, 'controllers', 'article.ts'), factory('Controller'));
  writeFileSync(path.join(base, 'routes', 'article.ts'), factory('Router'));
  writeFileSync(path.join(base, 'services', 'article.ts'), factory('Service'));
}
