import { compileLexicon, ruleAppliesTo, type LexiconRule } from '../../../server/src/lexicon/domain/rules';
import { lexiconRuleSchema, lexiconSchema, MAX_LEXICON_RULES } from '../../../server/src/lexicon/config';

/** The lexicon applied to one text, as an article's paragraphs get it. */
const applyLexicon = (text: string, rules: readonly LexiconRule[], locale: string | null) => compileLexicon(rules, locale)(text);

/** A rule with the defaults an editor starts from. */
const rule = (term: string, spoken: string, options: Partial<LexiconRule> = {}): LexiconRule =>
  lexiconRuleSchema.parse({ term, spoken, ...options });

describe('pronunciation lexicon: English', () => {
  it('replaces whole words only, in any case by default', () => {
    const rules = [rule('SQL', 'sequel')];
    expect(applyLexicon('SQL and sql, but not SQLite nor mySQL.', rules, 'en')).toBe('sequel and sequel, but not SQLite nor mySQL.');
  });

  it('case-sensitive rules leave other cases alone', () => {
    const rules = [rule('US', 'United States', { caseSensitive: true })];
    expect(applyLexicon('The US and us.', rules, 'en')).toBe('The United States and us.');
  });

  it('without whole word, matches inside words', () => {
    expect(applyLexicon('Kubernetes, k8s clusters.', [rule('k8s', 'kubernetes', { wholeWord: false })], 'en')).toBe(
      'Kubernetes, kubernetes clusters.'
    );
    expect(applyLexicon('xk8sx', [rule('k8s', 'kubernetes', { wholeWord: false })], 'en')).toBe('xkubernetesx');
    expect(applyLexicon('xk8sx', [rule('k8s', 'kubernetes')], 'en')).toBe('xk8sx');
  });

  it('digits and underscores count as part of a word', () => {
    expect(applyLexicon('v2 v22 v2_x', [rule('v2', 'version two')], 'en')).toBe('version two v22 v2_x');
  });

  it('terms that begin or end with punctuation get boundaries only on their word side', () => {
    expect(applyLexicon('I write C++ and C#.', [rule('C++', 'C plus plus'), rule('C#', 'C sharp')], 'en')).toBe(
      'I write C plus plus and C sharp.'
    );
    expect(applyLexicon('Apps on .NET run.', [rule('.NET', 'dot net')], 'en')).toBe('Apps on dot net run.');
    // Regular-expression characters in a term are literal.
    expect(applyLexicon('a.b axb', [rule('a.b', 'A B')], 'en')).toBe('A B axb');
  });

  it('a multi-word term matches across any spaces on one line, never across a line break', () => {
    const rules = [rule('New  York', 'New York City')];
    expect(applyLexicon('In New York, and New\nYork.', rules, 'en')).toBe('In New York City, and New\nYork.');
  });

  it('the longest term wins where terms overlap, and a spoken form is never replaced again', () => {
    const rules = [rule('York', 'Yorkshire'), rule('New York', 'the Big Apple'), rule('Apple', 'a fruit')];
    expect(applyLexicon('New York and York.', rules, 'en')).toBe('the Big Apple and Yorkshire.');
    // A rule whose spoken form contains its own term does not loop.
    expect(applyLexicon('AI matters.', [rule('AI', 'A I (AI)')], 'en')).toBe('A I (AI) matters.');
  });

  it('applies only the rules of the article locale and those for every locale', () => {
    const rules = [rule('Strapi', 'Strappy', { locale: 'en' }), rule('GIF', 'jif'), rule('GIF', 'جيف', { locale: 'ar' })];
    expect(applyLexicon('Strapi GIF', rules, 'en-GB')).toBe('Strappy jif');
    expect(applyLexicon('Strapi GIF', rules, 'ar')).toBe('Strapi jif');
    expect(applyLexicon('Strapi GIF', rules, null)).toBe('Strapi jif');
    expect(ruleAppliesTo('ar', 'ar-JO')).toBe(true);
    expect(ruleAppliesTo('ar-JO', 'ar')).toBe(false);
    expect(ruleAppliesTo('EN', 'en')).toBe(true);
  });

  it('leaves text without a match unchanged, byte for byte', () => {
    const text = 'Nothing to see here.\n\nReally.';
    expect(applyLexicon(text, [rule('SQL', 'sequel')], 'en')).toBe(text);
    expect(applyLexicon(text, [], 'en')).toBe(text);
  });
});

