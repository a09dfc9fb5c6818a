/**
 * Step 2 of the segmented bench: from the last part's callback to the joined narration being
 * public, for an hour of audio, and the Strapi process's extra memory meanwhile; beside it, the same
 * hour stored in whole mode (one file: the control, what storing an hour costs anyway).
 *
 * The emulator synthesizes real speech at 48 kbps, one sentence at a time, too slowly to make an
 * hour for every run (its synthesizer's speed on this machine is measured and printed first), so it
 * holds its generations here (--delay of an hour: it accepts and charges each request, and calls
 * back never) and the bench delivers the callbacks itself, signed with the emulator's key as the
 * service signs them, pointing at its own media host (media-host.mjs, allowed by SPEECH_MEDIA_HOSTS).
 * Segmented: an article of --join-characters (54,000: an hour of speech at about 15 characters a
 * second) of the segmenting tests' paragraphs, cut at the default 2,000 characters, at the default
 * maxInFlight of 3; every part an ffmpeg-made 128 kbps MP3 of --join-seconds / parts (an hour in all,
 * about 55 MB) with its SRT; the bench calls back each part as the emulator accepts it, except the
 * last. Whole: an article of the same text, its one file the first segmented run's part looped into
 * an hour (ffmpeg, no re-encoding). Runs alternate segmented, whole, whole, segmented (--join-runs 2).
 *
 * Measured, once the other parts are all ready and the worker has had a tick to settle: the time from
 * sending the last callback to the first answer of the public route (GET /api/speech/narrations/:id,
 * one request at a time: every 250 ms until the Media Library's three files are written, then every
 * --poll-ms, 10, so that the polls, Strapi's work too, do not slow what they time) that names the
 * audio; on the way, the callback's answer, the downloads from the media host (a segmented article's
 * parts are fetched as their callbacks come, before the span, the last one in it; every MP3 is
 * checked to be fetched once since the publish), the Media Library's files written (the local
 * provider's folder, watched), and Strapi's "stored narration" log line. Memory: a full garbage
 * collection in the Strapi process first (started with --expose-gc and gc-on-signal.cjs, as the
 * stitch bench collects in its own), then its peak resident size (VmHWM, reset to the current size
 * through /proc/<pid>/clear_refs just before the callback) minus its resident size (VmRSS) then;
 * VmRSS sampled every 20 ms as a check. That is the whole process: the callback, the downloads, the
 * join, Strapi's upload service, the database, the route answering the polls, the streams' buffers
 * (outside V8's heap) not yet collected, and how much the heap must grow, which depends on what the
 * collection gave back to the system just before.
 */
