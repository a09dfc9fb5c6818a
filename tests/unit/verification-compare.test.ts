import { align } from '../../server/src/verification/domain/alignment';
import { compareTranscript, MAX_PLACES, type HeardSegment } from '../../server/src/verification/domain/compare';
import { normaliseWord, wordsOf } from '../../server/src/verification/domain/words';
import { spokenNumber } from '../../server/src/verification/domain/spoken-numbers';

const norms = (text: string, language = 'en') => wordsOf(text, language).words.map((word) => word.norm);

describe('the words compared', () => {
  it('leave case, punctuation and spacing aside, and keep an apostrophe inside a word', () => {
    expect(norms('  Hello, WORLD!  Don’t stop… (now)')).toEqual(['hello', 'world', 'dont', 'stop', 'now']);
  });

  it('leave Latin accents aside', () => {
    expect(norms('Café naïve')).toEqual(norms('cafe naive'));
  });

  it('leave Arabic diacritics and tatweel aside, and read the alef forms, taa marbuta and alef maqsura as one', () => {
    expect(norms('قَالَ المُعَلِّمُ', 'ar')).toEqual(norms('قال المعلم', 'ar'));
    expect(norms('أحمد إبراهيم آمن ٱلكتاب', 'ar')).toEqual(norms('احمد ابراهيم امن الكتاب', 'ar'));
    expect(norms('مدرسة على', 'ar')).toEqual(norms('مدرسه علي', 'ar'));
    expect(norms('جميـــل', 'ar')).toEqual(norms('جميل', 'ar'));
    expect(normaliseWord('ى')).toBe(normaliseWord('ي'));
  });

  it('read Arabic-Indic and Eastern Arabic-Indic digits as Western ones', () => {
    expect(norms('٢٠٢٦ ۱۲', 'ar')).toEqual(norms('2026 12', 'ar'));
  });

  it('read a number as the words it is spoken with, whichever the transcript writes', () => {
    expect(norms('21 apples')).toEqual(norms('twenty-one apples'));
    expect(norms('1,205 pages')).toEqual(norms('one thousand two hundred and five pages'));
    expect(norms('in 2026')).toEqual(['in', 'two', 'thousand', 'twenty', 'six']);
    expect(norms('٢١ كتابا', 'ar')).toEqual(norms('واحد وعشرون كتابا', 'ar'));
    // Two spellings of "hundred": مئة and مائة.
    expect(norms('300', 'ar')).toEqual(norms('ثلاثمائة', 'ar'));
  });

  it('keep "and" between words that are not one number', () => {
    expect(norms('bread and butter')).toEqual(['bread', 'and', 'butter']);
    expect(norms('a hundred and one dalmatians')).toEqual(['a', 'hundred', 'one', 'dalmatians']);
  });

  it('keep a code with leading zeros, a very long number and a number of another language as digits', () => {
    expect(norms('agent 007')).toEqual(['agent', '007']);
    expect(norms('1234567890123')).toEqual(['1234567890123']);
    expect(norms('42', 'fr')).toEqual(['42']);
  });

  it('give each word the token it is written in, a number spoken as several words included', () => {
    const { words, tokens } = wordsOf('Page 21.', 'en');
    expect(tokens).toEqual(['Page', '21']);
    expect(words.map((word) => word.token)).toEqual([0, 1, 1]);
  });
});

describe('spoken numbers', () => {
  it.each([
    ['0', 'zero'],
    ['7', 'seven'],
    ['13', 'thirteen'],
    ['40', 'forty'],
    ['99', 'ninety nine'],
    ['100', 'one hundred'],
    ['110', 'one hundred ten'],
    ['1000', 'one thousand'],
    ['1001', 'one thousand one'],
    ['2000000', 'two million'],
    ['3000000005', 'three billion five'],
  ])('English: %s is "%s"', (digits, words) => {
    expect(spokenNumber(digits, 'en')?.join(' ')).toBe(words);
  });

  it.each([
    ['0', 'صفر'],
    ['1', 'واحد'],
    ['2', 'اثنان'],
    ['10', 'عشرة'],
    ['11', 'أحد عشر'],
    ['12', 'اثنا عشر'],
    ['15', 'خمسة عشر'],
    ['20', 'عشرون'],
    ['21', 'واحد وعشرون'],
    ['100', 'مئة'],
    ['205', 'مئتان وخمسة'],
    ['1000', 'ألف'],
    ['2000', 'ألفان'],
    ['3000', 'ثلاثة آلاف'],
    ['11000', 'أحد عشر ألفا'],
    ['1234', 'ألف ومئتان وأربعة وثلاثون'],
    ['2000000', 'مليونان'],
  ])('Arabic: %s is "%s"', (digits, words) => {
    expect(spokenNumber(digits, 'ar')?.join(' ')).toBe(words);
  });
});

