import { isNumberConnector, spokenNumber } from '../../../server/src/verification/domain/spoken-numbers';

/** Each boundary of the number reader, on both sides, in English and Arabic. */

describe('English numbers at each boundary', () => {
  it.each([
    ['9', 'nine'],
    ['10', 'ten'],
    ['11', 'eleven'],
    ['19', 'nineteen'],
    ['20', 'twenty'],
    ['21', 'twenty one'],
    ['29', 'twenty nine'],
    ['30', 'thirty'],
    ['90', 'ninety'],
    ['99', 'ninety nine'],
    ['100', 'one hundred'],
    ['101', 'one hundred one'],
    ['119', 'one hundred nineteen'],
    ['120', 'one hundred twenty'],
    ['999', 'nine hundred ninety nine'],
    ['1000', 'one thousand'],
    ['1010', 'one thousand ten'],
    ['1100', 'one thousand one hundred'],
    ['19000', 'nineteen thousand'],
    ['20000', 'twenty thousand'],
    ['999999', 'nine hundred ninety nine thousand nine hundred ninety nine'],
    ['1000000', 'one million'],
    ['1000001', 'one million one'],
    ['1001000', 'one million one thousand'],
    ['999999999', 'nine hundred ninety nine million nine hundred ninety nine thousand nine hundred ninety nine'],
    ['1000000000', 'one billion'],
    ['1000000001', 'one billion one'],
    [
      '999999999999',
      'nine hundred ninety nine billion nine hundred ninety nine million nine hundred ninety nine thousand nine hundred ninety nine',
    ],
  ])('%s is "%s"', (digits, words) => {
    expect(spokenNumber(digits, 'en')?.join(' ')).toBe(words);
  });
});

describe('Arabic numbers at each boundary', () => {
  it.each([
    ['9', 'تسعة'],
    ['10', 'عشرة'],
    ['11', 'أحد عشر'],
    ['19', 'تسعة عشر'],
    ['20', 'عشرون'],
    ['21', 'واحد وعشرون'],
    ['30', 'ثلاثون'],
    ['99', 'تسعة وتسعون'],
    ['100', 'مئة'],
    ['101', 'مئة وواحد'],
    ['110', 'مئة وعشرة'],
    ['111', 'مئة وأحد عشر'],
    ['120', 'مئة وعشرون'],
    ['200', 'مئتان'],
    ['999', 'تسعمئة وتسعة وتسعون'],
    ['1000', 'ألف'],
    ['1001', 'ألف وواحد'],
    ['2001', 'ألفان وواحد'],
    ['3000', 'ثلاثة آلاف'],
    ['10000', 'عشرة آلاف'],
    ['11000', 'أحد عشر ألفا'],
    ['99000', 'تسعة وتسعون ألفا'],
    ['1000000', 'مليون'],
    ['3000000', 'ثلاثة ملايين'],
    ['12000000', 'اثنا عشر مليونا'],
    ['1000000000', 'مليار'],
    ['2000000000', 'ملياران'],
    ['5000000000', 'خمسة مليارات'],
    ['15000000000', 'خمسة عشر مليارا'],
  ])('%s is "%s"', (digits, words) => {
    expect(spokenNumber(digits, 'ar')?.join(' ')).toBe(words);
  });
});

describe('what is not read as a number', () => {
  it('a run of digits too long, a code with leading zeros, another language, anything but Western digits', () => {
    expect(spokenNumber('1000000000000', 'en')).toBeNull();
    expect(spokenNumber('1000000000000', 'ar')).toBeNull();
    expect(spokenNumber('999999999999', 'ar')).not.toBeNull();
    expect(spokenNumber('007', 'en')).toBeNull();
    expect(spokenNumber('00', 'ar')).toBeNull();
    expect(spokenNumber('0', 'en')).toEqual(['zero']);
    expect(spokenNumber('12', 'fr')).toBeNull();
    expect(spokenNumber('12a', 'en')).toBeNull();
    expect(spokenNumber('١٢', 'ar')).toBeNull();
    expect(spokenNumber('', 'en')).toBeNull();
  });
});

