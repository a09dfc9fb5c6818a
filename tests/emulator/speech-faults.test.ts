/**
 * The dropSentence and replaceWord injections: a narration whose audio says something other than
 * the text sent, and an STT transcript of what the audio says (the plugin's narration check).
 */
import { startEmulatorProcess, type EmulatorProcess } from './spawn-emulator';
import {
  mp3Info,
  narrationBody,
  parseSrt,
  requestJson,
  startCallbackServer,
  uploadMultipart,
  waitUntil,
  type CallbackServer,
} from './helpers';

jest.setTimeout(40000);

let emulator: EmulatorProcess;
let callbacks: CallbackServer;

beforeAll(async () => {
  [emulator, callbacks] = await Promise.all([
    startEmulatorProcess({ delayMs: 50, args: ['--stt-queued-ms', '100', '--stt-processing-ms', '100'] }),
    startCallbackServer(),
  ]);
});
afterAll(async () => {
  await emulator?.stop();
  await callbacks?.close();
});
beforeEach(async () => {
  await emulator.control('reset', { body: {} });
  callbacks.received.length = 0;
});

interface Segment {
  start: number;
  end: number;
  text: string;
}

const inject = (body: unknown) => requestJson(`${emulator.url}/__control/inject`, { body, apiKey: null });

/** Narrates like the plugin and downloads the result the callback names. */
async function narrate(articleId: string, text: string, voiceId = 'en-male-1') {
  const res = await requestJson(`${emulator.url}/process-text`, { body: narrationBody(articleId, callbacks.url, { voiceId }, text) });
  expect(res.status).toBe(202);
  const callback = await waitUntil(() => callbacks.received.find((c) => c.body.articleId === articleId), 15000, `callback of ${articleId}`);
  const { audioFile, srtFile } = callback.body.response;
  expect(audioFile).not.toBeNull();
  const mp3 = Buffer.from(await (await fetch(audioFile)).arrayBuffer());
  const srt = await (await fetch(srtFile)).text();
  return { mp3, srt, creditsUsed: Number(res.headers.get('service-credits-used')) };
}

/** Submits to STT and polls until the job is done; answers the final status body. */
async function transcribe(mp3: Buffer, language: string, outputFormat = 'json') {
  const submitted = await uploadMultipart(`${emulator.webUrl}/api/v1/stt/submit/`, [
    { name: 'audio', file: { filename: 'narration.mp3', contentType: 'audio/mpeg', data: mp3 } },
    { name: 'language', value: language },
    { name: 'output_format', value: outputFormat },
  ]);
  expect(submitted.status).toBe(200);
  const jobId = submitted.body.job_id as string;
  return waitUntil(
    async () => {
      const res = await requestJson(`${emulator.webUrl}/api/v1/stt/status/${jobId}/`);
      return ['queued', 'processing'].includes(res.body.status) ? null : res.body;
    },
    15000,
    `STT job ${jobId}`
  );
}

/** Timings a client can trust: each segment has length, they follow one another, and fit in the audio. */
function expectConsistentTimings(segments: Segment[], mp3: Buffer) {
  const { durationSec } = mp3Info(mp3);
  expect(segments[0].start).toBeGreaterThanOrEqual(0);
  segments.forEach((s, i) => {
    expect(s.start).toBeLessThan(s.end);
    if (i > 0) expect(s.start).toBeGreaterThan(segments[i - 1].end);
  });
  expect(segments[segments.length - 1].end).toBeLessThanOrEqual(durationSec);
}

const article = async (articleId: string) => (await emulator.control(`articles?articleId=${articleId}`)).articles[0];

describe('dropSentence', () => {
  const text = 'The first sentence is short. The second sentence goes away. The third sentence stays here.';

  it('leaves a sentence out of the audio: the transcript and the SRT lack it, later sentences move earlier, credits as usual', async () => {
    expect((await inject({ kind: 'dropSentence', sentence: 1, articleId: 'drop' })).status).toBe(201);
    const { mp3, srt, creditsUsed } = await narrate('drop', text);
    expect(creditsUsed).toBe([...text].length);

    const final = await transcribe(mp3, 'en-US');
    expect(final.status).toBe('completed');
    const segments: Segment[] = final.result.subtitles;
    expect(segments.map((s) => s.text)).toEqual(['The first sentence is short.', 'The third sentence stays here.']);
    expectConsistentTimings(segments, mp3);
    // No hole where the sentence was: only the usual 0.3 s pause between the two that remain.
    expect(segments[1].start - segments[0].end).toBeCloseTo(0.3, 2);
    // The SRT file describes the same audio.
    const cues = parseSrt(srt);
    expect(cues.map((c) => c.text)).toEqual(segments.map((s) => s.text));
    cues.forEach((cue, i) => {
      expect(cue.start).toBeCloseTo(segments[i].start, 3);
      expect(cue.end).toBeCloseTo(segments[i].end, 3);
    });

    const narrated = await article('drop');
    expect(narrated.audio).toMatchObject({
      sentences: 3,
      narratedSentences: 2,
      cues: 2,
      injected: [{ kind: 'dropSentence', sentence: 1, text: 'The second sentence goes away.' }],
    });
    expect(narrated.creditsCharged).toBe([...text].length);
    const { jobs } = await emulator.control(`stt-jobs?sha256=${narrated.audio.sha256}`);
    expect(jobs).toEqual([expect.objectContaining({ language: 'en-US', transcriptSource: 'emulator-audio' })]);
  });

  it('drops the second sentence by default and clamps an index past the end to the last sentence', async () => {
    await inject({ kind: 'dropSentence', articleId: 'drop-default' });
    await inject({ kind: 'dropSentence', sentence: 99, articleId: 'drop-last' });
    const byDefault = await narrate('drop-default', text);
    const last = await narrate('drop-last', text);
    const texts = (srt: string) => parseSrt(srt).map((c) => c.text);
    expect(texts(byDefault.srt)).toEqual(['The first sentence is short.', 'The third sentence stays here.']);
    expect(texts(last.srt)).toEqual(['The first sentence is short.', 'The second sentence goes away.']);
    expect((await emulator.control('inject')).injections).toEqual([]);
  });

  it('leaves no audio when the only sentence is dropped: a null callback and a refund, as with noAudio', async () => {
    await inject({ kind: 'dropSentence', articleId: 'drop-all' });
    const res = await requestJson(`${emulator.url}/process-text`, {
      body: narrationBody('drop-all', callbacks.url, {}, 'Only one sentence.'),
    });
    expect(res.status).toBe(202);
    const callback = await waitUntil(() => callbacks.received.find((c) => c.body.articleId === 'drop-all'), 15000, 'callback');
    expect(callback.body.response).toMatchObject({ audioFile: null, srtFile: null });
    expect(await article('drop-all')).toMatchObject({ state: 'failed', creditsCharged: 0 });
  });
});

