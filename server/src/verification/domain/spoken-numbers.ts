/**
 * A whole number as it is read aloud, word by word, in English and Arabic (the cardinal, as a
 * count reads it: Arabic in its masculine nominative form). A transcript may write a number in
 * digits or in words; both sides of a check are compared in words.
 *
 * Pure: no Strapi, no I/O.
 */

const EN_ONES = [
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
const EN_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const EN_SCALES = ['', 'thousand', 'million', 'billion'];

/** Numbers up to this are read as numbers; longer runs of digits (a phone number, a code) are left as digits. */
const LARGEST = 999_999_999_999;

function englishBelowThousand(n: number): string[] {
  const words: string[] = [];
  if (n >= 100) words.push(EN_ONES[Math.floor(n / 100)], 'hundred');
  const rest = n % 100;
  if (rest >= 20) words.push(EN_TENS[Math.floor(rest / 10)], ...(rest % 10 ? [EN_ONES[rest % 10]] : []));
  else if (rest > 0 || words.length === 0) words.push(EN_ONES[rest]);
  return words;
}

function english(n: number): string[] {
  if (n === 0) return ['zero'];
  const words: string[] = [];
  for (let scale = EN_SCALES.length - 1; scale >= 0; scale -= 1) {
    const group = Math.floor(n / 1000 ** scale) % 1000;
    if (group > 0) words.push(...englishBelowThousand(group), ...(scale > 0 ? [EN_SCALES[scale]] : []));
  }
  return words;
}

const AR_ONES = ['صفر', 'واحد', 'اثنان', 'ثلاثة', 'أربعة', 'خمسة', 'ستة', 'سبعة', 'ثمانية', 'تسعة', 'عشرة'];
const AR_TEENS_ONE = ['', 'أحد', 'اثنا', 'ثلاثة', 'أربعة', 'خمسة', 'ستة', 'سبعة', 'ثمانية', 'تسعة'];
const AR_TENS = ['', '', 'عشرون', 'ثلاثون', 'أربعون', 'خمسون', 'ستون', 'سبعون', 'ثمانون', 'تسعون'];
const AR_HUNDREDS = ['', 'مئة', 'مئتان', 'ثلاثمئة', 'أربعمئة', 'خمسمئة', 'ستمئة', 'سبعمئة', 'ثمانمئة', 'تسعمئة'];
/** One, two, three to ten, and eleven on, of each scale: ألف، ألفان، ثلاثة آلاف، أحد عشر ألفا. */
const AR_SCALES: Array<[one: string, two: string, few: string, many: string]> = [
  ['', '', '', ''],
  ['ألف', 'ألفان', 'آلاف', 'ألفا'],
  ['مليون', 'مليونان', 'ملايين', 'مليونا'],
  ['مليار', 'ملياران', 'مليارات', 'مليارا'],
];

function arabicBelowThousand(n: number): string[] {
  const parts: string[][] = [];
  if (n >= 100) parts.push([AR_HUNDREDS[Math.floor(n / 100)]]);
  const rest = n % 100;
  if (rest > 0 && rest <= 10) parts.push([AR_ONES[rest]]);
  else if (rest > 10 && rest < 20) parts.push([AR_TEENS_ONE[rest % 10], 'عشر']);
  else if (rest >= 20) parts.push(...(rest % 10 ? [[AR_ONES[rest % 10]]] : []), [AR_TENS[Math.floor(rest / 10)]]);
  return joinedWithAnd(parts);
}

/** Each part after the first takes the conjunction و as a prefix of its first word. */
function joinedWithAnd(parts: string[][]): string[] {
  return parts.flatMap((words, index) => (index === 0 ? words : [`و${words[0]}`, ...words.slice(1)]));
}

function arabic(n: number): string[] {
  if (n === 0) return [AR_ONES[0]];
  const parts: string[][] = [];
  for (let scale = AR_SCALES.length - 1; scale >= 0; scale -= 1) {
    const group = Math.floor(n / 1000 ** scale) % 1000;
    if (group === 0) continue;
    if (scale === 0) {
      parts.push(arabicBelowThousand(group));
      continue;
    }
    const [one, two, few, many] = AR_SCALES[scale];
    if (group === 1) parts.push([one]);
    else if (group === 2) parts.push([two]);
    else if (group <= 10) parts.push([...arabicBelowThousand(group), few]);
    else parts.push([...arabicBelowThousand(group), many]);
  }
  return joinedWithAnd(parts);
}

const READERS: Record<string, (n: number) => string[]> = { en: english, ar: arabic };

/**
 * The words `digits` (Western digits only) is read with in `language` (a primary subtag: `en`,
 * `ar`); null for another language, a number with leading zeros (a code, read digit by digit or
 * not at all) or one too long to be read as a number.
 */
export function spokenNumber(digits: string, language: string): string[] | null {
  const read = READERS[language];
  if (!read || !/^\d+$/.test(digits) || (digits.length > 1 && digits.startsWith('0'))) return null;
  const n = Number(digits);
  return n <= LARGEST ? read(n) : null;
}

const EN_SCALE_WORDS = new Set(['hundred', ...EN_SCALES.filter(Boolean)]);
const EN_NUMBER_WORDS = new Set([...EN_ONES, ...EN_TENS.filter(Boolean)]);

/**
 * Whether `word` is a connector inside a spoken number, not compared: the "and" of "one hundred
 * and five" (`before` and `after` are the words around it, normalised).
 */
export function isNumberConnector(language: string, before: string | undefined, word: string, after: string | undefined): boolean {
  return (
    language === 'en' &&
    word === 'and' &&
    before !== undefined &&
    EN_SCALE_WORDS.has(before) &&
    after !== undefined &&
    EN_NUMBER_WORDS.has(after)
  );
}
