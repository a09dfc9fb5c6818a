/**
 * Articles for the segmenting tests: paragraphs of 200 to 900 characters in English or Arabic
 * (Arabic punctuation, Arabic-Indic digits), from a seeded generator, and the edits an editor makes
 * (one word changed, one sentence added). The same seed always gives the same article.
 */

/** mulberry32: small, seeded, good enough to pick words. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const ENGLISH_WORDS = (
  'the council met on tuesday to discuss a plan for the new library and the river path ' +
  'residents said they wanted more trees quieter streets and better buses after years of delay ' +
  'engineers measured water levels along the bridge while teachers asked about funding for schools ' +
  'the mayor promised a report by spring but critics doubted the numbers in the budget ' +
  'farmers near the valley described a dry summer with prices rising faster than wages ' +
  'researchers at the university published data showing that traffic fell during the trial ' +
  'several shops on the market square will open later in the evening from next month ' +
  'visitors praised the museum its gardens and the small cafe beside the old station'
).split(' ');

const ARABIC_WORDS = (
  'اجتمع المجلس يوم الثلاثاء لمناقشة خطة المكتبة الجديدة وممر النهر ' +
  'قال السكان إنهم يريدون مزيدا من الأشجار وشوارع أهدأ وحافلات أفضل بعد سنوات من التأخير ' +
  'قاس المهندسون مستوى المياه قرب الجسر بينما سأل المعلمون عن تمويل المدارس ' +
  'وعد رئيس البلدية بتقرير في الربيع لكن المنتقدين شككوا في أرقام الميزانية ' +
  'وصف المزارعون في الوادي صيفا جافا ترتفع فيه الأسعار أسرع من الأجور ' +
  'نشر الباحثون في الجامعة بيانات تظهر أن حركة المرور انخفضت خلال التجربة'
).split(' ');

const ARABIC_DIGITS = '٠١٢٣٤٥٦٧٨٩';

export type Language = 'en' | 'ar';

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** One sentence of 6 to 24 words, sometimes with a clause comma or a number, ending in punctuation. */
export function sentence(random: () => number, language: Language): string {
  const words = Array.from({ length: 6 + Math.floor(random() * 19) }, () => pick(random, language === 'en' ? ENGLISH_WORDS : ARABIC_WORDS));
  if (random() < 0.3) {
    const number = (random() * 100).toFixed(2);
    words.splice(1 + Math.floor(random() * (words.length - 1)), 0, language === 'en' ? number : toArabicDigits(number));
  }
  if (random() < 0.4) {
    const at = 2 + Math.floor(random() * (words.length - 3));
    words[at] = `${words[at]}${language === 'en' ? ',' : '،'}`;
  }
  if (language === 'en') words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  const ends = language === 'en' ? ['.', '.', '.', '?', '!'] : ['.', '.', '؟', '؛', '.'];
  return `${words.join(' ')}${pick(random, ends)}`;
}

/** `12.50` as `١٢٫٥٠`: Arabic-Indic digits and the Arabic decimal separator. */
export function toArabicDigits(number: string): string {
  return number.replace(/\d/g, (digit) => ARABIC_DIGITS[Number(digit)]).replace('.', '٫');
}

/** A paragraph of 200 to 900 characters. */
export function paragraph(random: () => number, language: Language): string {
  const target = 200 + Math.floor(random() * 700);
  let text = sentence(random, language);
  while (text.length < target) {
    const next = `${text} ${sentence(random, language)}`;
    if (next.length > 900) break;
    text = next;
  }
  return text;
}

/** Paragraphs until the article has `characters` characters. */
export function article(seed: number, language: Language, characters: number): string[] {
  const random = seededRandom(seed);
  const paragraphs: string[] = [];
  let total = 0;
  while (total < characters) {
    const next = paragraph(random, language);
    paragraphs.push(next);
    total += next.length + 2;
  }
  return paragraphs;
}

/** One edit an editor makes: a word of one paragraph changed, or a sentence added to it. */
export function editOneParagraph(paragraphs: readonly string[], random: () => number, language: Language): string[] {
  const edited = [...paragraphs];
  const at = Math.floor(random() * edited.length);
  if (random() < 0.5) {
    const words = edited[at].split(' ');
    const which = Math.floor(random() * words.length);
    words[which] = language === 'en' ? 'revised' : 'المعدلة';
    edited[at] = words.join(' ');
  } else {
    edited[at] = `${edited[at]} ${sentence(random, language)}`;
  }
  return edited;
}
