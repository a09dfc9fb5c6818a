/**
 * The Transcribe page in a real headless Chromium against the playground Strapi and the
 * speech-service emulator: upload with a progress bar, live status, the timed transcript and
 * the raw SRT, an SRT download, "Save to Media Library", the recent list, a file over 50 MB
 * refused in the browser before any request, and a dropped 18 MB recording sent over a slow link
 * (Chromium goes through a throttling proxy) whose progress bar passes through in-between values.
 *
 * Needs the playground's admin bundle, built after the plugin:
 *   node node_modules/@strapi/sdk-plugin/bin/strapi-plugin.js build
 *   cd playground && node ../node_modules/@strapi/strapi/bin/strapi.js build
 *
 * One Strapi boot for the whole file; the steps run in order and build on each other.
 * Screenshots go to test-artifacts/e2e/transcribe-*.png (`npm run screenshots` copies the README's
 * ones to docs/; a test never writes a tracked file).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Stack } from '../integration/harness';
import { ARTIFACTS, closeAdminSession, expectAttribute, expectText, logIn, openAdminSession } from './browser';
import { startThrottlingProxy, type ThrottlingProxy } from './throttling-proxy';

jest.setTimeout(120_000);

const SPOKEN = 'Hello from the transcription test.';

let stack: Stack;
let proxy: ThrottlingProxy;
let browser: Browser;
let page: Page;
let tempDir: string;
let audioPath: string;
let bigPath: string;
/** Console errors, page errors and failed plugin requests: the page must produce none. */
const problems: string[] = [];
/** Every POST /speech/transcriptions the page sent. */
const submissions: string[] = [];
let transcriptionId: number | null = null;

