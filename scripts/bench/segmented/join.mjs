/**
 * Step 2 of the segmented bench: from the last part's callback to the joined narration being
 * public, for an hour of audio, and the Strapi process's extra memory meanwhile.
 *
 * The emulator synthesizes real speech at 48 kbps, one sentence at a time, too slowly to make an
 * hour for every run (its synthesizer's speed on this machine is measured and printed first),
 * so it holds its generations here (--delay of an hour: it accepts and charges each part, and calls
 * back never) and the bench delivers the callbacks itself, signed with the emulator's key as the
 * service signs them, pointing at its own media host (media-host.mjs, allowed by SPEECH_MEDIA_HOSTS):
 * every part is an ffmpeg-made 128 kbps MP3 of --join-seconds / parts (an hour in all, about 55 MB)
 * with its SRT. The article is --join-characters (54,000: an hour of speech at about 15 characters a
 * second) of the segmenting tests' paragraphs, cut at the default 2,000 characters, at the plugin's
 * default maxInFlight of 3: the bench calls back each part as the emulator accepts it, except the last.
 *
 * Measured, once the other parts are all ready and the worker has had a tick to settle: the time from
 * sending the last callback to the first answer of the public route (GET /api/speech/narrations/:id,
 * asked every 10 ms, one at a time) that names the joined audio, with its parts: the callback answered;
 * the downloads of every part from the media host (parts are downloaded only when the article is
 * joined); the join, the three uploads to the Media Library (local provider) and the row's write
 * after the last download. Memory: a full garbage collection in the Strapi process first (started
 * with --expose-gc and gc-on-signal.cjs, as the stitch bench collects in its own), then its peak
 * resident size (VmHWM, reset to the current size through /proc/<pid>/clear_refs just before the
 * callback) minus its resident size (VmRSS) then; VmRSS sampled every 5 ms as a check. That is the
 * whole process: the callback, the downloads, the join, Strapi's upload service, the database, the
 * route answering the polls, garbage not yet collected, and on the first run V8 compiling the code
 * involved. The first run is the process's first join; --join-runs (2) runs one after another.
 */
