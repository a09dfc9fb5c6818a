/**
 * One process of the stitch bench (scripts/bench-stitch.mjs): joins the parts in `--dir` `--runs`
 * times, the MP3s with joinMp3 and the SRTs with joinSrt, from the files on disk to the joined
 * MP3, SRT and VTT on disk, and prints one JSON line per run. Started with --expose-gc.
 *
 * Memory: before each run the heap is collected and the process's resident size read (VmRSS), then
 * its peak (VmHWM) is reset to the current size through /proc/self/clear_refs (Linux 4.0+) and read
 * again after the run: the run's extra memory is the peak minus the size before, whatever V8 or the
 * buffers did in between. process.resourceUsage().maxRSS cannot be reset, so it would report the
 * process's peak since its start, module loading included; it is printed beside it for reference.
 *
 *   node --expose-gc scripts/bench/stitch/run.mjs --bundle <dir> --dir <parts dir> --parts N --runs N
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { numberOption, optionOf } from '../../bench-support.mjs';

const argv = process.argv.slice(2);
const bundle = optionOf(argv, 'bundle');
const dir = optionOf(argv, 'dir');
const PARTS = numberOption(argv, 'parts', 30);
const RUNS = numberOption(argv, 'runs', 3);

const require = createRequire(import.meta.url);
const { joinMp3, mp3FileSource } = require(path.join(bundle, 'mp3-join.js'));
const { joinSrt } = require(path.join(bundle, 'subtitles-join.js'));

/** VmRSS and VmHWM of this process, in bytes. */
function memory() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)[1]) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

const parts = Array.from({ length: PARTS }, (_, i) => ({
  mp3: path.join(dir, `part-${i}.mp3`),
  srt: path.join(dir, `part-${i}.srt`),
}));
const output = (extension) => path.join(dir, `joined.${extension}`);

for (let run = 1; run <= RUNS; run += 1) {
  globalThis.gc();
  const before = memory().rss;
  writeFileSync('/proc/self/clear_refs', '5');
  const started = performance.now();
  const audio = await joinMp3(
    parts.map((part) => mp3FileSource(part.mp3)),
    output('mp3')
  );
  const audioMs = performance.now() - started;
  const srts = await Promise.all(parts.map((part) => readFile(part.srt, 'utf8')));
  const subtitles = joinSrt(srts.map((srt, i) => ({ srt, durationSeconds: audio.parts[i].durationSeconds })));
  await Promise.all([writeFile(output('srt'), subtitles.srt), writeFile(output('vtt'), subtitles.vtt)]);
  const totalMs = performance.now() - started;
  const peak = memory().hwm;
  console.log(
    JSON.stringify({
      run,
      totalMs,
      audioMs,
      subtitlesMs: totalMs - audioMs,
      extraBytes: peak - before,
      rssBefore: before,
      maxRssSinceStart: process.resourceUsage().maxRSS * 1024,
      frames: audio.frames,
      durationSeconds: audio.durationSeconds,
      bytes: audio.bytes,
      header: audio.header,
      fileBytes: statSync(output('mp3')).size,
      cues: subtitles.parts.reduce((sum, part) => sum + part.count, 0),
    })
  );
}
