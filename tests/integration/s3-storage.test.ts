import { createReadStream, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DOMParser } from '@xmldom/xmldom';
import { startS3Server, type S3ServerProcess } from '../../scripts/s3-server.cjs';
import { parseSrt } from '../../server/src/subtitles/srt';
import { blocks, contentManager, startStack, waitFor, type Stack } from './harness';
import {
  adminNarration,
  codePoints,
  emulatorDuration,
  longBody,
  narrationRow,
  partRequests,
  publicNarration,
  publishArticleIn,
  publishOneParagraphEdited,
  setNarrationMode,
  spokenText,
  waitForNewNarration,
  waitForStatus,
} from './narration-helpers';

/**
 * The Media Library on S3: the playground with Strapi's own S3 upload provider
 * (`@strapi/provider-upload-aws-s3`, configured as the README says for S3-compatible stores)
 * against s3rver, a real S3 server on a local port (scripts/s3-server.cjs). Everything is checked
 * against the bucket's contents, listed through the AWS SDK: the files of an English and an Arabic
 * narration and of a saved transcription land there and nowhere else, the public routes redirect to
 * them and byte ranges pass through, the feed's lengths and durations are the objects', and after
 * a regenerate, a delete and a crash in the middle of a store the bucket holds exactly the files
 * the narrations link, and the Media Library exactly those too.
 */

const ARTICLE = 'api::article.article';
/** One MPEG 2 layer III frame of the emulator's MP3s (576 samples at 22.05 kHz). */
const FRAME_SECONDS = 576 / 22050;
jest.setTimeout(300_000);

let s3: S3ServerProcess;
let bucket: S3Client;
let stack: Stack;
let articles: ReturnType<typeof contentManager>;
let english: string;
let arabic: string;
/** The narrations that exist, and a saved transcription's file: what may be in the bucket. */
const narrated: Array<{ documentId: string; locale: string }> = [];
let transcriptFileId: number | null = null;

const heading = (text: string) => ({ type: 'heading', level: 2, children: [{ type: 'text', text }] });

interface LibraryFile {
  id: number;
  name: string;
  hash: string;
  ext: string;
  url: string;
  mime: string;
  provider: string;
}

async function bucketKeys(): Promise<string[]> {
  const listed = await bucket.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

async function objectBytes(key: string): Promise<Buffer> {
  const object = await bucket.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
}

/** Every file of the Media Library. */
async function libraryFiles(): Promise<LibraryFile[]> {
  const { body } = await stack.admin('GET', '/upload/files?pageSize=100');
  return body.results as LibraryFile[];
}

/** The S3 key of a Media Library file (the provider's: its hash and extension, no root path). */
const keyOf = (file: Pick<LibraryFile, 'hash' | 'ext'>) => `${file.hash}${file.ext}`;

async function linkedFiles(documentId: string, locale: string): Promise<Array<{ id: number; url: string }>> {
  const row = await narrationRow(stack, ARTICLE, documentId, locale);
  return [row.audio, row.subtitles, row.subtitlesVtt];
}

/** What the bucket, the Media Library and the narrations hold, side by side. */
async function storage() {
  const files = await libraryFiles();
  const linked: number[] = transcriptFileId ? [transcriptFileId] : [];
  for (const { documentId, locale } of narrated) linked.push(...(await linkedFiles(documentId, locale)).map((file) => file.id));
  return {
    bucket: await bucketKeys(),
    library: files.map(keyOf).sort(),
    libraryIds: files.map((file) => file.id).sort((a, b) => a - b),
    linkedIds: linked.sort((a, b) => a - b),
  };
}

/** The bucket holds exactly the Media Library's files, and those are exactly the ones linked: no orphan anywhere. */
async function expectNoOrphans(what: string) {
  const settled = (state: Awaited<ReturnType<typeof storage>>) =>
    JSON.stringify(state.bucket) === JSON.stringify(state.library) && JSON.stringify(state.libraryIds) === JSON.stringify(state.linkedIds);
  const state = await waitFor(
    async () => {
      const current = await storage();
      return settled(current) ? current : null;
    },
    { timeoutMs: 20_000, what }
  ).catch(async () => storage());
  expect(state.bucket).toEqual(state.library);
  expect(state.libraryIds).toEqual(state.linkedIds);
  return state;
}

/** The bucket keys of a narration's three files. */
async function keysOf(documentId: string, locale: string): Promise<string[]> {
  const files = await libraryFiles();
  const ids = (await linkedFiles(documentId, locale)).map((file) => file.id);
  return files
    .filter((file) => ids.includes(file.id))
    .map(keyOf)
    .sort();
}

async function regenerate(documentId: string, locale: string) {
  const response = await stack.admin('POST', '/speech/narrations/regenerate', { contentType: ARTICLE, documentId, locale });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  s3 = await startS3Server();
  bucket = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: s3.credentials });
  stack = await startStack({
    env: {
      UPLOAD_PROVIDER: 'aws-s3',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      SPEECH_LOCALE_VOICES: 'ar=ar-male-1',
      // A store cut short by a crash is taken up again 3 s after it last renewed its lease.
      SPEECH_LEASE_MS: '3000',
      SPEECH_STT_POLL_MS: '300',
    },
    // A part's check polls every 300 ms: more than the default 60 a minute of the status endpoint.
    emulatorArgs: ['--stt-queued-ms', '300', '--stt-processing-ms', '300', '--rate-limit', '600/60'],
  });
  articles = contentManager(stack, ARTICLE);

  english = await publishArticleIn(stack, ARTICLE, 'en', {
    title: 'Stored in a bucket',
    body: [...blocks('An opening sentence.'), heading('Where the files go'), ...blocks('They go to the bucket, not to a disk.')],
  });
  arabic = await publishArticleIn(stack, ARTICLE, 'ar', {
    title: 'مقال في السحابة',
    body: blocks('جملة افتتاحية.', 'الملفات تذهب إلى الحاوية.', 'ثم يسمعها القراء.'),
  });
  await waitForStatus(stack, ARTICLE, english, 'completed', 'en');
  await waitForStatus(stack, ARTICLE, arabic, 'completed', 'ar');
  narrated.push({ documentId: english, locale: 'en' }, { documentId: arabic, locale: 'ar' });
});

