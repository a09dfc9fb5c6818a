import {
  MIN_DETECTED_LETTERS,
  linesOf,
  passageKey,
  passagesOf,
  passageVoiceSettings,
  voiceRuns,
  type DetectLanguage,
  type PassageVoiceSettings,
} from '../../../server/src/passages/domain/passages';
import { detectLanguage } from '../../../server/src/passages/language-detector';
import { extractNarration } from '../../../server/src/text';
import { describeArticle, type ArticleSource } from '../../../server/src/narration/domain/article';

/** Tells Arabic script from Latin: enough to test the rules apart from the detector. */
const byScript: DetectLanguage = (text, candidates) => {
  const language = /\p{Script=Arabic}/u.test(text) ? 'ar' : 'en';
  return candidates.includes(language) ? language : null;
};

const ARABIC = 'قال الوزير في مؤتمر صحفي إن الحكومة ستعمل على تحسين الخدمات العامة خلال العام المقبل.';
const ENGLISH = 'The minister said at a press conference that the government will improve public services next year.';

const arabicArticle: PassageVoiceSettings = {
  language: 'ar',
  voiceId: 'ar-male-1',
  languageVoices: { ar: 'ar-male-1', en: 'en-female-1' },
  languages: [],
  quoteVoiceId: null,
  overrides: {},
};

const text = (...paragraphs: string[]) => paragraphs.join('\n\n');
const voices = (passages: ReturnType<typeof passagesOf>) => passages.map((passage) => [passage.voiceId, passage.reason]);

describe('the passages of a narrated text', () => {
  it('are its paragraphs with their offsets, blank ones skipped', () => {
    const narrated = `  First one.\n\n\n\nSecond one.  \n\n   \n\nThird.`;
    const paragraphs = linesOf(narrated);
    expect(paragraphs.map((paragraph) => paragraph.text)).toEqual(['First one.', 'Second one.', 'Third.']);
    for (const paragraph of paragraphs) expect(narrated.slice(paragraph.start, paragraph.end)).toBe(paragraph.text);
  });

  it('are its lines: a list item in another language is a passage of its own', () => {
    const list = `1. ${ARABIC}\n2. ${ENGLISH}`;
    const passages = passagesOf(text(ARABIC, list), new Set(), arabicArticle, byScript);
    expect(passages.map((passage) => [passage.text.slice(0, 2), passage.voiceId])).toEqual([
      [ARABIC.slice(0, 2), 'ar-male-1'],
      ['1.', 'ar-male-1'],
      ['2.', 'en-female-1'],
    ]);
    expect(voiceRuns(passages).map((run) => run.voiceId)).toEqual(['ar-male-1', 'en-female-1']);
  });

  it('read an English paragraph in an Arabic article by the English voice, and the Arabic around it by the Arabic one', () => {
    const passages = passagesOf(text(ARABIC, ENGLISH, ARABIC), new Set(), arabicArticle, byScript);
    expect(passages.map((passage) => passage.language)).toEqual(['ar', 'en', 'ar']);
    expect(voices(passages)).toEqual([
      ['ar-male-1', 'article'],
      ['en-female-1', 'language'],
      ['ar-male-1', 'article'],
    ]);
    expect(voiceRuns(passages).map((run) => run.voiceId)).toEqual(['ar-male-1', 'en-female-1', 'ar-male-1']);
  });

  it('keep a short paragraph in the voice of the one before it: a switch for a few words sounds worse than an accent', () => {
    const short = 'Apple Inc.';
    expect(short.length).toBeLessThan(MIN_DETECTED_LETTERS);
    const passages = passagesOf(text(ARABIC, short, ENGLISH, 'Thank you.'), new Set(), arabicArticle, byScript);
    expect(voices(passages)).toEqual([
      ['ar-male-1', 'article'],
      ['ar-male-1', 'article'],
      ['en-female-1', 'language'],
      ['en-female-1', 'surrounding'],
    ]);
    // Runs: the short paragraph joins the Arabic one before it, the thanks the English one.
    expect(voiceRuns(passages).map((run) => run.passages.length)).toEqual([2, 2]);
  });

  it('read a language of the site without a voice of its own by the article voice, and say so', () => {
    const settings = { ...arabicArticle, languageVoices: { ar: 'ar-male-1' }, languages: ['en'] };
    expect(voices(passagesOf(text(ARABIC, ENGLISH), new Set(), settings, byScript))).toEqual([
      ['ar-male-1', 'article'],
      ['ar-male-1', 'no-voice'],
    ]);
    // A language neither the site's nor voiced is not a candidate: never told.
    const unknown = { ...settings, languages: [] };
    expect(voices(passagesOf(text(ARABIC, ENGLISH), new Set(), unknown, byScript))[1]).toEqual(['ar-male-1', 'article']);
  });

  it("read a quote by the quote voice of the article's language, and otherwise by the article voice", () => {
    const quote = 'قال المتحدث باسم الوزارة إن القرار سيطبق على جميع المدارس الحكومية اعتبارا من الشهر المقبل.';
    const settings = { ...arabicArticle, quoteVoiceId: 'ar-female-1' };
    expect(voices(passagesOf(text(ARABIC, quote), new Set([quote]), settings, byScript))).toEqual([
      ['ar-male-1', 'article'],
      ['ar-female-1', 'quote'],
    ]);
    expect(voices(passagesOf(text(ARABIC, quote), new Set([quote]), arabicArticle, byScript))[1]).toEqual(['ar-male-1', 'article']);
    // A quote in another language is read in that language's voice.
    expect(voices(passagesOf(text(ARABIC, ENGLISH), new Set([ENGLISH]), settings, byScript))[1]).toEqual(['en-female-1', 'language']);
  });

  it("let an editor's voice for a paragraph win, kept by the paragraph's text", () => {
    const overrides = { [passageKey(ENGLISH)]: 'en-male-1' };
    const passages = passagesOf(text(ARABIC, ENGLISH, ARABIC), new Set(), { ...arabicArticle, overrides }, byScript);
    expect(voices(passages)[1]).toEqual(['en-male-1', 'editor']);
    expect(passageKey(ENGLISH)).toBe(passages[1].key);
    expect(passageKey(`${ENGLISH} `)).not.toBe(passages[1].key);
  });

  it('tell nothing of an article with one language and no other voice: one run, as without passage voices', () => {
    const detect = jest.fn(byScript);
    const passages = passagesOf(text(ARABIC, ENGLISH), new Set(), { ...arabicArticle, languageVoices: {} }, detect);
    expect(detect).not.toHaveBeenCalled();
    expect(voiceRuns(passages)).toHaveLength(1);
  });
});