describe('the alignment', () => {
  it('counts a replaced word as one substitution, a lost word as a deletion and an extra one as an insertion', () => {
    expect(align(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd'])).toMatchObject({
      substitutions: 1,
      deletions: 0,
      insertions: 0,
      wordAccuracy: 0.75,
    });
    expect(align(['a', 'b', 'c', 'd'], ['a', 'c', 'd'])).toMatchObject({
      substitutions: 0,
      deletions: 1,
      insertions: 0,
      wordAccuracy: 0.75,
    });
    expect(align(['a', 'b', 'c', 'd'], ['a', 'b', 'uh', 'c', 'd'])).toMatchObject({
      substitutions: 0,
      deletions: 0,
      insertions: 1,
      wordAccuracy: 0.75,
    });
  });

  it('makes one place of a run sent and a run heard side by side: the shorter run substitutes, the rest is lost or added', () => {
    const result = align(['a', 'b', 'c', 'd', 'e'], ['a', 'x', 'e']);
    expect(result).toMatchObject({ substitutions: 1, deletions: 2, insertions: 0 });
    expect(result.differences).toEqual([{ sent: { from: 1, to: 4 }, heard: { from: 1, to: 2 } }]);
  });

  it('puts a run that was only lost, or only added, as far back as it goes: at a sentence start, not astride one', () => {
    const sent = ['stays', 'the', 'second', 'goes', 'the', 'third'];
    expect(align(sent, ['stays', 'the', 'third']).differences).toEqual([{ sent: { from: 1, to: 4 }, heard: { from: 1, to: 1 } }]);
    expect(align(['a', 'b', 'a', 'c'], ['a', 'b', 'a', 'b', 'a', 'c']).differences).toEqual([
      { sent: { from: 0, to: 0 }, heard: { from: 0, to: 2 } },
    ]);
    // Never past the place before it.
    const twice = align(['x', 'a', 'y', 'a', 'z'], ['q', 'a', 'z']);
    expect(twice.differences[0].sent.from).toBe(0);
    expect(twice.differences[1].sent.from).toBeGreaterThanOrEqual(twice.differences[0].sent.to);
  });

  it('is exact for equal words, never below 0, and 1 for nothing sent and nothing heard', () => {
    expect(align(['a', 'b'], ['a', 'b'])).toMatchObject({ wordAccuracy: 1, differences: [] });
    expect(align(['a'], ['x', 'y', 'z']).wordAccuracy).toBe(0);
    expect(align([], []).wordAccuracy).toBe(1);
    expect(align([], ['noise']).wordAccuracy).toBe(0);
  });
});

describe('a transcript compared with the text sent', () => {
  const segments = (...texts: Array<[number, number, string]>): HeardSegment[] => texts.map(([start, end, text]) => ({ start, end, text }));

  it('finds nothing in a faithful transcript, punctuation and case aside', () => {
    const result = compareTranscript(
      'The first sentence. The second, and the third!',
      segments([0, 1.2, 'the first sentence'], [1.2, 3, 'The second and the third.']),
      'en'
    );
    expect(result).toMatchObject({ wordAccuracy: 1, sentWords: 8, heardWords: 8, placeCount: 0, places: [] });
  });

  it('lists a sentence missing from the audio where the previous heard word ends', () => {
    const result = compareTranscript(
      'One two three. Four five six. Seven eight nine.',
      segments([0, 1.5, 'One two three.'], [1.5, 3, 'Seven eight nine.']),
      'en'
    );
    expect(result.places).toEqual([{ expected: 'Four five six', heard: '', atSeconds: 1.5 }]);
    expect(result).toMatchObject({ deletions: 3, wordAccuracy: 1 - 3 / 9, placeCount: 1 });
  });

  it('places a word heard but not sent at its time inside its segment', () => {
    // Five words heard over four seconds: the fourth ("RAY" of "GAMMA-RAY") starts at 4.4 s.
    const result = compareTranscript('Alpha beta gamma delta.', segments([2, 6, 'Alpha beta GAMMA-RAY delta.']), 'en');
    expect(result.places).toEqual([{ expected: '', heard: 'RAY', atSeconds: 4.4 }]);
    expect(result).toMatchObject({ insertions: 1, wordAccuracy: 0.75 });
  });

  it('places a replaced word at its time inside its segment, as written on both sides', () => {
    const replaced = compareTranscript('Alpha beta gamma delta.', segments([2, 6, 'Alpha beta Gama delta.']), 'en');
    // Four words heard over four seconds: the third starts at 4 s.
    expect(replaced.places).toEqual([{ expected: 'gamma', heard: 'Gama', atSeconds: 4 }]);
    expect(replaced).toMatchObject({ substitutions: 1, insertions: 0, deletions: 0, wordAccuracy: 0.75 });
  });

  it('places words missing at the very start at the start of the audio', () => {
    expect(compareTranscript('Hello there world', segments([0.5, 1, 'world']), 'en').places).toEqual([
      { expected: 'Hello there', heard: '', atSeconds: 0 },
    ]);
  });

  it('reads Arabic with diacritics in the text and none in the transcript as the same words', () => {
    // The year as said (oblique case, ألفين ... وعشرين) or in digits: the same words as ٢٠٢٦.
    for (const year of ['الفين وستة وعشرين', 'ألفان وستة وعشرون', '2026']) {
      const result = compareTranscript(
        'ذَهَبَ الوَلَدُ إلى المَدْرَسَةِ في ٢٠٢٦.',
        segments([0, 3, `ذهب الولد الى المدرسه في ${year}`]),
        'ar'
      );
      expect(result).toMatchObject({ wordAccuracy: 1, placeCount: 0 });
    }
    const exact = compareTranscript('ذَهَبَ الوَلَدُ إلى المَدْرَسَةِ.', segments([0, 3, 'ذهب الولد الى المدرسه']), 'ar');
    expect(exact).toMatchObject({ wordAccuracy: 1, placeCount: 0 });
  });

  it('counts every place but lists at most MAX_PLACES', () => {
    const sent = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    const heard = Array.from({ length: 200 }, (_, i) => (i % 2 ? `w${i}` : `x${i}`)).join(' ');
    const result = compareTranscript(sent, segments([0, 100, heard]), 'en');
    expect(result.placeCount).toBe(100);
    expect(result.places).toHaveLength(MAX_PLACES);
  });
});