describe('the "and" inside an English number', () => {
  it('is a connector between a scale and a number word only, in English only', () => {
    expect(isNumberConnector('en', 'hundred', 'and', 'five')).toBe(true);
    expect(isNumberConnector('en', 'thousand', 'and', 'twenty')).toBe(true);
    expect(isNumberConnector('en', 'million', 'and', 'one')).toBe(true);
    expect(isNumberConnector('en', 'five', 'and', 'six')).toBe(false);
    expect(isNumberConnector('en', 'hundred', 'and', 'apples')).toBe(false);
    expect(isNumberConnector('en', 'hundred', 'or', 'five')).toBe(false);
    expect(isNumberConnector('en', undefined, 'and', 'five')).toBe(false);
    expect(isNumberConnector('en', 'hundred', 'and', undefined)).toBe(false);
    expect(isNumberConnector('ar', 'hundred', 'and', 'five')).toBe(false);
  });
});

describe('every word of the tables, as a reader writes it', () => {
  const english = [
    'zero',
    'one',
    'two',
    'three',
    'four',
    'five',
    'six',
    'seven',
    'eight',
    'nine',
    'ten',
    'eleven',
    'twelve',
    'thirteen',
    'fourteen',
    'fifteen',
    'sixteen',
    'seventeen',
    'eighteen',
    'nineteen',
  ];
  const englishTens = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

  it('English 0 to 19, each ten, and each ten with a unit', () => {
    english.forEach((word, n) => expect(spokenNumber(String(n), 'en')).toEqual([word]));
    englishTens.forEach((ten, i) => {
      expect(spokenNumber(String((i + 2) * 10), 'en')).toEqual([ten]);
      expect(spokenNumber(String((i + 2) * 10 + 8), 'en')).toEqual([ten, 'eight']);
    });
    expect(spokenNumber('8000008', 'en')).toEqual(['eight', 'million', 'eight']);
    expect(spokenNumber('2000000000', 'en')).toEqual(['two', 'billion']);
  });

  const arabicOnes = ['صفر', 'واحد', 'اثنان', 'ثلاثة', 'أربعة', 'خمسة', 'ستة', 'سبعة', 'ثمانية', 'تسعة', 'عشرة'];
  const arabicTeens = ['أحد', 'اثنا', 'ثلاثة', 'أربعة', 'خمسة', 'ستة', 'سبعة', 'ثمانية', 'تسعة'];
  const arabicTens = ['عشرون', 'ثلاثون', 'أربعون', 'خمسون', 'ستون', 'سبعون', 'ثمانون', 'تسعون'];
  const arabicHundreds = ['مئة', 'مئتان', 'ثلاثمئة', 'أربعمئة', 'خمسمئة', 'ستمئة', 'سبعمئة', 'ثمانمئة', 'تسعمئة'];

  it('Arabic 0 to 10, each teen, each ten with and without a unit, each hundred', () => {
    arabicOnes.forEach((word, n) => expect(spokenNumber(String(n), 'ar')).toEqual([word]));
    arabicTeens.forEach((word, i) => expect(spokenNumber(String(11 + i), 'ar')).toEqual([word, 'عشر']));
    arabicTens.forEach((ten, i) => {
      expect(spokenNumber(String((i + 2) * 10), 'ar')).toEqual([ten]);
      expect(spokenNumber(String((i + 2) * 10 + 2), 'ar')).toEqual(['اثنان', `و${ten}`]);
    });
    arabicHundreds.forEach((hundred, i) => expect(spokenNumber(String((i + 1) * 100), 'ar')).toEqual([hundred]));
  });

  it('Arabic scales: one, two, three to ten and eleven on, of thousands, millions and billions', () => {
    expect(spokenNumber('2000', 'ar')).toEqual(['ألفان']);
    expect(spokenNumber('2000000', 'ar')).toEqual(['مليونان']);
    expect(spokenNumber('10000000', 'ar')).toEqual(['عشرة', 'ملايين']);
    expect(spokenNumber('11000000000', 'ar')).toEqual(['أحد', 'عشر', 'مليارا']);
    expect(spokenNumber('1001001', 'ar')).toEqual(['مليون', 'وألف', 'وواحد']);
    expect(spokenNumber('5', 'ar')).toEqual(['خمسة']);
  });
});
