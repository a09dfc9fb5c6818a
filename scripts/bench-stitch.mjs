#!/usr/bin/env node
/**
 * What joining a segmented narration costs (issue 23: a 1-hour narration, about 60 MB at 128 kbps,
 * joins in well under 2 s with less than 16 MB of extra memory). Made once in a temporary folder:
 * one part of --part-seconds (default 120) encoded by ffmpeg's LAME at 128 kbps, 44.1 kHz stereo,
 * with the ID3v2 tag and LAME Info frame ffmpeg writes, copied --parts times (default 30: an hour),
 * each with an SRT of a cue every 3 s. Then --processes fresh Node processes (scripts/bench/stitch/
 * run.mjs) each join them --runs times, from the files on disk to the joined MP3, SRT and VTT on
 * disk: joinMp3, then joinSrt. The parts were just written, so they are read from the page cache, and
 * the joined files are not synced to the disk: the figures are the plugin's work, not the disk's.
 *
 * Printed per run kind (a process's first run is cold, the others warm): the time of the whole join
 * and of its MP3 and subtitle steps, and the extra memory: the process's peak resident size during
 * the run minus its size before it (see run.mjs for how). A cold run's memory includes what V8's
 * optimizing compilers take while they compile the hot code (5 to 8 MB, once per process, more of
 * the code optimized the longer the run); one more process runs with them off (--max-opt=0) to show
 * the join's own memory, which stays flat from 1 part to 90. Checked, since a fast wrong answer is no
 * figure: the joined file's frames, duration and size, and ffprobe's frame count for it. The figures
 * are printed, not held against the targets.
 *
 *   node scripts/bench-stitch.mjs [--parts 30] [--part-seconds 120] [--processes 3] [--runs 3]
 *
 * Needs ffmpeg and ffprobe (Debian's `ffmpeg`); Linux only (/proc). The TypeScript modules are
 * bundled by esbuild into the temporary folder: no plugin build is needed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { leave, numberOption, onCleanup, root, runBench } from './bench-support.mjs';
import { printTable, stats } from './bench/figures.mjs';

const argv = process.argv.slice(2);
const PARTS = numberOption(argv, 'parts', 30);
const PART_SECONDS = numberOption(argv, 'part-seconds', 120);
const PROCESSES = numberOption(argv, 'processes', 3);
const RUNS = numberOption(argv, 'runs', 3);
const RATE = 44100;
const SAMPLES_PER_FRAME = 1152;

const say = (message) => console.log(`[bench-stitch] ${message}`);
const MB = 1024 * 1024;

for (const [name, value] of Object.entries({ parts: PARTS, 'part-seconds': PART_SECONDS, processes: PROCESSES, runs: RUNS })) {
  if (!Number.isInteger(value) || value < 1) {
    console.error(`--${name}: a whole number, at least 1`);
    leave(2);
  }
}

/** An SRT of a cue every 3 s over `seconds`, as a speech service times a part's sentences. */
function partSrt(part, seconds) {
  const time = (ms) => {
    const pad = (value, width = 2) => String(Math.floor(value)).padStart(width, '0');
    return `${pad(ms / 3_600_000)}:${pad((ms / 60_000) % 60)}:${pad((ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
  };
  const cues = [];
  for (let start = 0, index = 1; start < seconds * 1000; start += 3000, index += 1) {
    const end = Math.min(start + 2900, seconds * 1000);
    cues.push(`${index}\n${time(start)} --> ${time(end)}\nPart ${part + 1}, sentence ${index}: a few words read aloud.\n`);
  }
  return cues.join('\n');
}

/** The parts in `dir`: one encoded part copied PARTS times, each with its SRT. Answers the part's bytes. */
function makeParts(dir) {
  const first = path.join(dir, 'part-0.mp3');
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${PART_SECONDS}:sample_rate=${RATE}`],
    ...['-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k', first],
  ]);
  for (let i = 0; i < PARTS; i += 1) {
    if (i > 0) copyFileSync(first, path.join(dir, `part-${i}.mp3`));
    writeFileSync(path.join(dir, `part-${i}.srt`), partSrt(i, PART_SECONDS));
  }
  return statSync(first).size;
}