async function shot(name: string) {
  const file = path.join(ARTIFACTS, `transcribe-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Records, in the page, every percentage the progress bar shows from now on (a MutationObserver,
 * so no value is missed between two samples). Returns a reader of the values, in order.
 */
async function recordPercents(): Promise<() => Promise<number[]>> {
  const key = `__percents${Math.random().toString(36).slice(2)}`;
  await page.evaluate((name) => {
    const seen: string[] = [];
    (window as any)[name] = seen;
    new MutationObserver(() => {
      const value = document.querySelector('[data-testid="transcribe-progress"]')?.getAttribute('data-percent');
      if (value !== null && value !== undefined && seen[seen.length - 1] !== value) seen.push(value);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-percent'] });
  }, key);
  return async () => ((await page.evaluate((name) => (window as any)[name] as string[], key)) ?? []).map(Number);
}

beforeAll(async () => {
  // Uploads to the plugin go over a 4 MB/s link; everything else at full speed.
  proxy = await startThrottlingProxy({
    bytesPerSecond: 4 * 1024 * 1024,
    throttle: (method, pathname) => method === 'POST' && pathname === '/speech/transcriptions',
  });
  ({ stack, browser, page } = await openAdminSession('tests/e2e/transcribe.test.ts', problems, {
    env: { SPEECH_STT_POLL_MS: '300' },
    onResponse: (answer) => {
      const url = new URL(answer.url());
      if (url.pathname === '/speech/transcriptions' && answer.request().method() === 'POST') submissions.push(`${answer.status()}`);
    },
    proxyUrl: proxy.url,
  }));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/speech/transcriptions' && request.method() === 'POST') submissions.push('sent');
  });

  // Audio the emulator synthesized: its speech to text gives the same words back.
  const response = await stack.request('/speech/tts/preview', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
    body: JSON.stringify({ voiceId: 'en-female-1', text: SPOKEN }),
  });
  if (response.status !== 200) throw new Error(`TTS preview failed: ${response.status} ${await response.text()}`);
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'speech-e2e-transcribe-'));
  audioPath = path.join(tempDir, 'hello.mp3');
  fs.writeFileSync(audioPath, Buffer.from(await response.arrayBuffer()));
  // 51 MB without writing 51 MB: a sparse file.
  bigPath = path.join(tempDir, 'too-long-interview.mp3');
  fs.writeFileSync(bigPath, '');
  fs.truncateSync(bigPath, 51 * 1024 * 1024);
}, 150_000);

afterAll(async () => {
  await closeAdminSession({ browser, stack });
  await proxy?.close();
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
});

it('logs in', async () => {
  await logIn(page, stack.url);
});

it('opens Transcribe from the main menu, with an empty list of recent transcriptions', async () => {
  await page.getByRole('link', { name: 'Transcribe' }).first().click();
  await page.getByRole('heading', { name: 'Transcribe', level: 1 }).waitFor();
  await page.getByTestId('transcribe-recent-empty').waitFor();
  // The language picker starts on ar-JO.
  expect(await page.getByRole('combobox', { name: 'Language' }).inputValue()).toContain('ar-JO');
  await shot('empty');
});

it('refuses a file over 50 MB in the browser with a clear message, without a request', async () => {
  await page.getByTestId('transcribe-file-input').setInputFiles(bigPath);
  await expectText(page.getByTestId('transcribe-file-error'), 'This file is 51 MB: the limit is 50 MB.');
  expect(await page.getByTestId('transcribe-submit').isDisabled()).toBe(true);
  await page
    .getByTestId('transcribe-submit')
    .click({ force: true })
    .catch(() => undefined);
  await page.waitForTimeout(500);
  expect(submissions).toEqual([]);
  await shot('too-large');
});

it('uploads an MP3 with a progress bar, follows the job to completed and shows the timed transcript and the SRT', async () => {
  await page.getByTestId('transcribe-file-input').setInputFiles(audioPath);
  await expectText(page.getByTestId('transcribe-file-name'), 'hello.mp3');
  expect(await page.getByTestId('transcribe-file-error').count()).toBe(0);

  const language = page.getByRole('combobox', { name: 'Language' });
  await language.click();
  await language.fill('en-US');
  await page.getByRole('option', { name: /en-US/ }).click();
  expect(await language.inputValue()).toContain('en-US');
  await page.getByRole('radio', { name: 'SRT subtitles' }).click();

  const percents = new Set<number>();
  const phases = new Set<string>();
  const statuses = new Set<string>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const progress = page.getByTestId('transcribe-progress');
      const percent = await progress.getAttribute('data-percent', { timeout: 200 }).catch(() => null);
      const phase = await progress.getAttribute('data-phase', { timeout: 200 }).catch(() => null);
      const status = await page
        .getByTestId('transcribe-job')
        .getByTestId('transcribe-status')
        .getAttribute('data-status', { timeout: 200 })
        .catch(() => null);
      if (percent !== null) percents.add(Number(percent));
      if (phase) phases.add(phase);
      if (status) statuses.add(status);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();

  // Every percentage the bar shows, recorded in the page (no sampling gaps).
  const percentsShown = await recordPercents();
  await page.getByTestId('transcribe-submit').click();
  const bar = page.getByTestId('transcribe-progress-bar');
  await bar.waitFor();
  expect(await bar.getAttribute('role')).toBe('progressbar');
  await shot('uploading');
  await expectAttribute(page.getByTestId('transcribe-progress'), 'data-percent', '100', 30_000);
  await expectAttribute(page.getByTestId('transcribe-progress'), 'data-phase', 'done', 30_000);
  await expectAttribute(bar, 'aria-valuenow', '100');
  await expectText(page.getByTestId('transcribe-progress-text'), 'Uploaded and accepted by the speech service.');

  const job = page.getByTestId('transcribe-job');
  await expectAttribute(job.getByTestId('transcribe-status'), 'data-status', 'completed', 45_000);
  sampling = false;
  await sampler;
  // The sampler's last round may have begun before the job completed: take one last reading.
  statuses.add((await job.getByTestId('transcribe-status').getAttribute('data-status')) ?? '');
  phases.add((await page.getByTestId('transcribe-progress').getAttribute('data-phase')) ?? '');
  transcriptionId = Number(new URL(page.url()).searchParams.get('id'));
  expect(submissions).toEqual(['sent', '201']);
  (await percentsShown()).forEach((value) => percents.add(value));
  expect(Math.max(...percents)).toBe(100);
  // The bar was on screen while the upload ran (a file of a few KB goes from 0 to 100 at once even
  // over the 4 MB/s link; the dropped recording below shows the values in between).
  const sequence = await percentsShown();
  expect(sequence[0]).toBe(0);
  expect(sequence[sequence.length - 1]).toBe(100);
  expect([...phases]).toContain('done');
  expect([...statuses]).toContain('completed');
  // The job was followed live: a status before completion was on screen.
  expect([...statuses].some((status) => status === 'queued' || status === 'processing')).toBe(true);

  await expectText(job.getByTestId('transcribe-status'), 'Completed');
  const transcript = job.getByTestId('transcribe-transcript');
  await expectText(transcript, 'Hello from the transcription test');
  // mm:ss – mm:ss before each segment.
  expect(await transcript.innerText()).toMatch(/00:0\d – 00:0\d/);
  const srt = job.getByTestId('transcribe-srt');
  await expectText(srt, '-->');
  await expectText(srt, 'Hello from the transcription test');

  expect(transcriptionId).toBeGreaterThan(0);
  const { body } = await stack.admin('GET', `/speech/transcriptions/${transcriptionId}`);
  expect(body.data).toMatchObject({ status: 'completed', language: 'en-US', outputFormat: 'srt', fileName: 'hello.mp3' });

  // The recent list shows it, completed.
  const row = page.getByTestId('transcribe-recent-row').first();
  await expectAttribute(row.getByTestId('transcribe-recent-status'), 'data-status', 'completed');
  await job.scrollIntoViewIfNeeded();
  await shot('completed');
});

it('downloads the SRT through an authenticated request', async () => {
  const job = page.getByTestId('transcribe-job');
  const [download] = await Promise.all([page.waitForEvent('download'), job.getByTestId('transcribe-download-srt').click()]);
  expect(download.suggestedFilename()).toMatch(/^hello.*\.srt$/);
  const saved = path.join(tempDir, download.suggestedFilename());
  await download.saveAs(saved);
  const text = fs.readFileSync(saved, 'utf8');
  expect(text).toMatch(/^1\r?\n00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}/);
  expect(text).toContain('Hello from the transcription test');

  const [vtt] = await Promise.all([page.waitForEvent('download'), job.getByTestId('transcribe-download-vtt').click()]);
  expect(vtt.suggestedFilename()).toMatch(/\.vtt$/);
  const vttPath = path.join(tempDir, vtt.suggestedFilename());
  await vtt.saveAs(vttPath);
  expect(fs.readFileSync(vttPath, 'utf8')).toMatch(/^WEBVTT/);
});

it('saves the result to the Media Library and shows the saved file', async () => {
  const job = page.getByTestId('transcribe-job');
  await job.getByTestId('transcribe-save').click();
  await page
    .getByText(/Saved to the Media Library as/)
    .first()
    .waitFor();
  const saved = job.getByTestId('transcribe-saved-file');
  await expectText(saved, '.srt');
  const { body } = await stack.admin('GET', `/speech/transcriptions/${transcriptionId}`);
  expect(body.data.savedFile).toMatchObject({ name: expect.stringMatching(/\.srt$/) });
  expect(await saved.innerText()).toContain(body.data.savedFile.name);
  const file = await stack.request(body.data.savedFile.url);
  expect(file.status).toBe(200);
  expect(await file.text()).toContain('Hello from the transcription test');
  await saved.scrollIntoViewIfNeeded();
  await shot('saved');
});

it('opens a transcription from the recent list', async () => {
  await page.goto(`${stack.url}/admin/plugins/speech`);
  await page.getByRole('heading', { name: 'Transcribe', level: 1 }).waitFor();
  expect(await page.getByTestId('transcribe-job').count()).toBe(0);
  await page.getByTestId('transcribe-recent-row').filter({ hasText: 'hello.mp3' }).first().click();
  await expectText(page.getByTestId('transcribe-transcript'), 'Hello from the transcription test');
  await expectAttribute(page.getByTestId('transcribe-job').getByTestId('transcribe-status'), 'data-status', 'completed');
});

it('takes a recording dropped on the drop zone and shows the upload going through in-between percentages', async () => {
  const zone = page.getByTestId('transcribe-dropzone');
  // A 10-minute 16 kHz mono WAV (18 MB) made in the page, with tones where the emulator should find
  // sound (it labels sound in a WAV by energy; it never invents words): 0:10-0:20, 1:00-1:15, 2:30-2:40.
  // That size because Chromium's socket takes the first 4-6 MB at once and then reports upload
  // progress about every 1.5 MB: over 4 MB/s the bar moves through about ten values in 4 s.
  const dataTransfer = await page.evaluateHandle(() => {
    const rate = 16_000;
    const seconds = 600;
    const samples = new Int16Array(rate * seconds);
    for (const [from, to] of [
      [10, 20],
      [60, 75],
      [150, 160],
    ]) {
      for (let i = from * rate; i < to * rate; i += 1) samples[i] = Math.round(12_000 * Math.sin((2 * Math.PI * 440 * i) / rate));
    }
    const header = new DataView(new ArrayBuffer(44));
    const text = (offset: number, value: string) => [...value].forEach((c, i) => header.setUint8(offset + i, c.charCodeAt(0)));
    text(0, 'RIFF');
    header.setUint32(4, 36 + samples.byteLength, true);
    text(8, 'WAVE');
    text(12, 'fmt ');
    header.setUint32(16, 16, true);
    header.setUint16(20, 1, true); // PCM
    header.setUint16(22, 1, true); // mono
    header.setUint32(24, rate, true);
    header.setUint32(28, rate * 2, true);
    header.setUint16(32, 2, true);
    header.setUint16(34, 16, true);
    text(36, 'data');
    header.setUint32(40, samples.byteLength, true);
    const transfer = new DataTransfer();
    transfer.items.add(new File([header.buffer, samples.buffer], 'field-interview.wav', { type: 'audio/wav' }));
    return transfer;
  });
  const fileBytes = 44 + 16_000 * 600 * 2;

  // Dragging over the zone highlights it; dropping picks the file (the same path as the file input).
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await expectAttribute(zone, 'data-dragging', 'true');
  await zone.dispatchEvent('dragover', { dataTransfer });
  await shot('dragging');
  await zone.dispatchEvent('drop', { dataTransfer });
  await expectAttribute(zone, 'data-dragging', 'false');
  await expectText(page.getByTestId('transcribe-file-name'), 'field-interview.wav');
  await page.getByRole('radio', { name: 'JSON' }).click();

  const dropPercents = await recordPercents();
  const before = submissions.length;
  // Without the bar's 320 ms slide, what is drawn is the current value (and the screenshot shows it).
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.getByTestId('transcribe-submit').click();

  // Part-way: the drawn bar, its ARIA value and its text agree on a value strictly between 0 and 100.
  const progress = page.getByTestId('transcribe-progress');
  const drawn = await page.waitForFunction(
    () => {
      const value = Number(document.querySelector('[data-testid="transcribe-progress"]')?.getAttribute('data-percent'));
      const bar = document.querySelector('[data-testid="transcribe-progress-bar"]');
      const fill = bar?.firstElementChild;
      if (!bar || !fill || !(value >= 20 && value <= 80)) return null;
      const outer = bar.getBoundingClientRect();
      const inner = fill.getBoundingClientRect();
      return {
        value,
        ariaValue: Number(bar.getAttribute('aria-valuenow')),
        text: document.querySelector('[data-testid="transcribe-progress-text"]')?.textContent ?? '',
        filledPercent: ((Math.min(inner.right, outer.right) - outer.left) / outer.width) * 100,
      };
    },
    undefined,
    { timeout: 20_000, polling: 25 }
  );
  const halfway = (await drawn.jsonValue())!;
  expect(halfway.ariaValue).toBe(halfway.value);
  expect(halfway.text).toMatch(new RegExp(`^Uploading: ${halfway.value}% \\(`));
  expect(Math.abs(halfway.filledPercent - halfway.value)).toBeLessThan(1.5);
  await shot('uploading-halfway');

  const job = page.getByTestId('transcribe-job');
  await expectAttribute(progress, 'data-phase', 'done', 30_000);
  await expectAttribute(job.getByTestId('transcribe-status'), 'data-status', 'completed', 45_000);
  expect(submissions.slice(before)).toEqual(['sent', '201']);

  const sequence = await dropPercents();
  const between = sequence.filter((value) => value > 0 && value < 100);
  expect(new Set(between).size).toBeGreaterThanOrEqual(3);
  expect(sequence[sequence.length - 1]).toBe(100);
  // Never backwards.
  sequence.slice(1).forEach((value, index) => expect(value).toBeGreaterThanOrEqual(sequence[index]));
  // The proxy slowed exactly this upload: the whole file plus its multipart envelope.
  const throttledSizes = proxy.throttled.map((line) => Number(line.split(' ')[2]));
  expect(Math.max(...throttledSizes)).toBeGreaterThan(fileBytes);
  expect(Math.max(...throttledSizes)).toBeLessThan(fileBytes + 2_000);

  // Every byte arrived: the sound is found exactly where the tones are.
  await page.emulateMedia({ reducedMotion: null });
  const transcript = job.getByTestId('transcribe-transcript');
  const lines = (await transcript.innerText())
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  expect(lines).toEqual(['00:10 – 00:20', '[speech]', '01:00 – 01:15', '[speech]', '02:30 – 02:40', '[speech]']);
  const id = Number(new URL(page.url()).searchParams.get('id'));
  const { body } = await stack.admin('GET', `/speech/transcriptions/${id}`);
  expect(body.data).toMatchObject({ status: 'completed', language: 'ar-JO', outputFormat: 'json', fileName: 'field-interview.wav' });
});

it('speaks Arabic, right to left', async () => {
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'ar'));
  await page.goto(`${stack.url}/admin/plugins/speech?id=${transcriptionId}`);
  await page.getByRole('heading', { name: 'تفريغ صوتي', level: 1 }).waitFor();
  await expectText(page.getByTestId('transcribe-job').getByTestId('transcribe-status'), 'مكتمل');
  // Strapi's admin does not flip the page for Arabic; the page's own layout must survive it.
  await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
  await shot('ar-rtl');
  await page.evaluate(() => localStorage.setItem('strapi-admin-language', 'en'));
});

it('produced no console errors and no failed plugin requests', () => {
  expect(problems).toEqual([]);
});