afterAll(async () => {
  await stack?.stop();
  bucket?.destroy();
  await s3?.stop();
});

describe('narrations on S3', () => {
  it('the MP3, SRT and VTT of an English and an Arabic narration are objects in the bucket, with their types; nothing is written to public/uploads', async () => {
    const state = await expectNoOrphans('the bucket to hold the two narrations');
    expect(state.bucket).toHaveLength(6);
    const files = await libraryFiles();
    for (const [documentId, locale] of [
      [english, 'en'],
      [arabic, 'ar'],
    ]) {
      const [audio, srt, vtt] = await linkedFiles(documentId, locale);
      const types: string[] = [];
      for (const linked of [audio, srt, vtt]) {
        const file = files.find((candidate) => candidate.id === linked.id)!;
        expect(file.provider).toBe('aws-s3');
        expect(linked.url).toBe(s3.objectUrl(keyOf(file)));
        types.push((await bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: keyOf(file) }))).ContentType!);
      }
      expect(types).toEqual(['audio/mpeg', 'application/x-subrip', 'text/vtt']);
    }
    const arabicSrtId = (await linkedFiles(arabic, 'ar'))[1].id;
    const arabicSrt = (await objectBytes(keyOf(files.find((file) => file.id === arabicSrtId)!))).toString('utf8');
    expect(parseSrt(arabicSrt).map((cue) => cue.text)).toEqual(expect.arrayContaining(['الملفات تذهب إلى الحاوية.']));
    expect(readdirSync(path.join(stack.workDir, 'public', 'uploads'))).toEqual([]);
  });

  it.each(['audio.mp3', 'subtitles.srt', 'subtitles.vtt'])(
    '%s redirects to its object in the bucket, which serves exactly its bytes',
    async (name) => {
      const index = ['audio.mp3', 'subtitles.srt', 'subtitles.vtt'].indexOf(name);
      for (const articleId of [`${english}-en`, `${arabic}-ar`]) {
        const [documentId, locale] = [articleId.slice(0, -3), articleId.slice(-2)];
        const file = (await linkedFiles(documentId, locale))[index];
        const redirect = await stack.request(`/api/speech/narrations/${articleId}/${name}`, { redirect: 'manual' });
        expect(redirect.status).toBe(302);
        expect(redirect.headers.get('location')).toBe(file.url);
        const followed = await fetch(`${stack.url}/api/speech/narrations/${articleId}/${name}`);
        expect(followed.status).toBe(200);
        const key = new URL(file.url).pathname.replace(`/${s3.bucket}/`, '');
        expect(Buffer.from(await followed.arrayBuffer()).equals(await objectBytes(key))).toBe(true);
      }
    }
  );

  it('Range: bytes=1000-1999 on audio.mp3, through the redirect, answers 206 with exactly those bytes of the object', async () => {
    const [audio] = await linkedFiles(arabic, 'ar');
    const whole = await objectBytes(new URL(audio.url).pathname.replace(`/${s3.bucket}/`, ''));
    expect(whole.length).toBeGreaterThan(2000);
    const ranged = await fetch(`${stack.url}/api/speech/narrations/${arabic}-ar/audio.mp3`, { headers: { range: 'bytes=1000-1999' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 1000-1999/${whole.length}`);
    const part = Buffer.from(await ranged.arrayBuffer());
    expect(part.length).toBe(1000);
    expect(part.equals(whole.subarray(1000, 2000))).toBe(true);
  });

  it("chapters.vtt, made at store time from the SRT's cues, starts the heading's chapter at its cue", async () => {
    const chapters = await stack.request(`/api/speech/narrations/${english}-en/chapters.vtt`);
    expect(chapters.status).toBe(200);
    const cues = parseSrt((await chapters.text()).replace(/^WEBVTT\n\n/, ''));
    const srt = parseSrt(await (await fetch(`${stack.url}/api/speech/narrations/${english}-en/subtitles.srt`)).text());
    expect(cues.map((cue) => cue.text)).toEqual(['Stored in a bucket', 'Where the files go']);
    expect(cues[1].startMs).toBe(srt.find((cue) => cue.text === 'Where the files go.')!.startMs);
  });

  it("the feed's enclosure lengths are the objects' sizes and its durations the objects' MP3 durations, with no local file", async () => {
    const response = await stack.request('/api/speech/feeds/articles.xml');
    expect(response.status).toBe(200);
    const doc = new DOMParser().parseFromString(await response.text(), 'text/xml');
    const items = Array.from(doc.getElementsByTagName('item'));
    expect(items).toHaveLength(2);
    for (const item of items) {
      const articleId = item.getElementsByTagName('guid')[0]!.textContent!.split('/')[0];
      const [audio] = await linkedFiles(articleId.slice(0, -3), articleId.slice(-2));
      const key = new URL(audio.url).pathname.replace(`/${s3.bucket}/`, '');
      const head = await bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
      expect(Number(item.getElementsByTagName('enclosure')[0]!.getAttribute('length'))).toBe(head.ContentLength);
      const duration = Number(item.getElementsByTagNameNS('http://www.itunes.com/dtds/podcast-1.0.dtd', 'duration')[0]!.textContent);
      const exact = emulatorDuration(await objectBytes(key));
      expect(Math.abs(duration - exact)).toBeLessThanOrEqual(0.5 + FRAME_SECONDS);
      const json = (await publicNarration(stack, articleId)).body;
      expect(json.audioBytes).toBe(head.ContentLength);
      expect(Number(json.durationSeconds)).toBeCloseTo(exact, 6);
    }
    expect(readdirSync(path.join(stack.workDir, 'public', 'uploads'))).toEqual([]);
  });

  it('a regenerate leaves exactly one set of objects: the new files in, the replaced ones out of the bucket', async () => {
    const before = await keysOf(english, 'en');
    const row = await narrationRow(stack, ARTICLE, english, 'en');
    await regenerate(english, 'en');
    await waitForNewNarration(stack, ARTICLE, english, 'en', row.completedAt);
    const state = await expectNoOrphans('the replaced files to leave the bucket');
    const after = await keysOf(english, 'en');
    expect(after).toHaveLength(3);
    expect(after.filter((key) => before.includes(key))).toEqual([]);
    expect(state.bucket).toHaveLength(6);
  });

  it('a transcription saved to the Media Library is an object in the bucket', async () => {
    const [audio] = await linkedFiles(arabic, 'ar');
    const form = new FormData();
    form.append('language', 'ar-JO');
    form.append('audio', new Blob([new Uint8Array(await (await fetch(audio.url)).arrayBuffer())], { type: 'audio/mpeg' }), 'arabic.mp3');
    const submitted = await stack.request('/speech/transcriptions', {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.adminToken}` },
      body: form,
    });
    expect(submitted.status).toBe(201);
    const { id } = ((await submitted.json()) as any).data;
    await waitFor(async () => (await stack.admin('GET', `/speech/transcriptions/${id}`)).body.data.status === 'completed', {
      what: 'the transcription',
    });
    const saved = await stack.admin('POST', `/speech/transcriptions/${id}/save`, { format: 'srt' });
    expect(saved.status).toBe(201);
    transcriptFileId = saved.body.file.id;
    const file = (await libraryFiles()).find((candidate) => candidate.id === transcriptFileId)!;
    expect(saved.body.file.url).toBe(s3.objectUrl(keyOf(file)));
    const stored = (await objectBytes(keyOf(file))).toString('utf8');
    expect(parseSrt(stored).map((cue) => cue.text)).toContain('الملفات تذهب إلى الحاوية.');
    await expectNoOrphans('the transcription in the bucket');
  });

  it("deleting the article removes its narration's objects from the bucket", async () => {
    const keys = await keysOf(english, 'en');
    await articles.remove(english, 'en');
    narrated.splice(
      narrated.findIndex((entry) => entry.documentId === english),
      1
    );
    const state = await expectNoOrphans('the deleted narration to leave the bucket');
    expect(state.bucket.filter((key) => keys.includes(key))).toEqual([]);
    expect(state.bucket).toHaveLength(4);
  });
});

