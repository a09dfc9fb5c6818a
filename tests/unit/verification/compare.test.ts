import { align } from '../../../server/src/verification/domain/alignment';
import { compareTranscript, MAX_PLACES, type HeardSegment } from '../../../server/src/verification/domain/compare';
import { normaliseWord, wordsOf } from '../../../server/src/verification/domain/words';
import { spokenNumber } from '../../../server/src/verification/domain/spoken-numbers';

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

describe('the alignment, bounded by the minimum word accuracy', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => `w${i}`);
  // 4,000 words at 0.95 allow 200 errors: a bound of 400 edits, past the 200 always aligned.
  const many = Array.from({ length: 4_000 }, (_, i) => `w${i}`);
  /** `words` with the word at each of `at` heard as another. */
  const replacedAt = (words: string[], ...at: number[]) => words.map((word, i) => (at.includes(i) ? `${word}x` : word));
  /** Every `step`-th word from `from` replaced, `count` of them. */
  const every = (count: number, step: number, from = 10) => Array.from({ length: count }, (_, j) => from + j * step);

  it('aligns as without a bound a transcript whose edit length reaches the bound exactly', () => {
    const atBound = replacedAt(many, ...every(200, 19));
    expect(align(many, atBound, 0.95)).toEqual(align(many, atBound));
    expect(align(many, atBound, 0.95)).toMatchObject({ substitutions: 200, wordAccuracy: 0.95 });
    // A word lost makes the bound 2 × 200 - 1: the lost word and 199 substitutions.
    const lostAnd199 = replacedAt(many, ...every(199, 19)).filter((_, i) => i !== 3_900);
    expect(align(many, lostAnd199, 0.95)).toEqual(align(many, lostAnd199));
    expect(align(many, lostAnd199, 0.95)).toMatchObject({ substitutions: 199, deletions: 1, wordAccuracy: 0.95 });
  });

  it('stops just past the bound, with no accuracy and the words from the first that differs to the last as one place', () => {
    // Edit lengths have the parity of both lengths' sum: the next past the bound is two edits more.
    const past = replacedAt(many, ...every(201, 19));
    expect(align(many, past).wordAccuracy).toBeCloseTo(1 - 201 / 4_000, 10);
    expect(align(many, past, 0.95)).toEqual({
      sentWords: 4_000,
      substitutions: 3_801,
      deletions: 0,
      insertions: 0,
      wordAccuracy: null,
      differences: [{ sent: { from: 10, to: 3_811 }, heard: { from: 10, to: 3_811 } }],
    });
    const lostAnd200 = replacedAt(many, ...every(200, 19)).filter((_, i) => i !== 3_900);
    expect(align(many, lostAnd200).wordAccuracy).toBeCloseTo(1 - 201 / 4_000, 10);
    expect(align(many, lostAnd200, 0.95).wordAccuracy).toBeNull();
  });

  it('always aligns a short text, whose few edits cost nothing to follow: its places and accuracy stay exact', () => {
    const six = replacedAt(hundred, 10, 25, 40, 55, 70, 85);
    expect(align(hundred, six, 0.95)).toEqual(align(hundred, six));
    expect(align(hundred, six, 0.95)).toMatchObject({ wordAccuracy: 0.94, substitutions: 6 });
    expect(align(hundred, six, 0.95).differences).toHaveLength(6);
  });

  it('keeps aligning a mismatch whose edit length is within the bound', () => {
    // 20 words at 0.95 allow 1 error: a word lost and another added are 2 edits, within the bound, 2 errors.
    const twenty = hundred.slice(0, 20);
    const heard = [...twenty.slice(0, 5), ...twenty.slice(6, 15), 'uh', ...twenty.slice(15)];
    expect(align(twenty, heard, 0.95)).toEqual(align(twenty, heard));
    expect(align(twenty, heard, 0.95)).toMatchObject({ wordAccuracy: 0.9, deletions: 1, insertions: 1 });
  });

  it('allows the errors the accuracy allows, whichever way (1 − minimum) × words rounds', () => {
    // (1 - 0.9) × 1,000 is 99.99…: a hundred errors in 1,000 words are still 0.9, a bound of 200 edits.
    const thousand = many.slice(0, 1_000);
    expect(align(thousand, replacedAt(thousand, ...every(100, 9)), 0.9)).toMatchObject({ wordAccuracy: 0.9, substitutions: 100 });
    expect(align(thousand, replacedAt(thousand, ...every(101, 9)), 0.9).wordAccuracy).toBeNull();
  });

  it('ends 10,000 words heard as 10,000 others, none in common, as one place with no accuracy', () => {
    const sent = Array.from({ length: 10_000 }, (_, i) => `sent${i % 3000}`);
    const heard = Array.from({ length: 10_000 }, (_, i) => `heard${i % 3000}`);
    expect(align(sent, heard, 0.95)).toEqual({
      sentWords: 10_000,
      substitutions: 10_000,
      deletions: 0,
      insertions: 0,
      wordAccuracy: null,
      differences: [{ sent: { from: 0, to: 10_000 }, heard: { from: 0, to: 10_000 } }],
    });
  });

  it('does not bound a minimum of 0, which every transcript reaches', () => {
    expect(align(['a', 'b'], ['x', 'y', 'z'], 0)).toMatchObject({ wordAccuracy: 0, substitutions: 2, insertions: 1 });
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

  it("writes a place heard in a later segment with that segment's own words, and a number heard once however many words it reads as", () => {
    const later = compareTranscript('One two three. Four five six.', segments([0, 3, 'One two three.'], [3, 6, 'Four fife six.']), 'en');
    expect(later.places).toEqual([{ expected: 'five', heard: 'fife', atSeconds: 4 }]);
    const number = compareTranscript('We sold 1200 cars.', segments([0, 4, 'We sold 1300 cars.']), 'en');
    expect(number.places).toEqual([expect.objectContaining({ expected: '1200', heard: '1300' })]);
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

  it('lists the words from the first that differs to the last as one place when too far from the text to align', () => {
    const sent = Array.from({ length: 4_000 }, (_, i) => `w${i}`);
    const text = `${sent.join(' ')}.`;
    const replaced = sent.map((word, i) => (i % 5 === 2 ? `${word}x` : word)).join(' ');
    expect(compareTranscript(text, segments([0, 1_000, replaced]), 'en', 0.95)).toMatchObject({
      wordAccuracy: null,
      substitutions: 3_996,
      placeCount: 1,
      places: [{ expected: sent.slice(2, 3_998).join(' '), heard: replaced.split(' ').slice(2, 3_998).join(' '), atSeconds: 0.5 }],
    });
  });

  it('is exact, past the bound, when the one place only lost words: the audio stops half-way', () => {
    const sent = Array.from({ length: 20 }, (_, i) => `w${i}`);
    const halfWay = segments([0, 5, `${sent.slice(0, 10).join(' ')}.`]);
    const result = compareTranscript(`${sent.join(' ')}.`, halfWay, 'en', 0.95);
    expect(result).toEqual(compareTranscript(`${sent.join(' ')}.`, halfWay, 'en'));
    expect(result).toMatchObject({ wordAccuracy: 0.5, deletions: 10, placeCount: 1 });
    expect(result.places).toEqual([{ expected: sent.slice(10).join(' '), heard: '', atSeconds: 5 }]);
  });

  it('counts every place but lists at most MAX_PLACES', () => {
    const sent = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    const heard = Array.from({ length: 200 }, (_, i) => (i % 2 ? `w${i}` : `x${i}`)).join(' ');
    const result = compareTranscript(sent, segments([0, 100, heard]), 'en');
    expect(result.placeCount).toBe(100);
    expect(result.places).toHaveLength(MAX_PLACES);
  });
});
