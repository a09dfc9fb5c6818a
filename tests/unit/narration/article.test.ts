import { describeArticle, type ArticleSource } from '../../../server/src/narration/domain/article';
import { narrationCost } from '../../../server/src/narration/domain/cost';
import { narrationFingerprint } from '../../../server/src/narration/domain/fingerprint';
import { lexiconRuleSchema } from '../../../server/src/lexicon/config';

/** What is narrated for an entry: text, cost and fingerprint all describe the same string. */

const source = (overrides: Partial<ArticleSource> = {}): ArticleSource => ({
  contentType: 'api::article.article',
  entry: { documentId: 'doc1', locale: 'en', title: 'Databases', body: 'We query SQL daily.' },
  narration: { titleField: 'title', textFields: ['body'] },
  attributes: { title: { type: 'string' }, body: { type: 'text' } },
  localized: true,
  voiceId: 'en-female-1',
  preprocessType: '2',
  ...overrides,
});

describe('describeArticle', () => {
  it('applies the lexicon before the cost and the fingerprint', () => {
    const lexicon = [lexiconRuleSchema.parse({ term: 'SQL', spoken: 'sequel', locale: 'en' })];
    const version = describeArticle(source({ lexicon }));
    expect(version.text).toBe('Databases.\n\nWe query sequel daily.');
    const cost = narrationCost(version.text, '2');
    expect({ characters: version.characters, credits: version.credits }).toEqual({ characters: cost.characters, credits: cost.credits });
    expect(version.fingerprint).toBe(narrationFingerprint({ text: version.text, voiceId: 'en-female-1', preprocessType: '2' }));
    expect(version.fingerprint).not.toBe(describeArticle(source()).fingerprint);
  });

  it('a rule of another locale, or any locale rule on a type without i18n, changes nothing', () => {
    const lexicon = [lexiconRuleSchema.parse({ term: 'SQL', spoken: 'sequel', locale: 'ar' })];
    expect(describeArticle(source({ lexicon })).fingerprint).toBe(describeArticle(source()).fingerprint);
    const english = [lexiconRuleSchema.parse({ term: 'SQL', spoken: 'sequel', locale: 'en' })];
    expect(describeArticle(source({ lexicon: english, localized: false })).text).toBe('Databases.\n\nWe query SQL daily.');
  });

  it('intro and outro are part of the text, the cost and the fingerprint; an empty article gets neither', () => {
    const templates = {
      introTemplates: { en: 'You are listening to {title} by {author}' },
      outroTemplates: { '*': 'Thanks for listening to {site}.' },
      siteName: 'The Daily',
    };
    const entry = { documentId: 'doc1', locale: 'en', title: 'Databases', author: 'Layla', body: 'We query SQL daily.' };
    const narration = { titleField: 'title', textFields: ['body'], authorField: 'author' };
    const version = describeArticle(
      source({
        ...templates,
        entry,
        narration,
        attributes: { title: { type: 'string' }, author: { type: 'string' }, body: { type: 'text' } },
      })
    );
    expect(version.text).toBe(
      'You are listening to Databases by Layla.\n\nDatabases.\n\nWe query SQL daily.\n\nThanks for listening to The Daily.'
    );
    expect(version.characters).toBe([...version.text].length);
    expect(version.fingerprint).toBe(narrationFingerprint({ text: version.text, voiceId: 'en-female-1', preprocessType: '2' }));
    // No author field: the intro that needs one is not read, the outro is.
    expect(describeArticle(source({ ...templates })).text).toBe('Databases.\n\nWe query SQL daily.\n\nThanks for listening to The Daily.');
    expect(describeArticle(source({ ...templates, entry: { documentId: 'doc1', locale: 'en' } })).text).toBe('');
  });

  it('the lexicon applies to the intro and outro too; skipped block kinds are not read nor paid', () => {
    const lexicon = [lexiconRuleSchema.parse({ term: 'Daily', spoken: 'Dayly', caseSensitive: true })];
    expect(describeArticle(source({ lexicon, outroTemplates: { '*': 'From {site}.' }, siteName: 'The Daily' })).text).toBe(
      'Databases.\n\nWe query SQL daily.\n\nFrom The Dayly.'
    );
    const entry = {
      documentId: 'doc1',
      locale: 'en',
      title: 'T',
      body: 'Read this.\n\n> Not this quote.\n\n| a | b |\n| - | - |\n| 1 | 2 |',
    };
    const attributes = { title: { type: 'string' }, body: { type: 'richtext' } };
    const all = describeArticle(source({ entry, attributes }));
    const skipped = describeArticle(
      source({ entry, attributes, narration: { titleField: 'title', textFields: ['body'], skipBlocks: ['quote', 'table'] } })
    );
    expect(all.text).toBe('T.\n\nRead this.\n\nNot this quote.\n\na, b.\n1, 2.');
    expect(skipped.text).toBe('T.\n\nRead this.');
    expect(skipped.credits).toBe([...'T.\n\nRead this.'].length * 2);
  });
});

describe('when a version went live', () => {
  it('is the publish time as ISO (a Date or a string from the drivers), outside the fingerprint; null for types changed in place', () => {
    const fromDate = describeArticle(source({ publishedAt: new Date('2026-11-26T10:00:00.000Z') }));
    expect(fromDate.livePublishedAt).toBe('2026-11-26T10:00:00.000Z');
    expect(describeArticle(source({ publishedAt: '2026-11-26 10:00:00.000' })).livePublishedAt).toMatch(/^2026-11-26T\d\d:00:00\.000Z$/);
    // Another publish of the same text is the same version.
    expect(fromDate.fingerprint).toBe(describeArticle(source()).fingerprint);
    expect(describeArticle(source()).livePublishedAt).toBeNull();
    expect(describeArticle(source({ publishedAt: 'not a time' })).livePublishedAt).toBeNull();
  });
});