describe('pronunciation lexicon: Arabic', () => {
  const muhammad = 'محمد';
  const withHarakat = 'مُحَمَّدٌ';

  it('whole words in Arabic script: a word that contains the term is untouched', () => {
    const rules = [rule('كتب', 'كُتُب')];
    expect(applyLexicon('كتب المكتبة كتبت، كتب.', rules, 'ar')).toBe('كُتُب المكتبة كتبت، كُتُب.');
  });

  it('without ignoreDiacritics a vowelled word is another word', () => {
    expect(applyLexicon(`${withHarakat} ${muhammad}`, [rule(muhammad, 'موحمد')], 'ar')).toBe(`${withHarakat} موحمد`);
  });

  it('with ignoreDiacritics, matches with or without harakat and tatweel, and replaces the marks too', () => {
    const rules = [rule(muhammad, 'موحمد', { ignoreDiacritics: true })];
    expect(applyLexicon(`${withHarakat} ${muhammad} محـــمد`, rules, 'ar')).toBe('موحمد موحمد موحمد');
    // A term written with harakat matches the bare word too.
    expect(applyLexicon(`قال ${muhammad}.`, [rule(withHarakat, 'موحمد', { ignoreDiacritics: true })], 'ar')).toBe('قال موحمد.');
    // Still whole words: a longer word is untouched.
    expect(applyLexicon('محمدية', rules, 'ar')).toBe('محمدية');
  });

  it('letterVariants: alef forms, taa marbuta and haa, alef maqsura and yaa match each other', () => {
    const ahmad = [rule('احمد', 'أَحمد', { letterVariants: true })];
    expect(applyLexicon('أحمد إحمد آحمد ٱحمد احمد', ahmad, 'ar')).toBe('أَحمد أَحمد أَحمد أَحمد أَحمد');
    const school = [rule('مدرسة', 'مَدرَسة', { letterVariants: true })];
    expect(applyLexicon('مدرسه مدرسة', school, 'ar')).toBe('مَدرَسة مَدرَسة');
    const mustafa = [rule('مصطفى', 'مُصطَفى', { letterVariants: true })];
    expect(applyLexicon('مصطفي مصطفى', mustafa, 'ar')).toBe('مُصطَفى مُصطَفى');
    // Without the option only the spelling written in the rule matches.
    expect(applyLexicon('أحمد احمد', [rule('احمد', 'X')], 'ar')).toBe('أحمد X');
  });

  it('both options together', () => {
    const rules = [rule('القاهره', 'al-Qahira', { ignoreDiacritics: true, letterVariants: true })];
    expect(applyLexicon('القَاهِرَة والقاهرة', rules, 'ar')).toBe('al-Qahira والقاهرة');
  });

  it('Arabic punctuation is a boundary', () => {
    expect(applyLexicon('ذكاء؟ ذكاء، ذكاء.', [rule('ذكاء', 'ذَكاء')], 'ar')).toBe('ذَكاء؟ ذَكاء، ذَكاء.');
  });
});

describe('lexicon validation', () => {
  it('trims, collapses spaces and fills the defaults', () => {
    expect(lexiconRuleSchema.parse({ term: '  New   York ', spoken: ' NYC ' })).toEqual({
      term: 'New York',
      spoken: 'NYC',
      locale: null,
      wholeWord: true,
      caseSensitive: false,
      ignoreDiacritics: false,
      letterVariants: false,
    });
  });

  it('refuses empty or long terms and spoken forms, bad locales, unknown keys and too many rules, with clear messages', () => {
    const messages = (input: unknown) => {
      const parsed = lexiconSchema.safeParse(input);
      return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    };
    expect(messages([{ term: ' ', spoken: 'x' }])).toEqual(['0.term: write the term to replace']);
    expect(messages([{ term: 'x', spoken: '' }])).toEqual(['0.spoken: write how the term is spoken']);
    expect(messages([{ term: 'x'.repeat(101), spoken: 'y' }])).toEqual(['0.term: a term may have at most 100 characters']);
    expect(messages([{ term: 'x', spoken: 'y', locale: 'Arabic' }])).toEqual(['0.locale: must be a locale code such as "ar" or "fr-FR"']);
    expect(messages([{ term: 'x', spoken: 'y', regex: true }])[0]).toMatch(/^0: Unrecognized key/);
    expect(messages(Array.from({ length: MAX_LEXICON_RULES + 1 }, (_, index) => ({ term: `t${index}`, spoken: 'y' })))).toEqual([
      `: the lexicon may have at most ${MAX_LEXICON_RULES} rules`,
    ]);
  });

  it('refuses a term repeated for the same locale (ignoring case unless the rule is case-sensitive)', () => {
    const parsed = lexiconSchema.safeParse([
      { term: 'SQL', spoken: 'sequel' },
      { term: 'sql', spoken: 'S Q L' },
      { term: 'SQL', spoken: 'x', locale: 'en' },
    ]);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [[1, 'term'], 'repeats the term of rule 1 ("SQL") for the same locale'],
    ]);
    expect(
      lexiconSchema.safeParse([
        { term: 'US', spoken: 'United States', caseSensitive: true },
        { term: 'us', spoken: 'us', caseSensitive: true },
      ]).success
    ).toBe(true);
  });
});