describe('replaceWord', () => {
  it('says the replacement instead of the first whole-word match (case-insensitive), in the transcript and the SRT', async () => {
    const text = 'My secondhand bike is blue. The second bike is red. A second look helps.';
    await inject({ kind: 'replaceWord', word: 'SECOND', with: 'third' });
    const { mp3, srt } = await narrate('replace', text);

    const final = await transcribe(mp3, 'en-US');
    const segments: Segment[] = final.result.subtitles;
    expect(segments.map((s) => s.text)).toEqual(['My secondhand bike is blue.', 'The third bike is red.', 'A second look helps.']);
    expectConsistentTimings(segments, mp3);
    expect((await transcribe(mp3, 'en-US', 'srt')).result.subtitles).toBe(srt);
    expect((await article('replace')).audio.injected).toEqual([{ kind: 'replaceWord', word: 'SECOND', with: 'third', sentence: 1 }]);
  });

  it('matches Arabic whole words (not inside a longer word)', async () => {
    await inject({ kind: 'replaceWord', word: 'هذه', with: 'تلك', articleId: 'replace-ar' });
    const { mp3, srt } = await narrate('replace-ar', 'وهذه جملة أولى. هذه جملة ثانية.', 'ar-male-1');

    const final = await transcribe(mp3, 'ar-JO');
    const segments: Segment[] = final.result.subtitles;
    expect(segments.map((s) => s.text)).toEqual(['وهذه جملة أولى.', 'تلك جملة ثانية.']);
    expectConsistentTimings(segments, mp3);
    expect(parseSrt(srt).map((c) => c.text)).toEqual(['وهذه جملة أولى.', 'تلك جملة ثانية.']);
    const { jobs } = await emulator.control('stt-jobs');
    expect(jobs[0]).toMatchObject({ language: 'ar-JO', transcriptSource: 'emulator-audio' });
  });

  it('is consumed all the same when the word is not in the text, and the audio is unchanged', async () => {
    await inject({ kind: 'replaceWord', word: 'zebra', with: 'horse' });
    const { mp3 } = await narrate('no-zebra', 'The first sentence is short. The third sentence stays here.');
    expect((await emulator.control('inject')).injections).toEqual([]);
    const final = await transcribe(mp3, 'en-US');
    expect(final.result.subtitles.map((s: Segment) => s.text)).toEqual(['The first sentence is short.', 'The third sentence stays here.']);
    expect((await article('no-zebra')).audio.injected).toEqual([{ kind: 'replaceWord', word: 'zebra', with: 'horse', sentence: null }]);
  });
});

describe('validation', () => {
  it.each([
    [{ kind: 'dropSentence', sentence: -1 }, 'sentence must be an integer >= 0'],
    [{ kind: 'dropSentence', sentence: '1' }, 'sentence must be an integer >= 0'],
    [{ kind: 'dropSentence', target: 'tts' }, 'target does not apply to dropSentence'],
    [{ kind: 'dropSentence', sentences: 2 }, 'unknown field(s) for dropSentence: sentences'],
    [{ kind: 'replaceWord', with: 'x' }, 'word is required for replaceWord'],
    [{ kind: 'replaceWord', word: 'x' }, 'with is required for replaceWord'],
    [{ kind: 'replaceWord', word: 3, with: 'x' }, 'word must be a string'],
    [{ kind: 'replaceWord', word: ' ', with: 'x' }, 'word must not be blank'],
    [{ kind: 'replaceWord', word: 'two words', with: 'x' }, 'word must be a single word (no spaces)'],
    [{ kind: 'replaceWord', word: 'x', with: '' }, 'with must not be blank'],
    [{ kind: 'replaceWord', word: 'x', with: 'y', count: 0 }, 'count must be an integer >= 1'],
  ])('answers 400 for %j', async (body, message) => {
    const res = await inject(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: { code: 'INVALID_REQUEST', message } });
    expect((await emulator.control('inject')).injections).toEqual([]);
  });

  it('fills the defaults and keeps the filter and count', async () => {
    expect((await inject({ kind: 'dropSentence' })).body.injection).toMatchObject({ kind: 'dropSentence', sentence: 1, remaining: 1 });
    const replace = await inject({ kind: 'replaceWord', word: 'fox', with: 'dog', articleId: 'a-1', count: 2 });
    expect(replace.body.injection).toMatchObject({ kind: 'replaceWord', word: 'fox', with: 'dog', articleId: 'a-1', remaining: 2 });
  });
});