import { watch, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { contentManager, json, memoryOf, sleep, waitFor } from '../../bench-support.mjs';
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

const SAMPLE_MS = 5;

/**
 * How fast the emulator's synthesizer (eSpeak NG in WASM, then lamejs, in its worker thread) speaks
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

async function oneHour(run, { server, emulator, fixtures, media, strapi }) {
  const cm = contentManager(server.url, server.token, UID);
  const draft = await cm.create({
    title: `Bench hour ${run}`,
    summary: 'An hour of narration.',
    body: blocks(fixtures.article(20 + run, 'en', JOIN_CHARACTERS)),
  });
  const articleId = `${draft.documentId}-en`;
  const mine = ofArticle(articleId);
  const afterId = await emulator.lastRequestId();
  await cm.publish(draft.documentId);
  const planned = await waitFor(
    async () => {
      const row = await narrationOf(server, draft.documentId);
      return row?.status === 'awaiting_parts' && row.parts ? row : null;
    },
    { timeoutMs: 60_000, intervalMs: 100, what: `the parts of ${articleId} to be planned` }
  );
  const parts = planned.parts.total;
  const partSeconds = Number((JOIN_SECONDS / parts).toFixed(2));
  const partBytes = media.servePartsOf(partSeconds);

  const callback = async (partId) => {
    const { audioFile, srtFile } = media.urlsOf(partId);
    const signature = signCallback(API_KEY, partId, audioFile, srtFile);
    const res = await json(`${server.url}/api/speech/callback`, 'POST', { articleId: partId, response: { audioFile, srtFile, signature } });
    if (res.status !== 200) throw new Error(`callback for ${partId}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  // Every part but the last, as the emulator accepts them (three at a time: the plugin's maxInFlight).
  const called = new Set();
  let last = null;
  await waitFor(
    async () => {
      const accepted = new Set(
        (await emulator.submissions(afterId))
          .filter((request) => request.status === 202 && mine(request.body?.postData?.articleId))
          .map((request) => request.body.postData.articleId)
      );
      for (const partId of accepted) {
        if (called.has(partId) || called.size === parts - 1) continue;
        await callback(partId);
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
  const watcher = watch(strapi.uploadsDir, (event, name) => {
    if (name?.includes(draft.documentId)) writes.push({ at: Date.now(), name });
  });
  const started = Date.now();
  await callback(last);
  const acknowledged = Date.now();
  let narration;
  for (;;) {
    const res = await json(`${server.url}/api/speech/narrations/${encodeURIComponent(articleId)}`, 'GET');
    if (res.status === 200 && res.body?.audioUrl) {
      narration = res.body;
      break;
    }
    if (Date.now() - started > 120_000)
      throw new Error(`${articleId} not public 120 s after its last callback: ${JSON.stringify(res.body)}`);
    await sleep(POLL_MS);
  }
  const publicAt = Date.now();
  clearInterval(sampler);
  watcher.close();
  const after = memoryOf(pid);

  const downloads = media.downloads.slice(downloadsBefore).filter((d) => d.path.includes(encodeURIComponent(articleId)));
  const mp3s = downloads.filter((d) => d.path.endsWith('.mp3'));
  const logAt = (pattern) => strapi.log.find((line) => line.at >= started - 5 && pattern.test(line.message))?.at ?? null;
  const readyAt = logAt(new RegExp(`all \\d+ parts of ${articleId} are ready`));
  const storedAt = logAt(new RegExp(`stored narration of ${articleId}$`));
  const result = {
    run,
    articleId,
    parts,
    characters: planned.characters,
    partSeconds,
    partBytes,
    durationSeconds: narration.durationSeconds,
    audioBytes: narration.audioBytes,
    totalMs: publicAt - started,
    acknowledgedMs: acknowledged - started,
    readyLoggedMs: readyAt && readyAt - started,
    downloads: {
      mp3: mp3s.length,
      srt: downloads.length - mp3s.length,
      bytes: downloads.reduce((sum, d) => sum + d.bytes, 0),
      firstStartMs: Math.min(...downloads.map((d) => d.startedAt)) - started,
      lastEndMs: Math.max(...downloads.map((d) => d.endedAt ?? Infinity)) - started,
    },
    uploads: writes.length
      ? { files: new Set(writes.map((w) => w.name)).size, firstMs: writes[0].at - started, lastMs: writes.at(-1).at - started }
      : null,
    storedLoggedMs: storedAt && storedAt - started,
    memory: { rssBefore: before.rss, peakExtra: after.hwm - before.rss, sampledExtra: sampledMax - before.rss, rssAfter: after.rss },
  };
  // A fast wrong answer is no figure: the joined audio is the hour of parts, every part downloaded once.
  const expectedSeconds = parts * partSeconds;
  result.checks = {
    duration: Math.abs(result.durationSeconds - expectedSeconds) <= parts * 0.1,
    everyPartOnce: mp3s.length === parts && new Set(mp3s.map((d) => d.path)).size === parts,
    bytes: result.audioBytes > parts * partBytes * 0.98 && result.audioBytes <= parts * partBytes,
  };
  result.ok =
    Object.values(result.checks).every(Boolean) && result.totalMs < TARGETS.joinMs && result.memory.peakExtra < TARGETS.joinMB * MB;
  say(
    `join ${run}: ${parts} parts of ${partSeconds} s (${(partBytes / MB).toFixed(2)} MB each), ${planned.characters} characters -> ` +
      `${(result.durationSeconds / 60).toFixed(1)} min, ${(result.audioBytes / MB).toFixed(1)} MB; last callback -> public in ${result.totalMs} ms ` +
      `(answered ${result.acknowledgedMs} ms, downloads ${result.downloads.firstStartMs}-${result.downloads.lastEndMs} ms, Media Library files written ${result.uploads ? `${result.uploads.firstMs}-${result.uploads.lastMs} ms` : '-'}, stored logged at ${result.storedLoggedMs} ms); ` +
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
  await narrateArticlesIn(server, 'segmented', DEFAULT_SEGMENT);
  const runs = [];
  for (let run = 1; run <= JOIN_RUNS; run += 1) runs.push(await oneHour(run, { server, emulator, fixtures, media, strapi }));
  return { runs, synthesis: { ...synthesis, speed }, ok: runs.every((run) => run.ok) };
}