/** ffprobe's count of the audio frames of `file`, and the frames of one part. */
function ffprobeFrames(file) {
  const output = execFileSync(
    'ffprobe',
    ['-v', 'error', '-count_packets', '-select_streams', 'a:0', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', file],
    { encoding: 'utf8' }
  );
  return Number(output.trim());
}

async function main() {
  for (const tool of ['ffmpeg', 'ffprobe']) {
    if (spawnSync(tool, ['-version']).status !== 0) throw new Error(`${tool} is needed (Debian: apt-get install ffmpeg)`);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'speech-bench-stitch-'));
  onCleanup('bench folder', () => rmSync(dir, { recursive: true, force: true }));
  const bundle = path.join(dir, 'bundle');
  mkdirSync(bundle);
  await build({
    entryPoints: {
      'mp3-join': path.join(root, 'server/src/audio/mp3-join.ts'),
      'subtitles-join': path.join(root, 'server/src/subtitles/join.ts'),
    },
    outdir: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
  });

  let started = Date.now();
  const partBytes = makeParts(dir);
  const partFrames = ffprobeFrames(path.join(dir, 'part-0.mp3'));
  say(
    `made ${PARTS} parts of ${PART_SECONDS} s (${(partBytes / MB).toFixed(2)} MB, ${partFrames} frames each) in ${Date.now() - started} ms`
  );

  /** The runs of one fresh process, with these Node options. */
  const processRuns = (nodeOptions) => {
    const args = ['--bundle', bundle, '--dir', dir, '--parts', String(PARTS), '--runs', String(RUNS)];
    const child = spawnSync(process.execPath, [...nodeOptions, '--expose-gc', path.join(root, 'scripts/bench/stitch/run.mjs'), ...args], {
      encoding: 'utf8',
    });
    if (child.status !== 0) throw new Error(`a run failed: ${child.stderr}`);
    return child.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  };
  const runs = Array.from({ length: PROCESSES }, () => processRuns([])).flat();
  // V8's optimizing compilers take a few MB while they compile the hot code, once per process: without them, the join's own memory.
  const interpreted = processRuns(['--max-opt=0']);

  // The figures are worth something only if the file is right.
  started = Date.now();
  const joined = runs[runs.length - 1];
  const expectedFrames = PARTS * partFrames;
  const probed = ffprobeFrames(path.join(dir, 'joined.mp3'));
  const checks = [
    [`frames ${joined.frames} == ${PARTS} x ${partFrames}`, joined.frames === expectedFrames],
    [`ffprobe's frames ${probed} == ${expectedFrames}`, probed === expectedFrames],
    [`duration ${joined.durationSeconds.toFixed(3)} s`, joined.durationSeconds === (expectedFrames * SAMPLES_PER_FRAME) / RATE],
    [`file ${joined.fileBytes} bytes == reported ${joined.bytes}`, joined.fileBytes === joined.bytes],
    [`cues ${joined.cues}`, joined.cues === PARTS * Math.ceil(PART_SECONDS / 3)],
  ];
  say(`checked in ${Date.now() - started} ms: ${checks.map(([what, ok]) => `${what} ${ok ? 'ok' : 'WRONG'}`).join('; ')}`);
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;

  const audioMB = joined.bytes / MB;
  const row = (label, selected) => {
    const total = stats(
      selected.map((run) => run.totalMs),
      'p50',
      'max'
    );
    const audio = stats(
      selected.map((run) => run.audioMs),
      'p50'
    );
    const subtitles = stats(
      selected.map((run) => run.subtitlesMs),
      'p50'
    );
    const extra = stats(
      selected.map((run) => run.extraBytes / MB),
      'p50',
      'max'
    );
    return [
      `${label} (${selected.length})`,
      `${total.p50.toFixed(0)} ms / ${total.max.toFixed(0)} ms`,
      `${audio.p50.toFixed(0)} ms (${(audioMB / (audio.p50 / 1000)).toFixed(0)} MB/s)`,
      `${subtitles.p50.toFixed(1)} ms`,
      `${extra.p50.toFixed(1)} MB / ${extra.max.toFixed(1)} MB`,
    ];
  };
  console.log(
    `\n${PARTS} parts -> ${(joined.durationSeconds / 60).toFixed(1)} min, ${audioMB.toFixed(1)} MB (${joined.header} header), ${joined.cues} cues; ` +
      `${os.cpus().length} cores, node ${process.version}\n`
  );
  printTable(
    ['runs', 'whole join p50 / max', 'MP3 join p50', 'SRT + VTT p50', 'extra memory p50 / max'],
    [
      row(
        'cold: first run of a process',
        runs.filter((run) => run.run === 1)
      ),
      row(
        'warm',
        runs.filter((run) => run.run > 1)
      ),
      row('--max-opt=0: no optimizing compiler', interpreted),
    ],
    { padded: true }
  );
  console.log(
    `\nExtra memory: peak VmHWM during the run minus VmRSS before it (after a GC), the peak reset through /proc/self/clear_refs. ` +
      `A cold run includes V8 compiling the hot code, once per process (the --max-opt=0 row leaves it out). ` +
      `Targets (issue 23, not checked here): well under 2 s, under 16 MB.`
  );
}

runBench('bench-stitch', main, say);
