import { changeNote } from '../../../server/src/feeds/change-note';
import { podcastGuid } from '../../../server/src/feeds/podcast-guid';

const at = '2026-12-03T09:30:00.000Z';

describe("a feed item's change note", () => {
  it('says when and how much was re-read, in the feed’s language', () => {
    expect(changeNote([{ at, cause: 'edit', passages: 2 }], 'en')).toBe('Updated 3 December 2026: 2 passages re-read.');
    expect(changeNote([{ at, cause: 'edit', passages: 1 }], null)).toBe('Updated 3 December 2026: 1 passage re-read.');
    expect(changeNote([{ at, cause: 'edit', passages: 2 }], 'ar')).toBe('حُدِّث في 3 ديسمبر 2026: أُعيدت قراءة 2 من المقاطع.');
  });

  it('names the cause when the passages are not known', () => {
    expect(changeNote([{ at, cause: 'edit', passages: 0 }], 'en-GB')).toBe('Updated 3 December 2026: narrated again after an edit.');
    expect(changeNote([{ at, cause: 'regenerate', passages: 0 }], 'en')).toBe('Updated 3 December 2026: narrated again.');
    expect(changeNote([{ at, cause: 'verification', passages: 0 }], 'en')).toBe(
      'Updated 3 December 2026: narrated again after a check of the audio.'
    );
  });

  it('is left out until the audio was made a second time', () => {
    expect(changeNote([{ at, cause: 'first', passages: 0 }], 'en')).toBeNull();
    expect(changeNote([], 'en')).toBeNull();
    expect(changeNote(null, 'en')).toBeNull();
  });

  it('dates in UTC, as the feed’s dates are', () => {
    expect(changeNote([{ at: '2026-12-03T23:59:59.000Z', cause: 'regenerate', passages: 0 }], 'en')).toBe(
      'Updated 3 December 2026: narrated again.'
    );
  });
});

describe('podcast:guid', () => {
  it('is the namespace’s own example for its example feed', () => {
    // https://podcastindex.org/namespace/1.0#guid
    expect(podcastGuid('https://mp3s.nashownotes.com/pc20rss.xml')).toBe('917393e3-1b1e-5cef-ace4-edaa54e1f810');
  });

  it('ignores the scheme and trailing slashes, and nothing else', () => {
    const guid = podcastGuid('https://cms.example/api/speech/feeds/articles.xml?locale=ar');
    expect(podcastGuid('http://cms.example/api/speech/feeds/articles.xml?locale=ar')).toBe(guid);
    expect(podcastGuid('https://cms.example/feed/')).toBe(podcastGuid('https://cms.example/feed'));
    expect(podcastGuid('https://cms.example/api/speech/feeds/articles.xml?locale=en')).not.toBe(guid);
    expect(guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
