/**
 * What the admin receives, built by the server's pure view modules (typed by shared/contracts):
 * narration rows, transcription jobs, the settings page's content types and the narrated types.
 */
import { adminNarrationView, adminNarrationViewWithFiles } from '../../../server/src/narration/domain/admin-view';
import { describeContentType, fileTypesView, narratedTypesView, SERVER_FEATURES } from '../../../server/src/settings-page/admin-view';
import { savedFileView, transcriptionDetail, transcriptionView, withReadableFile } from '../../../server/src/speech-to-text/admin-view';
import type { TranscriptionRow } from '../../../server/src/speech-to-text/transcription-rows';
import { narrationRow } from '../queue/fixtures';

const file = (id: number, name: string) => ({ id, url: `/uploads/${name}`, name, mime: 'audio/mpeg', size: 1234 });
const signed = async (ref: { url: string }) => ({ url: `https://bucket.example${ref.url}?signature=1` });

describe('narration view', () => {
  it('is the row as the admin sees it: every contract field, no lease data, no fingerprints', () => {
    const row = narrationRow({
      status: 'completed',
      attempts: 1,
      leaseOwner: 'instance-1',
      narratedFingerprint: 'v1',
      completedAt: '2026-01-02T00:00:00.000Z',
      audio: file(3, 'a.mp3'),
      subtitles: file(4, 'a.srt'),
      subtitlesVtt: null,
    });
    expect(adminNarrationView(row)).toEqual({
      articleId: 'doc1-en',
      documentId: 'doc1',
      locale: 'en',
      contentType: 'api::article.article',
      status: 'completed',
      title: 'An article',
      voiceId: 'en-female-1',
      preprocessType: '0',
      characters: 120,
      credits: 120,
      attempts: 1,
      regenerate: false,
      lastError: null,
      lastErrorCode: null,
      creditsMayBeLost: false,
      nextAttemptAt: null,
      submittedAt: null,
      completedAt: '2026-01-02T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      audio: { id: 3, url: '/uploads/a.mp3' },
      subtitles: { id: 4, url: '/uploads/a.srt' },
      subtitlesVtt: null,
      parts: null,
      verification: null,
    });
  });

  it("says how many of a segmented narration's parts are ready, when the panel's read gave it", () => {
    expect(adminNarrationView({ ...narrationRow({ status: 'awaiting_parts' }), parts: { total: 18, ready: 7 } }).parts).toEqual({
      total: 18,
      ready: 7,
    });
  });

  it('has no files for a listed row (lists read none)', () => {
    const { audio: _audio, subtitles: _subtitles, subtitlesVtt: _vtt, ...listed } = narrationRow({ audio: file(3, 'a.mp3') });
    const view = adminNarrationView(listed);
    expect([view.audio, view.subtitles, view.subtitlesVtt]).toEqual([null, null, null]);
  });

  it('gives files at the URLs the admin may read, and leaves absent files null', async () => {
    const view = await adminNarrationViewWithFiles(narrationRow({ audio: file(3, 'a.mp3'), subtitles: null }), signed);
    expect(view.audio).toEqual({ id: 3, url: 'https://bucket.example/uploads/a.mp3?signature=1' });
    expect(view.subtitles).toBeNull();
    expect(view.subtitlesVtt).toBeNull();
  });
});

function transcriptionRow(overrides: Partial<TranscriptionRow> = {}): TranscriptionRow {
  return {
    id: 5,
    documentId: 'stt-doc',
    submittedById: 1,
    submittedByName: 'editor',
    fileName: 'talk.mp3',
    fileSize: 2048,
    mimeType: 'audio/mpeg',
    language: 'ar-JO',
    outputFormat: 'json',
    jobId: 'job-1',
    status: 'processing',
    serviceStatus: 'processing',
    result: null,
    error: null,
    errorCode: null,
    nextPollAt: '2026-01-01T00:00:05.000Z',
    pollLeaseOwner: 'instance-1',
    leaseExpiresAt: '2026-01-01T00:00:30.000Z',
    pollErrors: 1,
    lastPollError: 'The speech service is busy.',
    submittedAt: '2026-01-01T00:00:00.000Z',
    completedAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:01.000Z',
    savedFile: null,
    ...overrides,
  };
}