describe('a crash in the middle of a store', () => {
  it('killed while the VTT is uploaded, the MP3 and SRT already in the bucket: after the restart no orphan object or Media Library file is left', async () => {
    const before = await keysOf(arabic, 'ar');
    const row = await narrationRow(stack, ARTICLE, arabic, 'ar');
    const vttUploads = s3.hold((req) => req.method === 'PUT' && /\.vtt(\?|$)/.test(req.url ?? ''));
    await regenerate(arabic, 'ar');
    await waitFor(async () => vttUploads.count() > 0, { what: 'the VTT upload to start' });
    // The new MP3 and SRT are in the bucket and the Media Library, linked to nothing yet.
    expect(await bucketKeys()).toHaveLength(4 + 2);
    await stack.stopStrapi('SIGKILL');
    vttUploads.drop();
    await stack.restartStrapi();

    await waitForNewNarration(stack, ARTICLE, arabic, 'ar', row.completedAt, 60_000);
    const state = await expectNoOrphans('the files of the store cut short to be removed');
    expect(state.bucket).toHaveLength(4);
    expect((await keysOf(arabic, 'ar')).filter((key) => before.includes(key))).toEqual([]);
  });

  it('killed after the new files are linked, while the replaced ones are deleted: after the restart they are gone', async () => {
    const before = await keysOf(arabic, 'ar');
    const row = await narrationRow(stack, ARTICLE, arabic, 'ar');
    const deletes = s3.hold((req) => req.method === 'DELETE');
    await regenerate(arabic, 'ar');
    await waitFor(async () => deletes.count() > 0, { what: 'the replaced files to be deleted' });
    const linked = await waitForNewNarration(stack, ARTICLE, arabic, 'ar', row.completedAt);
    await stack.stopStrapi('SIGKILL');
    deletes.drop();
    // The new set is linked and the old one still in the bucket.
    expect(await bucketKeys()).toHaveLength(4 + 3);
    await stack.restartStrapi();

    const state = await expectNoOrphans('the replaced files to be removed after the restart');
    expect(state.bucket).toHaveLength(4);
    expect((await keysOf(arabic, 'ar')).filter((key) => before.includes(key))).toEqual([]);
    expect((await narrationRow(stack, ARTICLE, arabic, 'ar')).audio.id).toBe(linked.audio.id);
  });
});

