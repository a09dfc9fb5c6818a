import { cutSegments } from '../../../server/src/text';
import { countCharacters } from '../../../server/src/narration/domain/cost';
import { article, seededRandom } from './segment-fixtures';

/**
 * Checks the documented promise of cutSegments: each part a trimmed slice of the text, in order,
 * only whitespace between two (none inside a word), nothing left over, none over the maximum.
 */
function expectWellCut(text: string, parts: string[], maxCharacters: number) {
  let cursor = 0;
  for (const part of parts) {
    expect(part.trim()).toBe(part);
    expect(part).not.toBe('');
    expect(countCharacters(part)).toBeLessThanOrEqual(maxCharacters);
    const at = text.indexOf(part, cursor);
    expect(at).toBeGreaterThanOrEqual(cursor);
    expect(text.slice(cursor, at).trim()).toBe('');
    cursor = at + part.length;
  }
  expect(text.slice(cursor).trim()).toBe('');
}

const paragraphs = (...texts: string[]) => texts.join('\n\n');

// With a maximum of 40, each of these sentences (20 to 40 characters) is longer than half a part, so
// it starts a part of its own whatever its hash (segments.ts: a span starts one with a chance of
// its length over half the maximum), and any two are too long for one part: every cut shows.
const MAX = 40;

describe('cutSegments: where a paragraph longer than a part is cut', () => {
  it('cuts English after sentence ends, keeping closing quotes and brackets with their sentence', () => {
    const text = 'He said "Stop the presses now." (It was late at night, again.) Did you really not know?! No idea at all, sadly...';
    expect(cutSegments(text, MAX)).toEqual([
      'He said "Stop the presses now."',
      '(It was late at night, again.)',
      'Did you really not know?!',
      'No idea at all, sadly...',
    ]);
  });

  it('never cuts a decimal, an abbreviation before a lowercase word, or an ellipsis inside a sentence', () => {
    const text = 'Pi is 3.14 and e is 2.71 today. See e.g. the report of the council. Wait… what happened next here?';
    expect(cutSegments(text, MAX)).toEqual([
      'Pi is 3.14 and e is 2.71 today.',
      'See e.g. the report of the council.',
      'Wait… what happened next here?',
    ]);
  });

  it('cuts Arabic after ؟ and ؛ and keeps Arabic-Indic decimals (٣٫١٤) whole', () => {
    const text = 'هل قرأت التقرير الجديد يا صديقي؟ نعم، قرأته أمس في المكتبة؛ القيمة ٣٫١٤ تقريبا كما قال الباحث.';
    expect(cutSegments(text, MAX)).toEqual([
      'هل قرأت التقرير الجديد يا صديقي؟',
      'نعم، قرأته أمس في المكتبة؛',
      'القيمة ٣٫١٤ تقريبا كما قال الباحث.',
    ]);
  });

  it('cuts after the Urdu full stop ۔ and the Chinese 。 (no space after it)', () => {
    expect(cutSegments('یہ ایک لمبا جملہ ہے جو یہاں ختم ہوتا ہے۔ اور یہ دوسرا جملہ ہے جو یہاں ختم۔', MAX)).toEqual([
      'یہ ایک لمبا جملہ ہے جو یہاں ختم ہوتا ہے۔',
      'اور یہ دوسرا جملہ ہے جو یہاں ختم۔',
    ]);
    expect(cutSegments('这是一个很长的句子，它在这里结束了，真的。这是另一个很长的句子，它也在这里结束了。', 24)).toEqual([
      '这是一个很长的句子，它在这里结束了，真的。',
      '这是另一个很长的句子，它也在这里结束了。',
    ]);
  });

  it('cuts a sentence longer than a part after its clauses (، and ,) before anywhere else', () => {
    const arabic = 'قال الباحثون في الجامعة أمس، إن حركة المرور انخفضت كثيرا، خلال التجربة التي استمرت شهرا.';
    expect(cutSegments(arabic, MAX)).toEqual([
      'قال الباحثون في الجامعة أمس،',
      'إن حركة المرور انخفضت كثيرا،',
      'خلال التجربة التي استمرت شهرا.',
    ]);
    const english = 'The council met on a rainy Tuesday, and the residents who came, asked about the new library.';
    expect(cutSegments(english, MAX)).toEqual([
      'The council met on a rainy Tuesday,',
      'and the residents who came,',
      'asked about the new library.',
    ]);
    // Numbers with thousands separators are not clauses.
    const numbers = 'Some 3,000 people and ١٬٠٠٠ more came today.';
    expect(cutSegments(`${numbers} And then they all went home again.`, 50)).toEqual([numbers, 'And then they all went home again.']);
  });

  it('cuts a clause still longer than a part between words, every piece within the maximum', () => {
    const text = 'the council met on tuesday to discuss a plan for the new library and the river path and the old station';
    const parts = cutSegments(text, MAX);
    expectWellCut(text, parts, MAX);
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.join(' ')).toBe(text);
  });

  it('cuts a word longer than a part inside it, at exactly the maximum', () => {
    const word = 'x'.repeat(95);
    expect(cutSegments(`${word} end`, 40)).toEqual(['x'.repeat(40), 'x'.repeat(40), `${'x'.repeat(15)} end`]);
  });

  it('counts an emoji as one character, never splits one, and never parts a letter from its marks', () => {
    expect(cutSegments('😀'.repeat(12), 5)).toEqual(['😀😀😀😀😀', '😀😀😀😀😀', '😀😀']);
    // 200 emoji are 400 UTF-16 units but 200 characters: one part at 200.
    expect(cutSegments('🎉'.repeat(200), 200)).toEqual(['🎉'.repeat(200)]);
    // بِسْمِ: each letter carries a mark; a cut after 5 code points would leave a mark alone.
    const parts = cutSegments('بِسْمِ'.repeat(3), 5);
    expect(parts.join('')).toBe('بِسْمِ'.repeat(3));
    for (const part of parts) expect(part).not.toMatch(/^\p{M}/u);
    // A family emoji (joined by ZWJ) is not cut at its joiners when a cut before it is possible.
    const family = '👨‍👩‍👧';
    expect(cutSegments(`${'a'.repeat(8)}${family}`, 10)).toEqual(['a'.repeat(8), family]);
  });
});

