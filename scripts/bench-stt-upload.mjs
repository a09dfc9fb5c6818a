#!/usr/bin/env node
/**
 * How much memory Strapi needs to proxy a 50 MB transcription upload (issue 5: target under 20 MB).
 *
 * Boots the emulator (STT on its own web port) and the playground Strapi exactly as the
 * integration tests do, uploads a 50 MB file through `POST /speech/transcriptions` (the browser ->
 * Strapi leg, Strapi's temporary file, and the Strapi -> service leg), and samples the Strapi
 * process's /proc/<pid>/status (VmRSS every 10 ms, VmHWM before and after). Prints the figures.
 *
 * Two configurations, each in fresh processes:
 * - default (`reclaimUploadMemory: true`): run 1 is the first 50 MB upload of a fresh Strapi (after a
 *   1 MB warm-up that loads the code), the next runs reuse that process (warm). The target applies here.
 * - reclaim off (`SPEECH_RECLAIM_UPLOAD_MEMORY=false`): the same cold upload without the plugin's
 *   young-generation collections, to show what they save and what they cost in throughput. Without
 *   them the chunk buffers Node allocates for every read wait for V8's external-memory GC.
 *
 *   node scripts/bench-stt-upload.mjs [--runs 3] [--mb 50] [--build]
 *
 * Needs a built plugin and playground (`--build` builds both first). Linux only (/proc).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, openSync, writeSync, closeSync, existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 && argv[index + 1] ? Number(argv[index + 1]) : fallback;
};
const RUNS = option('runs', 3);
const FILE_MB = option('mb', 50);
const API_KEY = 'bench-key';
const MB = 1024 * 1024;
const children = [];
const say = (message) => console.log(`[bench] ${message}`);

function build() {
  for (const [label, args, cwd] of [
    ['plugin', [path.join(root, 'node_modules/@strapi/sdk-plugin/bin/strapi-plugin.js'), 'build'], root],
    ['playground', [path.join(root, 'scripts/playground.cjs'), 'compile'], root],
  ]) {
    say(`building ${label}...`);
    const result = spawnSync(process.execPath, args, { cwd, stdio: 'inherit', env: { ...process.env, STRAPI_TELEMETRY_DISABLED: 'true' } });
    if (result.status !== 0) throw new Error(`building the ${label} failed`);
  }
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts a child and resolves when a stdout line satisfies `ready` (with that line's JSON). */
function startChild(label, args, options, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let log = '';
    child.stderr.on('data', (chunk) => (log = (log + chunk).slice(-8000)));
    const lines = readline.createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error(`${label} did not start in 120 s:\n${log}`)), 120_000);
    lines.on('line', (line) => {
      log = (log + line + '\n').slice(-8000);
      if (!line.startsWith('{')) return;
      try {
        const parsed = JSON.parse(line);
        if (ready(parsed)) {
          clearTimeout(timer);
          resolve({ child, info: parsed });
        }
      } catch {
        /* a log line */
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with code ${code}:\n${log}`));
    });
  });
}

async function json(url, method, body, token) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
}

/** A file of `bytes` bytes written in 1 MB blocks (an .m4a to the emulator: transcribed as one untranscribed segment). */
function makeFile(file, bytes) {
  const block = Buffer.alloc(MB);
  for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((i * 2654435761) >>> 0, i);
  const fd = openSync(file, 'w');
  let written = 0;
  while (written < bytes) written += writeSync(fd, block, 0, Math.min(block.length, bytes - written));
  closeSync(fd);
}

/** Streams a multipart upload of `file` from disk to the plugin route; resolves with the answer. */
function upload(url, token, file, outputFormat = 'json') {
  const size = statSync(file).size;
  const boundary = `----bench-${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="language"\r\n\r\nar-JO\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="output_format"\r\n\r\n${outputFormat}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="${path.basename(file)}"\r\nContent-Type: audio/mp4\r\n\r\n`
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/speech/transcriptions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.write(head);
    const source = createReadStream(file);
    source.on('error', reject);
    source.on('end', () => req.end(tail));
    source.pipe(req, { end: false });
  });
}

async function measure(pid, action) {
  // Baseline: the settled process just before the upload.
  const before = [];
  for (let i = 0; i < 20; i += 1) {
    before.push(procStatus(pid).rss);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  before.sort((a, b) => a - b);
  const baseline = before[Math.floor(before.length / 2)];
  const hwmBefore = procStatus(pid).hwm;
  let peak = baseline;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, procStatus(pid).rss);
    } catch {
      /* the process ended */
    }
  }, 10);
  const started = process.hrtime.bigint();
  try {
    const result = await action();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    peak = Math.max(peak, procStatus(pid).rss);
    return { result, ms, baseline, peak, hwmBefore, hwmAfter: procStatus(pid).hwm };
  } finally {
    clearInterval(sampler);
  }
}

const fmt = (bytes) => `${(bytes / MB).toFixed(1)} MB`;

async function main() {
  if (process.platform !== 'linux') throw new Error('this benchmark reads /proc and runs on Linux only');
  if (argv.includes('--build')) build();
  if (!existsSync(path.join(root, 'dist/server/index.js')) || !existsSync(path.join(root, 'playground/dist'))) {
    throw new Error('build first: node node_modules/@strapi/sdk-plugin/bin/strapi-plugin.js build && node scripts/playground.cjs compile (or pass --build)');
  }

  const workDir = mkdtempSync(path.join(os.tmpdir(), 'speech-bench-'));
  const tmpDir = path.join(workDir, 'tmp');
  mkdirSync(path.join(workDir, 'public', 'uploads'), { recursive: true });
  mkdirSync(tmpDir);
  try {
    const emulator = await startChild(
      'emulator',
      [path.join(root, 'emulator/src/main.mjs'), '--port', '0', '--web-port', '0', '--api-keys', API_KEY, '--stt-queued-ms', '200', '--stt-processing-ms', '200', '--rate-limit', '1000/60'],
      { env: { ...process.env } },
      (line) => line.event === 'listening'
    );
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const strapiEnv = {
      ...process.env,
      NODE_ENV: 'production',
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
      SPEECH_API_KEY: API_KEY,
      SPEECH_BASE_URL: emulator.info.url,
      SPEECH_WEB_URL: emulator.info.webUrl,
      SPEECH_STT_POLL_MS: '300',
      TMPDIR: tmpDir,
    };
    const credentials = { email: 'bench@example.com', password: 'Bench-Passw0rd!' };

    /** A fresh Strapi process on the same database, its PID, an admin token, after a 1 MB warm-up upload. */
    async function freshStrapi(first, extraEnv = {}) {
      const started = Date.now();
      const strapi = await startChild('strapi', [path.join(root, 'scripts/playground.cjs'), 'start'], { cwd: workDir, env: { ...strapiEnv, ...extraEnv } }, (line) => line.event === 'strapi-ready');
      const auth = first
        ? await json(`${url}/admin/register-admin`, 'POST', { firstname: 'Bench', lastname: 'Admin', ...credentials })
        : await json(`${url}/admin/login`, 'POST', credentials);
      const token = auth.body?.data?.token;
      if (!token) throw new Error(`admin sign-in failed: ${JSON.stringify(auth.body)}`);
      say(`strapi pid ${strapi.child.pid} ready in ${((Date.now() - started) / 1000).toFixed(1)} s; emulator STT at ${emulator.info.webUrl}`);
      // Warm-up: loads the code paths (lazy requires, JIT) so the runs measure the upload itself.
      const warm = await upload(url, token, small);
      if (warm.status !== 201) throw new Error(`warm-up upload failed: ${warm.status} ${JSON.stringify(warm.body)}`);
      return { child: strapi.child, pid: strapi.child.pid, token };
    }

    async function stop(child) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }

    const small = path.join(workDir, 'warmup.m4a');
    const big = path.join(workDir, 'bench.m4a');
    makeFile(small, MB);
    makeFile(big, FILE_MB * MB);

    async function proxyRuns(label, strapi, count) {
      const runs = [];
      for (let run = 1; run <= count; run += 1) {
        const figures = await measure(strapi.pid, () => upload(url, strapi.token, big));
        if (figures.result.status !== 201) throw new Error(`upload failed: ${figures.result.status} ${JSON.stringify(figures.result.body)}`);
        const growth = figures.peak - figures.baseline;
        runs.push({ ...figures, growth });
        say(
          `${label} run ${run} (${run === 1 ? 'cold' : 'warm'}): ${FILE_MB} MB in ${(figures.ms / 1000).toFixed(2)} s (${(FILE_MB / (figures.ms / 1000)).toFixed(0)} MB/s), ` +
            `VmRSS baseline ${fmt(figures.baseline)}, peak ${fmt(figures.peak)}, growth ${fmt(growth)}; ` +
            `VmHWM ${fmt(figures.hwmBefore)} -> ${fmt(figures.hwmAfter)}; job ${figures.result.body.data.jobId}`
        );
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return runs;
    }

    // 1. The default configuration: a fresh process (run 1 is cold), then the same process again (warm).
    const proxy = await freshStrapi(true);
    const runs = await proxyRuns('default', proxy, RUNS);
    await stop(proxy.child);

    // 2. The same cold upload with the plugin's collections switched off, for comparison.
    const unreclaimed = await freshStrapi(false, { SPEECH_RECLAIM_UPLOAD_MEMORY: 'false' });
    const [off] = await proxyRuns('reclaim off', unreclaimed, 1);
    await stop(unreclaimed.child);

    // The emulator received every byte: its request log names the audio sizes.
    const log = await json(`${emulator.info.url}/__control/requests?path=/api/v1/stt/submit/`, 'GET');
    const sizes = (log.body.requests ?? []).map((entry) => entry.body?.files?.[0]?.bytes);
    const leftovers = spawnSync('find', [tmpDir, '-type', 'f']).stdout.toString().trim();

    const cold = runs[0].growth;
    const warmRuns = runs.slice(1).map((r) => r.growth);
    const warm = warmRuns.length ? Math.max(...warmRuns) : null;
    const worst = Math.max(cold, warm ?? 0);
    const ok = worst < 20 * MB;
    const throughput = (r) => Math.round(FILE_MB / (r.ms / 1000));
    console.log('');
    console.log(
      JSON.stringify({
        event: 'bench-stt-upload',
        fileBytes: FILE_MB * MB,
        proxyRuns: runs.map((r) => ({ ms: Math.round(r.ms), baselineRssBytes: r.baseline, peakRssBytes: r.peak, growthBytes: r.growth, hwmBeforeBytes: r.hwmBefore, hwmAfterBytes: r.hwmAfter })),
        proxyColdGrowthBytes: cold,
        proxyWarmGrowthBytes: warm,
        reclaimOffColdGrowthBytes: off.growth,
        coldMegabytesPerSecond: throughput(runs[0]),
        reclaimOffMegabytesPerSecond: throughput(off),
        targetBytes: 20 * MB,
        upstreamAudioBytes: sizes,
        tempFilesLeft: leftovers ? leftovers.split('\n').length : 0,
      })
    );
    say(`peak VmRSS growth proxying ${FILE_MB} MB: cold ${fmt(cold)}, warm ${warm === null ? 'n/a' : fmt(warm)}; target < 20 MB: ${ok ? 'OK' : 'OVER'}`);
    say(`without the plugin's collections (reclaimUploadMemory: false), cold: ${fmt(off.growth)}; throughput ${throughput(runs[0])} MB/s with, ${throughput(off)} MB/s without`);
    say(`upstream received audio of ${sizes.join(', ')} bytes; temporary files left: ${leftovers ? leftovers.split('\n').length : 0}`);
    if (!ok) process.exitCode = 1;
  } finally {
    for (const child of children.reverse()) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => {
          const timer = setTimeout(() => {
            child.kill('SIGKILL');
            resolve();
          }, 10_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    }
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`[bench] ${error.stack ?? error}`);
  process.exitCode = 1;
  for (const child of children) child.kill('SIGKILL');
});