describe("an article's passage settings", () => {
  it("come from the site's: its language, a voice by language, the site's languages, its quote voice", () => {
    const site = {
      siteLocales: ['ar', 'en-GB', 'fr'],
      localeVoices: { 'en-GB': 'en-gb-voice', en: 'en-voice', ar: 'ar-voice' },
      quoteVoices: { ar: 'ar-quote-voice' },
      overrides: {},
    };
    expect(passageVoiceSettings({ ...site, locale: 'ar' })).toEqual({
      language: 'ar',
      languageVoices: { en: 'en-voice', ar: 'ar-voice' },
      languages: ['ar', 'en', 'fr'],
      quoteVoiceId: 'ar-quote-voice',
      overrides: {},
    });
    expect(passageVoiceSettings({ ...site, locale: 'en-GB' })).toMatchObject({ language: 'en', quoteVoiceId: null });
    // A type without locales is in the site's default locale.
    expect(passageVoiceSettings({ ...site, locale: null })).toMatchObject({ language: 'ar', quoteVoiceId: 'ar-quote-voice' });
    expect(passageVoiceSettings({ ...site, siteLocales: [], locale: null })).toMatchObject({ language: 'und', languages: [] });
  });
});

describe('the quotes of a narrated text', () => {
  it('are the paragraphs of its quote blocks, from markdown, HTML and Strapi blocks alike, read as before', () => {
    const fields = { titleField: 'title', textFields: ['body'] };
    const markdown = extractNarration(
      { title: 'Quoted', body: 'He said:\n\n> The first line of it.\n>\n> The second one.\n\nThen he left.' },
      fields,
      { body: { type: 'richtext' } }
    );
    expect(markdown.text).toBe('Quoted.\n\nHe said:\n\nThe first line of it.\n\nThe second one.\n\nThen he left.');
    expect(markdown.quoteParagraphs).toEqual([2, 3]);
    const html = extractNarration(
      { title: 'Quoted', body: '<p>He said:</p><blockquote><p>It is done.</p></blockquote><p>Then he left.</p>' },
      fields
    );
    expect(html.quoteParagraphs).toEqual([2]);
    const strapiBlocks = extractNarration(
      {
        title: 'Quoted',
        body: [
          { type: 'paragraph', children: [{ type: 'text', text: 'He said:' }] },
          { type: 'quote', children: [{ type: 'text', text: 'It is done.' }] },
        ],
      },
      fields,
      { body: { type: 'blocks' } }
    );
    expect(strapiBlocks.quoteParagraphs).toEqual([2]);
  });
});