describe('transcription view', () => {
  it('is the job as the Transcribe page sees it: the poll warning, no lease data, no result', () => {
    expect(transcriptionView(transcriptionRow())).toEqual({
      id: 5,
      documentId: 'stt-doc',
      fileName: 'talk.mp3',
      fileSize: 2048,
      mimeType: 'audio/mpeg',
      language: 'ar-JO',
      outputFormat: 'json',
      status: 'processing',
      serviceStatus: 'processing',
      jobId: 'job-1',
      submittedBy: { id: 1, name: 'editor' },
      error: null,
      errorCode: null,
      pollWarning: 'The speech service is busy.',
      nextPollAt: '2026-01-01T00:00:05.000Z',
      createdAt: '2026-01-01T00:00:00.000Z',
      submittedAt: '2026-01-01T00:00:00.000Z',
      completedAt: null,
      updatedAt: '2026-01-01T00:00:01.000Z',
      hasResult: false,
      savedFile: null,
    });
  });

  it('names no submitter when the row knows none', () => {
    expect(transcriptionView(transcriptionRow({ submittedById: null, submittedByName: null })).submittedBy).toBeNull();
  });

  it('carries the result once completed, and none before', () => {
    const subtitles = [{ start: 0, end: 1.5, text: 'مرحبا' }];
    const done = transcriptionDetail(transcriptionRow({ status: 'completed', result: { subtitles } }));
    expect(done.hasResult).toBe(true);
    expect(done.result).toEqual({ format: 'json', segments: subtitles, text: 'مرحبا', srt: null });
    expect(transcriptionDetail(transcriptionRow({ result: { subtitles } })).result).toBeNull();
  });

  it('gives the saved file at the URL the admin may read', async () => {
    const row = transcriptionRow({ savedFile: file(9, 'talk.srt') });
    const view = await withReadableFile(transcriptionView(row), row, signed);
    expect(view.savedFile).toEqual({
      id: 9,
      name: 'talk.srt',
      url: 'https://bucket.example/uploads/talk.srt?signature=1',
      mime: 'audio/mpeg',
    });
    expect(savedFileView({ id: 9, url: '/x' }, '/y')).toEqual({ id: 9, name: null, url: '/y', mime: null });
  });
});

describe('settings views', () => {
  it('describes a site type by its narratable fields', () => {
    const schema = {
      uid: 'api::article.article',
      kind: 'collectionType',
      info: { displayName: 'Article' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      attributes: { title: { type: 'string' }, body: { type: 'blocks' }, secret: { type: 'text' } },
    };
    expect(describeContentType(schema, ['title', 'body'])).toEqual({
      uid: 'api::article.article',
      displayName: 'Article',
      kind: 'collectionType',
      draftAndPublish: true,
      localized: true,
      fields: [
        { name: 'title', type: 'string' },
        { name: 'body', type: 'blocks' },
      ],
    });
    expect(describeContentType({ uid: 'api::home.home', kind: 'singleType', attributes: {} }, [])).toEqual({
      uid: 'api::home.home',
      displayName: 'api::home.home',
      kind: 'singleType',
      draftAndPublish: false,
      localized: false,
      fields: [],
    });
  });

  it("tells the content manager each narrated type's trigger, and the server's features", () => {
    const view = narratedTypesView({ 'api::article.article': { trigger: 'publish' }, 'api::note.note': { trigger: 'off' } });
    expect(view).toEqual({
      contentTypes: { 'api::article.article': { trigger: 'publish' }, 'api::note.note': { trigger: 'off' } },
      features: { voicePreview: true, transcription: true },
    });
    expect(view.features).toBe(SERVER_FEATURES);
  });

  it("gives the settings page only the configuration file's values a saved type may leave to it", () => {
    const file = {
      'api::article.article': {
        titleField: 'title',
        textFields: ['summary', 'body'],
        trigger: 'publish' as const,
        publicNarration: true,
        skipBlocks: ['code' as const],
        authorField: 'author',
        narrationMode: 'segmented' as const,
        segmentCharacters: 900,
      },
      'api::note.note': { textFields: ['text'] },
    };
    expect(fileTypesView(file)).toEqual({
      'api::article.article': { skipBlocks: ['code'], authorField: 'author', narrationMode: 'segmented', segmentCharacters: 900 },
      // In the file, none of them: the page sends a type's values only where they differ from none.
      'api::note.note': {},
    });
  });
});