describe('a private bucket (ACL private)', () => {
  // s3rver serves every object to anyone, so this cannot show an unsigned URL refused: it shows
  // the readers and the admin sent to URLs the provider signed, and those serving the file.
  beforeAll(async () => {
    await stack.restartStrapi({ S3_ACL: 'private' });
  });

  it('audio.mp3 redirects to a URL the provider signed for this request, never cached nor tagged, which serves the object', async () => {
    const [audio] = await linkedFiles(arabic, 'ar');
    const key = keyOf((await libraryFiles()).find((file) => file.id === audio.id)!);
    const redirect = await stack.request(`/api/speech/narrations/${arabic}-ar/audio.mp3`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(s3.objectUrl(key));
    expect(location.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(redirect.headers.get('cache-control')).toBe('no-store');
    expect(redirect.headers.get('etag')).toBeNull();
    const served = Buffer.from(await (await fetch(location)).arrayBuffer());
    expect(served.equals(await objectBytes(key))).toBe(true);
  });

  it("the admin's narration panel and saved transcription get signed URLs too", async () => {
    const { data } = await adminNarration(stack, ARTICLE, arabic, 'ar');
    for (const field of ['audio', 'subtitles', 'subtitlesVtt']) {
      expect(new URL(data[0][field].url).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    }
    const { body: transcriptions } = await stack.admin('GET', '/speech/transcriptions');
    const saved = transcriptions.data.find((row: any) => row.savedFile?.id === transcriptFileId);
    expect(new URL(saved.savedFile.url).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('a segmented narration on S3', () => {
  afterAll(async () => {
    await setNarrationMode(stack, ARTICLE, 'whole');
  });

  it('is three objects in the bucket; an edit of one paragraph pays that part alone, reads the others back from the bucket, and removes the replaced objects', async () => {
    // Parts of at most 200 characters: each paragraph of `longBody` is a part of its own.
    await setNarrationMode(stack, ARTICLE, 'segmented', 200);
    const keysBefore = await bucketKeys();
    const body = longBody(6);
    const documentId = await publishArticleIn(stack, ARTICLE, 'en', { title: 'Stored in parts', body: blocks(...body) });
    const articleId = `${documentId}-en`;
    const first = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en', 120_000);
    expect(first.parts.total).toBeGreaterThanOrEqual(6);
    narrated.push({ documentId, locale: 'en' });
    // The joined MP3, SRT and VTT, and nothing of the parts: no object per part.
    const joined = await keysOf(documentId, 'en');
    expect(joined).toHaveLength(3);
    expect((await expectNoOrphans('the joined narration in the bucket')).bucket.filter((key) => !keysBefore.includes(key))).toEqual(joined);

    const files = await libraryFiles();
    const [audioKey, srtKey] = (await linkedFiles(documentId, 'en')).map(({ id }) => keyOf(files.find((file) => file.id === id)!));
    const partsBefore = (await partRequests(stack, articleId)).length;
    const creditsBefore = (await stack.control<any>('GET', '/credits')).credits;
    const mediaBefore = (await stack.control<any>('GET', '/requests?route=media')).requests.length;
    const s3Before = s3.requests().length;
    await publishOneParagraphEdited(stack, ARTICLE, documentId, 'en', body, 3);

    // The changed part alone was asked for, with `regenerate: false`, and paid its characters.
    const asked = (await partRequests(stack, articleId)).slice(partsBefore);
    expect(asked.map((request) => request.status)).toEqual([202]);
    expect(asked[0].body.text).toContain('paragraph 4 of a longer read');
    expect(asked[0].body.postData.regenerate).toBe(false);
    expect(creditsBefore - (await stack.control<any>('GET', '/credits')).credits).toBe(codePoints(asked[0].body.text));
    // Only its MP3 and SRT were fetched from the service's media host...
    const { callbacks } = await stack.control<any>('GET', `/callbacks?articleId=${encodeURIComponent(asked[0].body.postData.articleId)}`);
    const { audioFile, srtFile } = callbacks.find((callback: any) => callback.payload?.response?.audioFile).payload.response;
    const fetched = (await stack.control<any>('GET', '/requests?route=media')).requests.slice(mediaBefore);
    expect(fetched.map((request: any) => request.path).sort()).toEqual([new URL(audioFile).pathname, new URL(srtFile).pathname].sort());
    // ...the other parts were read back from the joined MP3 and SRT in the bucket, which were then removed.
    const state = await expectNoOrphans('the replaced joined objects to leave the bucket');
    expect(await keysOf(documentId, 'en')).toHaveLength(3);
    expect(state.bucket.filter((key) => joined.includes(key))).toEqual([]);
    const s3Requests = s3.requests().slice(s3Before);
    const read = s3Requests.filter((request) => request.method === 'GET').map((request) => request.key);
    expect(read).toEqual(expect.arrayContaining([audioKey, srtKey]));
    const deleted = s3Requests.filter((request) => request.method === 'DELETE').map((request) => request.key);
    expect(deleted.sort()).toEqual(joined);
    const srt = spokenText(await (await fetch(`${stack.url}/api/speech/narrations/${articleId}/subtitles.srt`)).text());
    expect(srt).toContain('paragraph 4 of a longer read');
    for (const n of [1, 2, 3, 5, 6]) expect(srt).toContain(`paragraph ${n} of a long read`);
  });

  it('checked part by part, its joined MP3 is read from the bucket once for all its parts', async () => {
    await setNarrationMode(stack, ARTICLE, 'segmented', 200);
    const type = (await stack.admin('GET', '/speech/settings')).body.settings.contentTypes[ARTICLE];
    expect((await stack.admin('PUT', '/speech/settings', { contentTypes: { [ARTICLE]: { ...type, verify: true } } })).status).toBe(200);
    try {
      const documentId = await publishArticleIn(stack, ARTICLE, 'en', { title: 'Checked in a bucket', body: blocks(...longBody(5)) });
      narrated.push({ documentId, locale: 'en' });
      const row = await waitForStatus(stack, ARTICLE, documentId, 'completed', 'en', 120_000);
      expect(row.parts.total).toBeGreaterThan(1);
      const verification = await waitFor(
        async () => {
          const view = (await adminNarration(stack, ARTICLE, documentId, 'en')).data.find((entry) => entry.locale === 'en')?.verification;
          return view && view.status !== 'pending' ? view : null;
        },
        { timeoutMs: 60_000, what: 'the parts checked' }
      );
      expect(verification).toMatchObject({ status: 'verified', checks: { total: row.parts.total, done: row.parts.total } });
      const files = await libraryFiles();
      const [audio] = await linkedFiles(documentId, 'en');
      const audioKey = keyOf(files.find((file) => file.id === audio.id)!);
      expect(s3.requests().filter((request) => request.method === 'GET' && request.key === audioKey)).toHaveLength(1);
    } finally {
      await stack.admin('PUT', '/speech/settings', { contentTypes: { [ARTICLE]: { ...type, verify: false } } });
    }
  });
});

describe('the provider and s3rver without Strapi', () => {
  it("stores byte-exact objects, in one request or in parts, with the AWS SDK's default checksums as with the README's WHEN_REQUIRED", async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const provider = require('@strapi/provider-upload-aws-s3');
    const dir = mkdtempSync(path.join(os.tmpdir(), 's3-provider-'));
    try {
      const small = path.join(dir, 'small.bin');
      const large = path.join(dir, 'large.bin');
      writeFileSync(small, Buffer.from(Array.from({ length: 40_000 }, (_, i) => (i * 7) % 251)));
      // Above the SDK's 5 MB part size: a multipart upload.
      writeFileSync(large, Buffer.from(Array.from({ length: 6 * 1024 * 1024 }, (_, i) => (i * 13) % 251)));
      for (const checksums of [{}, { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }]) {
        const uploader = provider.init({
          s3Options: {
            endpoint: s3.endpoint,
            region: s3.region,
            forcePathStyle: true,
            credentials: s3.credentials,
            params: { Bucket: s3.bucket, ACL: 'public-read' },
            ...checksums,
          },
        });
        for (const source of [small, large]) {
          const file: Record<string, any> = {
            hash: `provider-check-${Object.keys(checksums).length}-${path.basename(source, '.bin')}`,
            ext: '.bin',
            mime: 'application/octet-stream',
            stream: createReadStream(source),
          };
          await uploader.uploadStream(file);
          const served = Buffer.from(await (await fetch(file.url)).arrayBuffer());
          expect(served.equals(readFileSync(source))).toBe(true);
          await uploader.delete(file);
          expect((await bucketKeys()).includes(`${file.hash}.bin`)).toBe(false);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