describe('cutSegments: paragraphs and limits', () => {
  it('keeps a paragraph of exactly the maximum whole, and cuts one a character longer', () => {
    const exact = `${'word '.repeat(39)}four.`; // 200 characters
    expect(countCharacters(exact)).toBe(200);
    expect(cutSegments(exact, 200)).toEqual([exact]);
    expect(cutSegments(`${exact}s`, 200).length).toBe(2);
  });

  it('packs short paragraphs together, joined by the blank line they had, and cuts only between them', () => {
    const text = article(3, 'en', 20_000).join('\n\n');
    const parts = cutSegments(text, 2_000);
    expectWellCut(text, parts, 2_000);
    const paragraphSet = new Set(text.split('\n\n'));
    expect(parts.length).toBeLessThan(paragraphSet.size);
    for (const part of parts) for (const paragraph of part.split('\n\n')) expect(paragraphSet.has(paragraph)).toBe(true);
  });

  it('keeps a text that fits in one part as one part, however many paragraphs would start one', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const language of ['en', 'ar'] as const) {
        const text = article(seed, language, 1_500).join('\n\n');
        const fits = countCharacters(text);
        expect(cutSegments(text, fits)).toEqual([text]);
        // One character less and the paragraphs cut it, each part within the maximum.
        const parts = cutSegments(text, fits - 1);
        expect(parts.length).toBeGreaterThan(1);
        expectWellCut(text, parts, fits - 1);
      }
    }
  });

  it('gives no part for an empty or blank text, and skips blank paragraphs', () => {
    expect(cutSegments('', 200)).toEqual([]);
    expect(cutSegments(' \n\n \n', 200)).toEqual([]);
    const parts = cutSegments(paragraphs('Para one.', '', '   ', 'Para two is here.'), 12);
    expect(parts).toEqual(['Para one.', 'Para two is', 'here.']);
  });

  it('refuses a maximum that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => cutSegments('Text.', bad)).toThrow(RangeError);
  });

  it('is a lossless cut of any article, English or Arabic, at any maximum', () => {
    const random = seededRandom(11);
    for (const language of ['en', 'ar'] as const) {
      for (let seed = 1; seed <= 6; seed += 1) {
        const text = article(seed, language, 8_000).join('\n\n');
        const max = 20 + Math.floor(random() * 3_000);
        expectWellCut(text, cutSegments(text, max), max);
      }
    }
  });

  it('is deterministic', () => {
    const text = article(5, 'ar', 10_000).join('\n\n');
    expect(cutSegments(text, 1_500)).toEqual(cutSegments(text, 1_500));
  });
});