describe('a version read in several voices', () => {
  const source = (passages: ArticleSource['passages'], body: string[], overrides: Partial<ArticleSource> = {}): ArticleSource => ({
    contentType: 'api::article.article',
    entry: { documentId: 'doc1', locale: 'ar', title: 'مقال', body: body.join('\n\n') },
    narration: { titleField: 'title', textFields: ['body'] },
    attributes: { title: { type: 'string' }, body: { type: 'richtext' } },
    localized: true,
    voiceId: 'ar-male-1',
    preprocessType: '0',
    passages,
    ...overrides,
  });
  const voiced = {
    settings: { language: 'ar', languageVoices: { en: 'en-female-1' }, languages: [], quoteVoiceId: null, overrides: {} },
    detect: byScript,
  };

  it('is in parts, one per run of one voice, each with its voice, in reading order; paid for the parts alone', () => {
    const version = describeArticle(source(voiced, [ARABIC, ENGLISH, ARABIC]));
    expect(version.mode).toBe('segmented');
    expect(version.parts.map((part) => [part.voiceId, part.text])).toEqual([
      ['ar-male-1', `مقال.\n\n${ARABIC}`],
      ['en-female-1', ENGLISH],
      ['ar-male-1', ARABIC],
    ]);
    expect(version.parts.map((part) => part.index)).toEqual([0, 1, 2]);
    const characters = version.parts.reduce((sum, part) => sum + part.characters, 0);
    expect(version).toMatchObject({ characters, credits: characters });
    // The same text in the same voice is one key wherever it stands: the two Arabic runs differ by the title.
    expect(new Set(version.parts.map((part) => part.key)).size).toBe(3);
  });

  it("cuts a long run by the type's part size when the type is segmented, never across a voice change", () => {
    const version = describeArticle(source(voiced, [ARABIC, ARABIC, ARABIC, ENGLISH], { segmentCharacters: 200 }));
    const voices = version.parts.map((part) => part.voiceId);
    expect(voices.at(-1)).toBe('en-female-1');
    expect(voices.slice(0, -1).every((voice) => voice === 'ar-male-1')).toBe(true);
    expect(version.parts.length).toBeGreaterThan(2);
  });

  it('is exactly what it was without passage voices when one voice reads it all: same text, mode, parts and fingerprint', () => {
    const { passages: none, ...plain } = describeArticle(source(null, [ARABIC, ARABIC]));
    const { passages, ...oneVoice } = describeArticle(source(voiced, [ARABIC, ARABIC]));
    expect(oneVoice).toEqual(plain);
    expect(plain.mode).toBe('whole');
    // Listed for the edit view, the type reading passages in their voices.
    expect(none).toBeNull();
    expect(passages?.map((passage) => passage.reason)).toEqual(['article', 'article', 'article']);
  });

  it('is another narration once a passage takes another voice (its fingerprint covers the voices)', () => {
    const plain = describeArticle(source(null, [ARABIC, ENGLISH]));
    const voicedVersion = describeArticle(source(voiced, [ARABIC, ENGLISH]));
    expect(voicedVersion.text).toBe(plain.text);
    expect(voicedVersion.fingerprint).not.toBe(plain.fingerprint);
  });
});