import { watch, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { contentManager, json, memoryOf, sleep, waitFor } from '../../bench-support.mjs';
import { quantile } from '../figures.mjs';
import { signCallback } from '../../../emulator/src/narration/callbacks.mjs';
import { SpeechSynthesizer } from '../../../emulator/src/speech/synthesizer.mjs';
import { findVoice } from '../../../emulator/src/speech/voices.mjs';
import { blocks, emulatorControl, narrateArticlesIn, narrationOf, ofArticle } from './plugin.mjs';
import {
  API_KEY,
  DEFAULT_SEGMENT,
  POLL_MS,
  HELD_MS,
  JOIN_CHARACTERS,
  JOIN_RUNS,
  JOIN_SECONDS,
  MB,
  TARGETS,
  UID,
  say,
} from './settings.mjs';

const SAMPLE_MS = 20;
/** Polls of the public route before the Media Library's three files are written (after, every --poll-ms). */
const EARLY_POLL_MS = 250;

/**
 * How fast the emulator's synthesizer (eSpeak NG in WASM, then LAME in WASM, in its worker thread) speaks
 * on this machine: 12 sentences of the articles' kind, after one to warm it up. Seconds of audio a second.
 */
async function synthesisSpeed(fixtures) {
  const synthesizer = new SpeechSynthesizer();
  const random = fixtures.seededRandom(5);
  const sentences = Array.from({ length: 12 }, () => fixtures.sentence(random, 'en'));
  const voice = findVoice('en-female-1').espeakVoice;
  try {
    await synthesizer.synthesize(sentences.slice(0, 1), voice, { gapMs: 300 });
    const started = performance.now();
    const speech = await synthesizer.synthesize(sentences, voice, { gapMs: 300 });
    const seconds = (performance.now() - started) / 1000;
    return { audioSeconds: speech.durationSec, seconds, mp3Bytes: speech.mp3.length };
  } finally {
    await synthesizer.close();
  }
}

/** Sends the service's callback for `partId` (an article's or a part's key), signed, pointing at the media host. */
async function callBack(server, media, partId) {
  const { audioFile, srtFile } = media.urlsOf(partId);
  const signature = signCallback(API_KEY, partId, audioFile, srtFile);
  const res = await json(`${server.url}/api/speech/callback`, 'POST', { articleId: partId, response: { audioFile, srtFile, signature } });
  if (res.status !== 200) throw new Error(`callback for ${partId}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The keys the emulator accepted for the article or its parts since request `afterId`. */
async function acceptedFor(emulator, articleId, afterId) {
  const mine = ofArticle(articleId);
  return new Set(
    (await emulator.submissions(afterId))
      .filter((request) => request.status === 202 && mine(request.body?.postData?.articleId))
      .map((request) => request.body.postData.articleId)
  );
}

/**
 * One hour narrated in `mode`: segmented, every part called back but the last; or whole (the
 * control: the same hour as one file, the parts of `shape` looped), nothing called back yet. Then the
 * measured span from the last callback.
 */
async function oneHour(run, mode, shape, { server, emulator, fixtures, media, strapi }) {
  await narrateArticlesIn(server, mode, DEFAULT_SEGMENT);
  const cm = contentManager(server.url, server.token, UID);
  const draft = await cm.create({
    title: `Bench hour ${run} ${mode}`,
    summary: 'An hour of narration.',
    body: blocks(fixtures.article(20 + run, 'en', JOIN_CHARACTERS)),
  });
  const articleId = `${draft.documentId}-en`;
  const afterId = await emulator.lastRequestId();
  const downloadsAtPublish = media.downloads.length;
  await cm.publish(draft.documentId);
  let parts = shape?.parts ?? 1;
  let partSeconds = shape?.partSeconds ?? JOIN_SECONDS;
  let last = articleId;
  let fileBytes;
  if (mode === 'whole') {
    await waitFor(async () => (await acceptedFor(emulator, articleId, afterId)).has(articleId), {
      timeoutMs: 60_000,
      intervalMs: 100,
      what: `${articleId} to be submitted`,
    });
    fileBytes = media.serve(partSeconds, parts);
  } else {
    const planned = await waitFor(
      async () => {
        const row = await narrationOf(server, draft.documentId);
        return row?.status === 'awaiting_parts' && row.parts ? row : null;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `the parts of ${articleId} to be planned` }
    );
    parts = planned.parts.total;
    partSeconds = Number((JOIN_SECONDS / parts).toFixed(2));
    fileBytes = media.serve(partSeconds);
    // Every part but the last, as the emulator accepts them (three at a time: the plugin's maxInFlight).
    const called = new Set();
    await waitFor(
      async () => {
        const accepted = await acceptedFor(emulator, articleId, afterId);
        for (const partId of accepted) {
          if (called.has(partId) || called.size === parts - 1) continue;
          await callBack(server, media, partId);
          called.add(partId);
        }
        if (accepted.size < parts || called.size < parts - 1) return false;
        last = [...accepted].find((partId) => !called.has(partId));
        return true;
      },
      { timeoutMs: 240_000, intervalMs: 50, what: `the ${parts} parts of ${articleId} to be submitted` }
    );
    await waitFor(async () => (await narrationOf(server, draft.documentId)).parts?.ready === parts - 1, {
      timeoutMs: 30_000,
      intervalMs: 100,
      what: `${parts - 1} parts of ${articleId} ready`,
    });
  }
  await sleep(2_500); // a worker tick with nothing to do

  // The measured span: the last callback to the joined audio on the public route.
  const { pid } = strapi;
  await strapi.collectGarbage();
  await sleep(200);
  const before = memoryOf(pid);
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  let sampledMax = before.rss;
  const sampler = setInterval(() => (sampledMax = Math.max(sampledMax, memoryOf(pid).rss)), SAMPLE_MS);
  const downloadsBefore = media.downloads.length;
  // When the Media Library's files are written (the local provider's folder): the uploads of the joined files.
  const writes = [];
  let allWritten;
  const filesWritten = new Promise((resolve) => (allWritten = resolve));
  const watcher = watch(strapi.uploadsDir, (event, name) => {
    if (!name?.includes(draft.documentId)) return;
    writes.push({ at: Date.now(), name });
    if (new Set(writes.map((w) => w.name)).size >= 3) allWritten();
  });
  const started = Date.now();
  await callBack(server, media, last);
  const acknowledged = Date.now();
  let narration;
  const polls = [];
  for (;;) {
    const asked = performance.now();
    const res = await json(`${server.url}/api/speech/narrations/${encodeURIComponent(articleId)}`, 'GET');
    polls.push(performance.now() - asked);
    if (res.status === 200 && res.body?.audioUrl) {
      narration = res.body;
      break;
    }
    if (Date.now() - started > 120_000)
      throw new Error(`${articleId} not public 120 s after its last callback: ${JSON.stringify(res.body)}`);
    // The route can only name the audio once its three files are in the Media Library: asked seldom before, fast after.
    await Promise.race([sleep(EARLY_POLL_MS), filesWritten.then(() => sleep(POLL_MS))]);
  }
  const publicAt = Date.now();
  clearInterval(sampler);
  watcher.close();
  const after = memoryOf(pid);

  const downloads = media.downloads.slice(downloadsBefore).filter((d) => d.path.includes(encodeURIComponent(articleId)));
  const mp3s = downloads.filter((d) => d.path.endsWith('.mp3'));
  // Since the publish: the parts fetched as their callbacks came (part-results.ts), before the measured span, included.
  const allMp3s = media.downloads
    .slice(downloadsAtPublish)
    .filter((d) => d.path.includes(encodeURIComponent(articleId)) && d.path.endsWith('.mp3'));
  const logAt = (pattern) => strapi.log.find((line) => line.at >= started - 5 && pattern.test(line.message))?.at ?? null;
  const storedAt = logAt(new RegExp(`stored narration of ${articleId}$`));
  const result = {
    run,
    mode,
    articleId,
    parts,
    partSeconds,
    fileBytes,
    durationSeconds: narration.durationSeconds,
    audioBytes: narration.audioBytes,
    totalMs: publicAt - started,
    acknowledgedMs: acknowledged - started,
    downloads: {
      mp3: mp3s.length,
      mp3Before: allMp3s.length - mp3s.length,
      srt: downloads.length - mp3s.length,
      bytes: downloads.reduce((sum, d) => sum + d.bytes, 0),
      firstStartMs: Math.min(...downloads.map((d) => d.startedAt)) - started,
      lastEndMs: Math.max(...downloads.map((d) => d.endedAt ?? Infinity)) - started,
    },
    uploads: writes.length
      ? { files: new Set(writes.map((w) => w.name)).size, firstMs: writes[0].at - started, lastMs: writes.at(-1).at - started }
      : null,
    storedLoggedMs: storedAt && storedAt - started,
    polls: { count: polls.length, p50Ms: quantile(polls, 0.5) },
    memory: { rssBefore: before.rss, peakExtra: after.hwm - before.rss, sampledExtra: sampledMax - before.rss, rssAfter: after.rss },
  };
  // A fast wrong answer is no figure: the audio is the hour, every file downloaded once, joined without loss.
  const files = mode === 'whole' ? 1 : parts;
  result.checks = {
    duration: Math.abs(result.durationSeconds - parts * partSeconds) <= parts * 0.1,
    everyFileOnce: allMp3s.length === files && new Set(allMp3s.map((d) => d.path)).size === files,
    bytes:
      mode === 'whole'
        ? result.audioBytes === fileBytes
        : result.audioBytes > parts * fileBytes * 0.98 && result.audioBytes <= parts * fileBytes,
  };
  result.ok =
    Object.values(result.checks).every(Boolean) && result.totalMs < TARGETS.joinMs && result.memory.peakExtra < TARGETS.joinMB * MB;
  say(
    `hour ${run}, ${mode}: ${mode === 'whole' ? 'one file' : `${parts} parts of ${partSeconds} s (${(fileBytes / MB).toFixed(2)} MB each)`} -> ` +
      `${(result.durationSeconds / 60).toFixed(1)} min, ${(result.audioBytes / MB).toFixed(1)} MB; last callback -> public in ${result.totalMs} ms ` +
      `(answered ${result.acknowledgedMs} ms, ${result.downloads.mp3Before} MP3s fetched before it, ${result.downloads.mp3} after: ` +
      `downloads ${result.downloads.firstStartMs}-${result.downloads.lastEndMs} ms, ` +
      `Media Library files written ${result.uploads ? `${result.uploads.firstMs}-${result.uploads.lastMs} ms` : '-'}, stored logged at ${result.storedLoggedMs} ms; ` +
      `public route asked ${result.polls.count} times, ${result.polls.p50Ms.toFixed(1)} ms a request p50); ` +
      `extra memory ${(result.memory.peakExtra / MB).toFixed(1)} MB peak (${(result.memory.sampledExtra / MB).toFixed(1)} MB sampled) over ${(before.rss / MB).toFixed(0)} MB; ` +
      `checks ${Object.entries(result.checks)
        .map(([name, ok]) => `${name} ${ok ? 'ok' : 'WRONG'}`)
        .join(', ')}`
  );
  return result;
}

export async function joinAnHour({ server, emulatorUrl, fixtures, media, strapi }) {
  const emulator = emulatorControl(emulatorUrl);
  const synthesis = await synthesisSpeed(fixtures);
  const speed = synthesis.audioSeconds / synthesis.seconds;
  say(
    `the emulator's synthesizer made ${synthesis.audioSeconds.toFixed(1)} s of speech in ${synthesis.seconds.toFixed(1)} s (x${speed.toFixed(1)} real time, ` +
      `${((synthesis.mp3Bytes * 8) / synthesis.audioSeconds / 1000).toFixed(0)} kbps): an hour of its parts would take ${(3600 / speed / 60).toFixed(1)} min ` +
      `and be ${(((synthesis.mp3Bytes / synthesis.audioSeconds) * 3600) / MB).toFixed(0)} MB, so the bench serves its own parts`
  );
  await emulator.configure({ generationDelayMs: HELD_MS });
  // Segmented, whole, whole, segmented, ...: a drift of the machine weighs on both alike. The whole
  // control is the first segmented run's hour as one file.
  const runs = [];
  let shape = null;
  for (let pair = 0; pair < JOIN_RUNS; pair += 1) {
    for (const mode of pair % 2 === 0 ? ['segmented', 'whole'] : ['whole', 'segmented']) {
      const run = await oneHour(runs.length + 1, mode, mode === 'whole' ? shape : null, { server, emulator, fixtures, media, strapi });
      shape ??= mode === 'segmented' ? run : null;
      runs.push(run);
    }
  }
  const median = (mode, figure) => {
    const values = runs
      .filter((run) => run.mode === mode)
      .map(figure)
      .sort((a, b) => a - b);
    const middle = values.length / 2;
    return Number.isInteger(middle) ? (values[middle - 1] + values[middle]) / 2 : values[Math.floor(middle)];
  };
  const added = {
    ms: median('segmented', (run) => run.totalMs) - median('whole', (run) => run.totalMs),
    bytes: median('segmented', (run) => run.memory.peakExtra) - median('whole', (run) => run.memory.peakExtra),
  };
  const segmented = runs.filter((run) => run.mode === 'segmented');
  say(
    `hour: segmented mode adds ${added.ms} ms and ${(added.bytes / MB).toFixed(1)} MB to what storing the same hour as one file takes (medians of ${JOIN_RUNS} runs each)`
  );
  return { runs, added, synthesis: { ...synthesis, speed }, ok: segmented.every((run) => run.ok) };
}
