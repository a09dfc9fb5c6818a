/**
 * Speech synthesis runs in a worker thread: a stop ends a synthesis at once, and the worker's
 * output is the synthesis itself, byte for byte. (Answering during a synthesis and a reset in the
 * middle of one: tts.test.ts.)
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startEmulatorProcess } from './spawn-emulator';
import { longText, requestJson, sleep } from './helpers';

jest.setTimeout(60000);

it('stops with exit code 0 in the middle of a synthesis, without waiting for it', async () => {
  const emulator = await startEmulatorProcess();
  const speech = requestJson(`${emulator.webUrl}/api/v1/tts/generate`, { body: { text: longText(60), voice_id: 'en-male-1' } }).catch(
    (error: unknown) => error // its connection is closed
  );
  await sleep(500);
  const startedAt = performance.now();
  expect(await emulator.stop()).toBe(0);
  // The synthesis of 60 sentences takes several seconds; the worker is terminated instead.
  expect(performance.now() - startedAt).toBeLessThan(3000);
  await speech;
});

/** Runs an ES module script against emulator/src/speech in a child process and returns its JSON output. */
async function runSpeechScript(body: string): Promise<any> {
  const speechDir = pathToFileURL(path.resolve(__dirname, '../../emulator/src/speech')).href;
  const script = `const speech = ${JSON.stringify(speechDir)};\n${body}`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(stdout);
}

describe('the synthesis worker', () => {
  it('returns the same MP3 and cues as a synthesis on the calling thread', async () => {
    const result = await runSpeechScript(`
      const { SpeechSynthesizer } = await import(speech + '/synthesizer.mjs');
      const { synthesizeSpeech } = await import(speech + '/synth.mjs');
      const { sha256Hex } = await import(speech + '/media.mjs');
      const synthesizer = new SpeechSynthesizer();
      const out = [];
      for (const [voice, sentences] of [['en-us', ['-v starts with a dash!', 'Second sentence, with a comma.']], ['ar', ['مرحبا بكم.', 'الجو جميل جدا؟']]]) {
        const inWorker = await synthesizer.synthesize(sentences, voice, { gapMs: 300 });
        const inThread = await synthesizeSpeech(sentences, voice, { gapMs: 300 });
        out.push({
          sameBytes: Buffer.compare(inWorker.mp3, inThread.mp3) === 0,
          bytes: inWorker.mp3.length,
          sha256: inWorker.sha256 === sha256Hex(inThread.mp3),
          workerCues: inWorker.cues,
          threadCues: inThread.cues,
          sameDuration: inWorker.durationSec === inThread.durationSec,
        });
      }
      await synthesizer.close();
      process.stdout.write(JSON.stringify(out));
    `);
    expect(result).toHaveLength(2);
    for (const voice of result) {
      expect(voice).toMatchObject({ sameBytes: true, sha256: true, sameDuration: true });
      expect(voice.bytes).toBeGreaterThan(1000);
      expect(voice.workerCues).toHaveLength(2);
      expect(voice.workerCues).toEqual(voice.threadCues);
    }
  });

  it("speaks every voice of the catalogue from the few data files it keeps of eSpeak's 445", async () => {
    const result = await runSpeechScript(`
      const { synthesizeSpeech, isVoiceData } = await import(speech + '/synth.mjs');
      const { VOICES } = await import(speech + '/voices.mjs');
      const voices = [];
      for (const voice of VOICES) {
        const said = await synthesizeSpeech([voice.language === 'ar' ? 'مرحبا بكم.' : 'Welcome.'], voice.espeakVoice, { gapMs: 300 });
        voices.push({ id: voice.id, durationSec: said.durationSec });
      }
      const files = ['phontab', 'phondata', 'phonindex', 'intonations', 'en_dict', 'ar_dict', 'fr_dict', 'lang/gmw/en-US', 'lang/gmw/en',
        'lang/sem/ar', 'lang/roa/fr', 'lang/sem/he', 'voices/!v/f3', 'voices/!v/m3', 'voices/!v/klatt', 'voices/mb/mb-ar1'];
      process.stdout.write(JSON.stringify({ voices, kept: files.filter(isVoiceData) }));
    `);
    for (const voice of result.voices) expect(voice.durationSec).toBeGreaterThan(0.3);
    expect(result.voices).toHaveLength(5);
    expect(result.kept).toEqual([
      'phontab',
      'phondata',
      'phonindex',
      'intonations',
      'en_dict',
      'ar_dict',
      'lang/gmw/en-US',
      'lang/gmw/en',
      'lang/sem/ar',
      'voices/!v/f3',
      'voices/!v/m3',
    ]);
  });

  it("rejects with eSpeak's error when a synthesis fails, aborts on its signal, and keeps serving", async () => {
    const result = await runSpeechScript(`
      const { SpeechSynthesizer } = await import(speech + '/synthesizer.mjs');
      const synthesizer = new SpeechSynthesizer();
      const outcome = (promise) => promise.then((s) => ({ cues: s.cues.length }), (e) => ({ error: e.message }));
      const failed = await outcome(synthesizer.synthesize(['Hello.'], 'zz-nope' /* not an eSpeak voice */, { gapMs: 300 }));
      const controller = new AbortController();
      const long = outcome(synthesizer.synthesize(Array(40).fill('A sentence to say.'), 'en-us', { gapMs: 300, signal: controller.signal }));
      setTimeout(() => controller.abort(new Error('state reset')), 200);
      const aborted = await long;
      const after = await outcome(synthesizer.synthesize(['After.', 'Two.'], 'en-us', { gapMs: 300 }));
      const closing = outcome(synthesizer.synthesize(Array(40).fill('A sentence to say.'), 'en-us', { gapMs: 300 }));
      await synthesizer.close();
      const whenClosed = await closing;
      const afterClose = await outcome(synthesizer.synthesize(['x.'], 'en-us', { gapMs: 300 }));
      process.stdout.write(JSON.stringify({ failed, aborted, after, whenClosed, afterClose }));
    `);
    expect(result).toEqual({
      failed: { error: 'espeak-ng exited with status 1' },
      aborted: { error: 'state reset' },
      after: { cues: 2 },
      whenClosed: { error: 'The speech synthesizer was closed.' },
      afterClose: { error: 'The speech synthesizer is closed.' },
    });
  });
});
