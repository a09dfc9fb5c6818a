#!/usr/bin/env node
/**
 * The plugin's own memory share of a 50 MB transcription upload (issue 11: target under 5 MB).
 *
 * The RSS growth of a Strapi process receiving 50 MB is mostly Node's: the HTTP parser copies every
 * socket read into a fresh buffer and Strapi's body parser (koa-body + formidable) writes the body to
 * a temporary file; V8 frees those buffers when it pleases. None of that is the plugin's. So the bench
 * uploads the same file two ways, each in fresh Strapi processes, and subtracts:
 * - real: `POST /speech/transcriptions` with a valid form. The body parser writes the temporary file,
 *   the plugin streams it to the emulator's STT endpoint and answers 201.
 * - control: the same multipart upload with `output_format=xml`. It passes the plugin's guards (a
 *   bearer token, a declared size under 50 MB plus the envelope), the body parser writes the same
 *   temporary file, and the controller refuses it with 400 before anything goes upstream.
 * Growth is the peak VmRSS during the request minus the settled VmRSS just before it (sampled from
 * /proc/<pid>/status every 10 ms). The plugin's share is the real growth minus the control growth,
 * statistic by statistic: p50 real - p50 control, max real - max control, for cold and warm runs.
 *
 * Each kind runs in `--processes` fresh Strapi processes, started alternately (real, control, real,
 * ...) on the same database. Each process first gets the same warm-up (a 1 MB real upload and a 1 MB
 * control, which load the code of both paths), then `--runs` uploads of `--mb` MB: run 1 is cold (the
 * first large upload of the process), the others are warm. The bench also checks that the control's temporary file was written (it
 * watches TMPDIR during the request), that the emulator received every real upload and nothing from a
 * control, and that no temporary file is left.
 *
 * Target: share under 5 MB for the cold p50, the cold max and the warm p50; exit code 1 when one is
 * over, or when an upload did not reach the service, a control did, or a temporary file was left.
 *
 * Why statistics and not run-by-run differences: a run's growth depends on when V8 frees the chunk
 * buffers Node allocated for the request, in real and control runs alike. A cold run's peak is where
 * V8 steps in (about 32 MB here, for both kinds), so its p50 and max are stable; a warm run starts
 * either with the previous upload's buffers still held (growth about 1 MB) or just after V8 freed
 * them (growth up to the cold figure), in either kind, at random. Differences of paired runs add that
 * noise twice (printed as a range, for information), and so does the warm max (printed, not checked).
 *
 *   node scripts/bench-stt-upload.mjs [--runs 3] [--processes 5] [--mb 50] [--build]
 *
 * Needs a built plugin and playground (`--build` builds both first). Linux only (/proc).
 */
import { closeSync, createReadStream, openSync, readdirSync, statSync, writeSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  adminToken,
  cleanupAll,
  cleanUpOnSignals,
  ensureBuilt,
  freePort,
  json,
  memoryOf,
  numberOption,
  playgroundEnv,
  playgroundWorkDir,
  sleep,
  startEmulator,
  startPlayground,
} from './bench-support.mjs';

const argv = process.argv.slice(2);
const RUNS = numberOption(argv, 'runs', 3);
const PROCESSES = numberOption(argv, 'processes', 5);
const FILE_MB = numberOption(argv, 'mb', 50);
const API_KEY = 'bench-key';
const MB = 1024 * 1024;
const say = (message) => console.log(`[bench] ${message}`);

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

/** Every regular file under `dir` with its size (files may vanish while we look). */
function filesIn(dir) {
  const found = [];
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return found;
  }
  for (const name of names) {
    try {
      const stats = statSync(path.join(dir, name));
      if (stats.isFile()) found.push({ name, size: stats.size });
    } catch {
      /* removed meanwhile */
    }
  }
  return found;
}

/**
 * Runs `action` while sampling the process's VmRSS every 10 ms, and the temporary directory every
 * 50 ms (the largest file seen there: proof that the body parser wrote the upload).
 */
async function measure(pid, tmpDir, action) {
  // Baseline: the settled process just before the upload.
  const before = [];
  for (let i = 0; i < 20; i += 1) {
    before.push(memoryOf(pid).rss);
    await sleep(25);
  }
  before.sort((a, b) => a - b);
  const baseline = before[Math.floor(before.length / 2)];
  const hwmBefore = memoryOf(pid).hwm;
  let peak = baseline;
  let largestTempFile = 0;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, memoryOf(pid).rss);
    } catch {
      /* the process ended */
    }
  }, 10);
  const watcher = setInterval(() => {
    for (const file of filesIn(tmpDir)) largestTempFile = Math.max(largestTempFile, file.size);
  }, 50);
  const started = process.hrtime.bigint();
  try {
    const result = await action();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    peak = Math.max(peak, memoryOf(pid).rss);
    return { result, ms, baseline, peak, growth: peak - baseline, hwmBefore, hwmAfter: memoryOf(pid).hwm, largestTempFile };
  } finally {
    clearInterval(sampler);
    clearInterval(watcher);
  }
}

