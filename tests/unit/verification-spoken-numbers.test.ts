import { isNumberConnector, spokenNumber } from '../../server/src/verification/domain/spoken-numbers';

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
