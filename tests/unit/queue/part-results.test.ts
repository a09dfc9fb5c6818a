import { spawnSync } from 'child_process';
import { promises as fs } from 'fs';
import http from 'http';
import os from 'os';
import path from 'path';
import { createPartResults } from '../../../server/src/queue/media/part-results';
import { parsePluginConfig } from '../../../server/src/config/schema';
import { emulatorMp3 } from '../audio/mp3-fixtures';

/** A part's results fetched as its callback comes, taken by the join (queue/media/part-results.ts). */

const MP3 = emulatorMp3(1);
const SRT = '1\n00:00:00,000 --> 00:00:01,000\nA part.\n';

let server: http.Server;
let origin: string;
let inFlight = 0;
let mostInFlight = 0;
let workDir: string;
/** Where the cache under test makes its folder (os.tmpdir() in Strapi). */
let cacheBase: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    res.on('close', () => (inFlight -= 1));
    // A moment per request, so that fetches started together overlap.
    setTimeout(() => {
      if (req.url?.endsWith('.mp3')) res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(MP3);
      else if (req.url?.endsWith('.srt')) res.writeHead(200, { 'content-type': 'text/plain' }).end(SRT);
      else res.writeHead(404).end('gone');
    }, 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

beforeEach(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'part-results-test-'));
  cacheBase = await fs.mkdtemp(path.join(os.tmpdir(), 'part-results-cache-'));
  mostInFlight = 0;
});

afterEach(async () => {
  await fs.rm(workDir, { recursive: true, force: true });
  await fs.rm(cacheBase, { recursive: true, force: true });
});

const config = () =>
  parsePluginConfig({ baseUrl: 'https://api.speech.example', webUrl: 'https://web.speech.example', mediaHosts: [origin] });
const result = (name: string) => ({ audioFile: `${origin}/${name}.mp3`, srtFile: `${origin}/${name}.srt` });

/** The folders the cache downloads into (speech-parts-*: none before its first fetch). */
async function cacheFolders(): Promise<string[]> {
  return (await fs.readdir(cacheBase)).filter((name) => name.startsWith('speech-parts-')).map((name) => path.join(cacheBase, name));
}

describe('part results fetched ahead of the join', () => {
  it('hands the join the files fetched when the callback came, moved into its folder, once', async () => {
    const results = createPartResults(config(), { tempDir: cacheBase });
    results.fetch(result('p1'));
    const taken = await results.take(result('p1'), workDir);
    expect(taken).not.toBeNull();
    expect(path.dirname(taken!.audio.path)).toBe(workDir);
    expect(await fs.readFile(taken!.audio.path)).toEqual(MP3);
    expect(await fs.readFile(taken!.srt.path, 'utf8')).toBe(SRT);
    expect(taken!.audio.durationSeconds).toBeGreaterThan(0.9);
    // Taken once: a second join (a retry) downloads it itself.
    expect(await results.take(result('p1'), workDir)).toBeNull();
    expect(await results.take(result('never-heard'), workDir)).toBeNull();
    await results.close();
  });

  it('gives nothing for a result it could not fetch, and keeps no file of it', async () => {
    const results = createPartResults(config(), { tempDir: cacheBase });
    results.fetch({ audioFile: `${origin}/p2.mp3`, srtFile: `${origin}/missing` });
    results.fetch({ audioFile: 'https://elsewhere.example/p3.mp3', srtFile: 'https://elsewhere.example/p3.srt' });
    expect(await results.take({ audioFile: `${origin}/p2.mp3`, srtFile: `${origin}/missing` }, workDir)).toBeNull();
    expect(
      await results.take({ audioFile: 'https://elsewhere.example/p3.mp3', srtFile: 'https://elsewhere.example/p3.srt' }, workDir)
    ).toBeNull();
    const [folder] = await cacheFolders();
    expect(await fs.readdir(folder)).toEqual([]);
    await results.close();
  });

  it('fetches two parts at a time, and close() removes what it holds', async () => {
    const results = createPartResults(config(), { tempDir: cacheBase });
    for (let n = 0; n < 6; n += 1) results.fetch(result(`q${n}`));
    expect(await results.take(result('q5'), workDir)).not.toBeNull();
    // Two parts at once, each its MP3 and its SRT side by side.
    expect(mostInFlight).toBe(4);
    expect(await cacheFolders()).toHaveLength(1);
    await results.close();
    expect(await cacheFolders()).toEqual([]);
    // Stopped: nothing more is fetched.
    results.fetch(result('late'));
    expect(await results.take(result('late'), workDir)).toBeNull();
  });

  it("removes the folder a killed process left, not a running one's", async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const left = path.join(cacheBase, `speech-parts-${gone.stdout}-abc123`);
    const alive = path.join(cacheBase, `speech-parts-${process.ppid}-def456`);
    for (const folder of [left, alive]) {
      await fs.mkdir(folder);
      await fs.writeFile(path.join(folder, 'speech-part.mp3'), MP3);
    }
    const results = createPartResults(config(), { tempDir: cacheBase });
    results.fetch(result('r1'));
    expect(await results.take(result('r1'), workDir)).not.toBeNull();
    const folders = await cacheFolders();
    expect(folders).not.toContain(left);
    expect(folders).toContain(alive);
    expect(folders).toHaveLength(2);
    await results.close();
  });

  it('drops a result not joined within 20 minutes, and its files', async () => {
    let now = 0;
    const results = createPartResults(config(), { tempDir: cacheBase, now: () => now });
    results.fetch(result('old'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    now = 19 * 60 * 1000;
    results.fetch(result('kept'));
    now = 20 * 60 * 1000;
    results.fetch(result('new'));
    expect(await results.take(result('old'), workDir)).toBeNull();
    expect(await results.take(result('kept'), workDir)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [folder] = await cacheFolders();
    // What is left in the cache is the new result's two files: the old one's were removed.
    expect((await fs.readdir(folder)).length).toBe(2);
    expect(await results.take(result('new'), workDir)).not.toBeNull();
    await results.close();
  });
});