const fmt = (bytes) => `${(bytes / MB).toFixed(1)} MB`;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const summary = (values) =>
  values.length ? { p50: median(values), max: Math.max(...values), min: Math.min(...values), n: values.length } : null;
const TARGET = 5 * MB;

async function main() {
  if (process.platform !== 'linux') throw new Error('this benchmark reads /proc and runs on Linux only');
  if (!(RUNS >= 1) || !(PROCESSES >= 1) || !(FILE_MB >= 2 && FILE_MB <= 50))
    throw new Error('--runs and --processes at least 1, --mb from 2 to 50 (the route refuses more)');
  ensureBuilt(argv, say);

  const { workDir } = playgroundWorkDir('speech-bench-');
  const tmpDir = path.join(workDir, 'tmp');
  try {
    const emulator = await startEmulator(API_KEY, ['--stt-queued-ms', '200', '--stt-processing-ms', '200', '--rate-limit', '1000/60']);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const strapiEnv = playgroundEnv({ workDir, port, apiKey: API_KEY, emulator, extra: { SPEECH_STT_POLL_MS: '300' } });
    const credentials = { email: 'bench@example.com', password: 'Bench-Passw0rd!' };
    const small = path.join(workDir, 'warmup.m4a');
    const big = path.join(workDir, 'bench.m4a');
    makeFile(small, MB);
    makeFile(big, FILE_MB * MB);

    const kinds = {
      real: { outputFormat: 'json', status: 201 },
      // Refused by the controller's form validation, after the body parser and before the service.
      control: { outputFormat: 'xml', status: 400 },
    };
    const send = async (kind, file, token) => {
      const answer = await upload(url, token, file, kinds[kind].outputFormat);
      if (answer.status !== kinds[kind].status)
        throw new Error(`${kind} upload answered ${answer.status}, expected ${kinds[kind].status}: ${JSON.stringify(answer.body)}`);
      if (kind === 'control' && !/output format/i.test(answer.body?.error?.message ?? ''))
        throw new Error(`control refused for another reason: ${JSON.stringify(answer.body)}`);
      return answer;
    };

    let registered = false;
    /** A fresh Strapi process on the same database, its PID and an admin token, after the warm-up (the same for both kinds). */
    async function freshStrapi() {
      const started = Date.now();
      const strapi = await startPlayground(workDir, strapiEnv);
      const token = await adminToken(url, credentials, { registered });
      registered = true;
      // Warm-up: loads both code paths (lazy requires, JIT) so the runs measure the upload itself.
      await send('real', small, token);
      await send('control', small, token);
      await sleep(1_000);
      return { stop: strapi.stop, pid: strapi.pid, token, readyMs: Date.now() - started };
    }

    const runs = { real: [], control: [] };
    for (let proc = 1; proc <= PROCESSES; proc += 1) {
      for (const kind of ['real', 'control']) {
        const strapi = await freshStrapi();
        say(
          `${kind} process ${proc}/${PROCESSES}: strapi pid ${strapi.pid}, ready and warmed up in ${(strapi.readyMs / 1000).toFixed(1)} s`
        );
        for (let run = 1; run <= RUNS; run += 1) {
          const figures = await measure(strapi.pid, tmpDir, () => send(kind, big, strapi.token));
          if (figures.largestTempFile < FILE_MB * MB * 0.5) {
            throw new Error(
              `${kind} run: the body parser's temporary file was never seen at half its size or more (largest ${figures.largestTempFile} bytes)`
            );
          }
          const entry = { kind, proc, run, cold: run === 1, ...figures };
          runs[kind].push(entry);
          say(
            `  ${kind.padEnd(7)} p${proc} run ${run} (${run === 1 ? 'cold' : 'warm'}): ${figures.result.status} in ${(figures.ms / 1000).toFixed(2)} s ` +
              `(${(FILE_MB / (figures.ms / 1000)).toFixed(0)} MB/s), VmRSS ${fmt(figures.baseline)} -> peak ${fmt(figures.peak)}, growth ${fmt(figures.growth)}; ` +
              `VmHWM ${fmt(figures.hwmBefore)} -> ${fmt(figures.hwmAfter)}; temp file seen ${fmt(figures.largestTempFile)}`
          );
          await sleep(1_000);
        }
        await strapi.stop();
      }
    }

    // The emulator received every real upload, and nothing from a control: its request log names the audio sizes.
    const log = await json(`${emulator.info.url}/__control/requests?path=/api/v1/stt/submit/`, 'GET');
    const sizes = (log.body.requests ?? []).map((entry) => entry.body?.files?.[0]?.bytes);
    const bigUpstream = sizes.filter((bytes) => bytes === FILE_MB * MB).length;
    const smallUpstream = sizes.filter((bytes) => bytes === MB).length;
    const expectedBig = PROCESSES * RUNS;
    const expectedSmall = PROCESSES * 2;
    const leftovers = filesIn(tmpDir).length;

    const table = {};
    for (const [label, cold] of [
      ['cold', true],
      ['warm', false],
    ]) {
      const real = summary(runs.real.filter((entry) => entry.cold === cold).map((entry) => entry.growth));
      const control = summary(runs.control.filter((entry) => entry.cold === cold).map((entry) => entry.growth));
      if (!real || !control) continue;
      // For information: real - control of the runs with the same process and run number.
      const paired = summary(
        runs.real
          .filter((entry) => entry.cold === cold)
          .map((entry, index) => entry.growth - runs.control.filter((c) => c.cold === cold)[index].growth)
      );
      table[label] = {
        real,
        control,
        share: { p50: real.p50 - control.p50, max: real.max - control.max },
        pairedShare: { min: paired.min, max: paired.max },
      };
    }
    // The warm max is not checked: see the header.
    const checks = [
      ['cold share p50', table.cold.share.p50],
      ['cold share max', table.cold.share.max],
      ...(table.warm ? [['warm share p50', table.warm.share.p50]] : []),
    ];
    const over = checks.filter(([, bytes]) => !(bytes < TARGET));
    const complete = bigUpstream === expectedBig && smallUpstream === expectedSmall && leftovers === 0;
    const ok = over.length === 0 && complete;
    const throughput = (kind) => Math.round(median(runs[kind].map((entry) => FILE_MB / (entry.ms / 1000))));

    console.log('');
    console.log(
      JSON.stringify({
        event: 'bench-stt-upload',
        fileBytes: FILE_MB * MB,
        processesPerKind: PROCESSES,
        runsPerProcess: RUNS,
        runs: [...runs.real, ...runs.control].map((r) => ({
          kind: r.kind,
          process: r.proc,
          run: r.run,
          cold: r.cold,
          status: r.result.status,
          ms: Math.round(r.ms),
          baselineRssBytes: r.baseline,
          peakRssBytes: r.peak,
          growthBytes: r.growth,
          hwmBeforeBytes: r.hwmBefore,
          hwmAfterBytes: r.hwmAfter,
          tempFileSeenBytes: r.largestTempFile,
        })),
        summary: table,
        targetShareBytes: TARGET,
        checked: Object.fromEntries(checks),
        ok,
        upstreamAudioBytes: sizes,
        tempFilesLeft: leftovers,
      })
    );
    console.log('');
    const cell = (s) => `p50 ${fmt(s.p50).padStart(8)}  max ${fmt(s.max).padStart(8)}${s.n ? `  (n=${s.n})` : ''}`;
    say(`VmRSS growth while receiving ${FILE_MB} MB (peak during the request minus the settled figure before it):`);
    for (const [label, row] of Object.entries(table)) {
      say(`  ${label} real upload (201)        ${cell(row.real)}`);
      say(`  ${label} control (400)            ${cell(row.control)}`);
      say(
        `  ${label} plugin's share           ${cell(row.share)}   (real - control; paired runs ranged ${fmt(row.pairedShare.min)} to ${fmt(row.pairedShare.max)})`
      );
    }
    say(`throughput (p50): real ${throughput('real')} MB/s (parser + upstream send), control ${throughput('control')} MB/s (parser only)`);
    say(
      `upstream received ${bigUpstream}/${expectedBig} uploads of ${FILE_MB} MB and ${smallUpstream}/${expectedSmall} warm-ups (controls send nothing); ` +
        `temporary files left: ${leftovers}`
    );
    say(
      `plugin's share of a ${FILE_MB} MB upload (real - control): ` +
        `${checks.map(([label, bytes]) => `${label} ${fmt(bytes)}`).join(', ')}; target < 5 MB: ${over.length ? `OVER (${over.map(([label]) => label).join(', ')})` : 'OK'}` +
        (table.warm
          ? `; warm max ${fmt(table.warm.share.max)} not checked (when V8 frees the previous upload's buffers, in either kind)`
          : '')
    );
    if (!complete) say('INCOMPLETE: an upload did not reach the service, a control did, or a temporary file was left');
    if (!ok) process.exitCode = 1;
  } finally {
    // Strapi, the emulator and the work folder, in reverse order.
    await cleanupAll();
  }
}

cleanUpOnSignals(say);
main().catch((error) => {
  console.error(`[bench] ${error.stack ?? error}`);
  process.exitCode = 1;
});
