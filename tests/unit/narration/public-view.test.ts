import type { NarrationRow } from '../../../server/src/queue/rows/narration-rows';
import { audioObjectJsonLd } from '../../../server/src/narration/domain/json-ld';
import { narrationJson } from '../../../server/src/narration/domain/public-view';
import { narrationRow, storedPart } from '../queue/fixtures';

const BASE = 'https://cms.example';
/** The content API under BASE, as settings.contentApiUrl() gives it. */
const API = `${BASE}/api`;

/** A completed Arabic narration with its files stored. */
function row(overrides: Partial<NarrationRow> = {}): NarrationRow {
  return narrationRow({
    id: 1,
    documentId: 'row-doc',
    articleId: 'abc123-ar',
    targetDocumentId: 'abc123',
    targetLocale: 'ar',
    title: 'مقال & "ملاحظات"',
    voiceId: 'ar-female-1',
    status: 'completed',
    fingerprint: 'f',
    submittedFingerprint: 'f',
    narratedFingerprint: 'f',
    attempts: 1,
    submissions: 1,
    completedAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:01.000Z',
    durationSeconds: '83.4' as unknown as number,
    audioBytes: 500_123,
    audio: { id: 7, url: '/uploads/a.mp3' },
    subtitles: { id: 8, url: '/uploads/a.srt' },
    subtitlesVtt: { id: 9, url: '/uploads/a.vtt' },
    ...overrides,
  });
}

describe('the public narration JSON', () => {
  it('carries the title, the exact byte length and a schema.org AudioObject once the audio is stored', () => {
    const json = narrationJson(row(), API);
    expect(json).toMatchObject({ title: 'مقال & "ملاحظات"', audioBytes: 500_123, status: 'ready' });
    expect(json.jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@type': 'AudioObject',
      name: 'مقال & "ملاحظات"',
      contentUrl: `${BASE}/api/speech/narrations/abc123-ar/audio.mp3`,
      encodingFormat: 'audio/mpeg',
      digitalSourceType: 'https://schema.org/TrainedAlgorithmicMediaDigitalSource',
      duration: 'PT1M23S',
      inLanguage: 'ar',
      uploadDate: '2026-11-20T10:00:00.000Z',
      caption: {
        '@type': 'MediaObject',
        contentUrl: `${BASE}/api/speech/narrations/abc123-ar/subtitles.vtt`,
        encodingFormat: 'text/vtt',
        inLanguage: 'ar',
      },
    });
  });

  it("lists the revisions without what only the feed reads, and names the article's page where the type has one", () => {
    const revisions = [
      { at: '2026-12-03T09:00:00.000Z', cause: 'edit' as const, changed: [{ start: 4, end: 9.5 }], passages: 2 },
      { at: '2026-11-20T10:00:00.000Z', cause: 'first' as const, changed: [], passages: 0 },
    ];
    const json = narrationJson(row({ revisions }), API, {
      aiLabel: 'صوت بالذكاء الاصطناعي',
      pageUrl: 'https://site.example/ar/news/abc123',
    });
    expect(json.revisions).toEqual([
      { at: '2026-12-03T09:00:00.000Z', cause: 'edit', changed: [{ start: 4, end: 9.5 }] },
      { at: '2026-11-20T10:00:00.000Z', cause: 'first', changed: [] },
    ]);
    expect(json).toMatchObject({ aiLabel: 'صوت بالذكاء الاصطناعي', pageUrl: 'https://site.example/ar/news/abc123' });
    expect(json.jsonLd).toMatchObject({ url: 'https://site.example/ar/news/abc123' });
    // Stored before revisions were kept: an empty list, not a guess.
    expect(narrationJson(row(), API).revisions).toEqual([]);
    expect(narrationJson(row(), API).jsonLd).not.toHaveProperty('url');
  });

  it('keeps every field it had, and says nothing of audio that is not there yet', () => {
    const json = narrationJson(row({ status: 'queued', audio: null, subtitles: null, subtitlesVtt: null, completedAt: null }), API);
    expect(Object.keys(json)).toEqual(
      expect.arrayContaining(['articleId', 'documentId', 'locale', 'contentType', 'status', 'audioUrl', 'srtUrl', 'vttUrl'])
    );
    expect(Object.keys(json)).toEqual(
      expect.arrayContaining(['chaptersUrl', 'voice', 'durationSeconds', 'characters', 'credits', 'updatedAt'])
    );
    expect(json).toMatchObject({ status: 'processing', audioUrl: null, audioBytes: null, jsonLd: null, title: 'مقال & "ملاحظات"' });
  });

  it('a segmented narration edited since: the characters its audio reads, all parts; the credits its last version paid, the changed part', () => {
    const part = (key: string, characters: number, index: number) =>
      storedPart(key, {
        characters,
        audioOffset: index * 1000,
        audioLength: 1000,
        durationSeconds: 10,
        offsetMs: index * 10_000,
        cueFirst: index,
      });
    const json = narrationJson(
      row({ characters: 180, credits: 180, segments: [part('p1', 200, 0), part('p2', 180, 1), part('p3', 150, 2)] }),
      API
    );
    expect(json).toMatchObject({ characters: 530, credits: 180 });
    expect(narrationJson(row({ characters: 612, credits: 1224, segments: null }), API)).toMatchObject({ characters: 612, credits: 1224 });
  });

  it('an upgraded row without a byte length: null, not a guess from the rounded Media Library size', () => {
    expect(narrationJson(row({ audioBytes: null, audio: { id: 7, url: '/uploads/a.mp3', size: 488.4 } }), API).audioBytes).toBeNull();
  });
});

describe('the AudioObject', () => {
  it('leaves out what is unknown instead of writing nulls', () => {
    expect(
      audioObjectJsonLd({ title: null, audioUrl: 'https://x/a.mp3', vttUrl: null, durationSeconds: null, locale: null, uploadedAt: null })
    ).toEqual({
      '@context': 'https://schema.org',
      '@type': 'AudioObject',
      contentUrl: 'https://x/a.mp3',
      encodingFormat: 'audio/mpeg',
      digitalSourceType: 'https://schema.org/TrainedAlgorithmicMediaDigitalSource',
    });
  });
});
