import { normaliseWord, wordsOf } from '../../../server/src/verification/domain/words';

/** Each normalisation a check applies to both sides, alone, so that no one of them goes unnoticed. */

const norms = (text: string, language = 'en') => wordsOf(text, language).words.map((word) => word.norm);

describe('one word, normalised', () => {
  it.each([
    ['case', 'Hello', 'hello'],
    ['an apostrophe inside a word', "Don't", 'dont'],
    ['a typographic apostrophe', 'don’t', 'dont'],
    ['Latin accents', 'Café', 'cafe'],
    ['accents above capitals', 'ÉTÉ', 'ete'],
    ['the Arabic harakat', 'مَدْرَسَةٌ', 'مدرسه'],
    ['the tatweel', 'مـدرسـة', 'مدرسه'],
    ['alef with hamza above', 'أحمد', 'احمد'],
    ['alef with hamza below', 'إسلام', 'اسلام'],
    ['alef madda', 'آخر', 'اخر'],
    ['alef wasla', 'ٱلكتاب', 'الكتاب'],
    ['taa marbuta', 'مدينة', 'مدينه'],
    ['alef maqsura', 'مستشفى', 'مستشفي'],
    ['Arabic-Indic digits', '٢٠٢٦', '2026'],
    ['Eastern Arabic-Indic digits', '۲۰۲۶', '2026'],
  ])('%s: %s is %s', (_, written, norm) => {
    expect(normaliseWord(written)).toBe(norm);
  });

  it('leaves a word without any of these as it is', () => {
    expect(normaliseWord('plain')).toBe('plain');
    expect(normaliseWord('كتاب')).toBe('كتاب');
  });
});

describe('the words of a text', () => {
  it('leaves punctuation and spacing aside, and keeps each word the token it is written in', () => {
    const { words, tokens } = wordsOf('Hello,   world! (Again.)', 'en');
    expect(words).toEqual([
      { norm: 'hello', token: 0 },
      { norm: 'world', token: 1 },
      { norm: 'again', token: 2 },
    ]);
    expect(tokens).toEqual(['Hello', 'world', 'Again']);
  });

  it('reads a number in the words it is spoken with, each word keeping the number’s token', () => {
    const { words, tokens } = wordsOf('in 2026', 'en-GB');
    expect(tokens).toEqual(['in', '2026']);
    expect(words.map((word) => [word.norm, word.token])).toEqual([
      ['in', 0],
      ['two', 1],
      ['thousand', 1],
      ['twenty', 1],
      ['six', 1],
    ]);
  });

  it('reads thousands separators as one number, and a decimal point as two', () => {
    expect(norms('1,200 people')).toEqual(['one', 'thousand', 'two', 'hundred', 'people']);
    expect(norms('١٬٢٠٠', 'ar')).toEqual(['الف', 'وميتان']);
    expect(norms('3.5')).toEqual(['three', 'five']);
    expect(norms('12,34')).toEqual(['twelve', 'thirty', 'four']);
  });

  it('reads digits in a language without a number reader as digits', () => {
    expect(norms('21 pommes', 'fr')).toEqual(['21', 'pommes']);
    expect(norms('21', '')).toEqual(['21']);
  });

  it('drops the "and" inside an English number only', () => {
    expect(norms('one hundred and five')).toEqual(['one', 'hundred', 'five']);
    expect(norms('bread and butter')).toEqual(['bread', 'and', 'butter']);
  });

  it('compares Arabic digits, Arabic number words in either case, and both spellings of hundred as one', () => {
    expect(norms('٢١', 'ar')).toEqual(norms('واحد وعشرون', 'ar'));
    expect(norms('عشرين', 'ar')).toEqual(norms('عشرون', 'ar'));
    expect(norms('وخمسين', 'ar')).toEqual(['وخمسون']);
    expect(norms('اثنين', 'ar')).toEqual(['اثنان']);
    expect(norms('اثني', 'ar')).toEqual(['اثنا']);
    expect(norms('ألفين', 'ar')).toEqual(['الفان']);
    expect(norms('مليونين', 'ar')).toEqual(['مليونان']);
    expect(norms('مائة', 'ar')).toEqual(norms('مئة', 'ar'));
    expect(norms('مائتان', 'ar')).toEqual(norms('مئتان', 'ar'));
    expect(norms('مائتين', 'ar')).toEqual(norms('مئتان', 'ar'));
    // Words that only look like them stay as they are.
    expect(norms('عشرينات', 'ar')).toEqual(['عشرينات']);
    expect(norms('سنين', 'ar')).toEqual(['سنين']);
  });

  it('applies the Arabic spellings to Arabic only', () => {
    expect(norms('اثنين', 'en')).toEqual(['اثنين']);
  });
});

describe('the edges of what is read as one number or as a spoken form', () => {
  const norms = (text: string, language: string) => wordsOf(text, language).words.map((word) => word.norm);

  it('thousands separators make one number only in groups of three after one to three digits', () => {
    expect(norms('12,345', 'en')).toEqual(['twelve', 'thousand', 'three', 'hundred', 'forty', 'five']);
    expect(norms('1,234,567', 'en').slice(0, 3)).toEqual(['one', 'million', 'two']);
    // Not a grouped number: read piece by piece.
    expect(norms('12,3456', 'en')).toEqual(['twelve', 'three', 'thousand', 'four', 'hundred', 'fifty', 'six']);
    expect(norms('1234,567', 'en')).toEqual(['one', 'thousand', 'two', 'hundred', 'thirty', 'four', 'five', 'hundred', 'sixty', 'seven']);
  });

  it('an oblique number word is the nominative only as a whole word, with or without its و', () => {
    expect(norms('عشرين', 'ar')).toEqual(['عشرون']);
    expect(norms('وعشرين', 'ar')).toEqual(['وعشرون']);
    expect(norms('بعشرين', 'ar')).toEqual(['بعشرين']);
    expect(norms('عشرينات', 'ar')).toEqual(['عشرينات']);
    expect(norms('الفين', 'ar')).toEqual(['الفان']);
    expect(norms('بالفين', 'ar')).toEqual(['بالفين']);
    expect(norms('الفينك', 'ar')).toEqual(['الفينك']);
    expect(norms('اثني', 'ar')).toEqual(['اثنا']);
    expect(norms('باثني', 'ar')).toEqual(['باثني']);
    expect(norms('اثنيك', 'ar')).toEqual(['اثنيك']);
  });
});