describe('the language detector (franc)', () => {
  it('tells Arabic from English among the candidates, and nothing it was not asked about', () => {
    expect(detectLanguage(ARABIC, ['ar', 'en'])).toBe('ar');
    expect(detectLanguage(ENGLISH, ['ar', 'en'])).toBe('en');
    expect(
      detectLanguage('Le ministre a déclaré lors d’une conférence de presse que le gouvernement améliorera les services.', ['en', 'fr'])
    ).toBe('fr');
    // Only one candidate it knows: nothing to choose.
    expect(detectLanguage(ENGLISH, ['en', 'xx'])).toBeNull();
  });

  it('answers by the script alone when one language asked about is written in it, and nothing for a text of no letters', () => {
    expect(detectLanguage(ARABIC, ['ar', 'en', 'fr', 'de'])).toBe('ar');
    expect(detectLanguage('Министр сказал на пресс-конференции, что правительство улучшит услуги.', ['ru', 'en', 'ar'])).toBe('ru');
    expect(detectLanguage('2026 — 17 / 42', ['ar', 'en'])).toBeNull();
  });

  it('hears an Arabic sentence holding an English name as Arabic', () => {
    const sentence = 'أعلنت شركة Apple اليوم عن هاتف جديد سيصل إلى الأسواق العربية قبل نهاية العام.';
    expect(detectLanguage(sentence, ['ar', 'en'])).toBe('ar');
    const passages = passagesOf(sentence, new Set(), arabicArticle, detectLanguage);
    expect(voices(passages)).toEqual([['ar-male-1', 'article']]);
  });
});

describe('the edges of the passage rules', () => {
  const site = { locale: 'en', siteLocales: ['en'], quoteVoices: {}, overrides: {} };

  it('a language takes its own locale voice over a regional one, and the first regional one when it has none', () => {
    const settingsOf = (localeVoices: Record<string, string>) => passageVoiceSettings({ ...site, localeVoices }).languageVoices;
    expect(settingsOf({ en: 'us', 'en-GB': 'gb' })).toEqual({ en: 'us' });
    expect(settingsOf({ 'en-GB': 'gb', en: 'us' })).toEqual({ en: 'us' });
    expect(settingsOf({ 'en-GB': 'gb', 'en-US': 'us' })).toEqual({ en: 'gb' });
  });

  it('keys a passage by its text alone, the same on every server and in every release (editor choices are stored by it)', () => {
    expect(passageKey('Hello.')).toBe('60dae7f7ab03efd1');
    expect(passageKey('Hello.')).not.toBe(passageKey('Hello!'));
  });

  it('tells the language of a passage from exactly the minimum of letters, not one fewer', () => {
    const english = (letters: number) => `${'a'.repeat(letters)}.`;
    const told = (paragraph: string) => passagesOf(text(ARABIC, paragraph), new Set(), arabicArticle, byScript)[1];
    expect(told(english(MIN_DETECTED_LETTERS))).toMatchObject({ language: 'en', reason: 'language' });
    expect(told(english(MIN_DETECTED_LETTERS - 1))).toMatchObject({ language: 'ar', reason: 'article' });
  });

  it('a passage without a letter (a year, a figure) is too short to tell, and follows the one before it', () => {
    expect(voices(passagesOf(text(ENGLISH, '2024.'), new Set(), arabicArticle, byScript))).toEqual([
      ['en-female-1', 'language'],
      ['en-female-1', 'surrounding'],
    ]);
  });

  it("a passage too short to tell follows the one before it, but not an editor's choice nor a quote's voice", () => {
    const short = 'OK.';
    const afterEditor = passagesOf(
      text(ENGLISH, short),
      new Set(),
      { ...arabicArticle, overrides: { [passageKey(ENGLISH)]: 'chosen' } },
      byScript
    );
    expect(voices(afterEditor)).toEqual([
      ['chosen', 'editor'],
      ['ar-male-1', 'article'],
    ]);
    const afterQuote = passagesOf(text(ARABIC, short), new Set([ARABIC]), { ...arabicArticle, quoteVoiceId: 'ar-quote' }, byScript);
    expect(voices(afterQuote)).toEqual([
      ['ar-quote', 'quote'],
      ['ar-male-1', 'article'],
    ]);
  });
});
