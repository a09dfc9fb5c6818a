import { describeArticle, type ArticleSource } from '../../server/src/narration/article';
import { narrationCost } from '../../server/src/narration/cost';
import { narrationFingerprint } from '../../server/src/narration/fingerprint';
import { lexiconRuleSchema } from '../../server/src/narration/lexicon';

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
});
