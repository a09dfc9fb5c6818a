import { createHash } from 'node:crypto';

import {
  narrationModeOf,
  planSegments,
  segmentCharactersOf,
  segmentKey,
  type PlannedSegment,
} from '../../../server/src/narration/domain/segments';
import { articleKey } from '../../../server/src/narration/domain/article';
import { planParts } from '../../../server/src/queue/domain/part-plan';
import type { StoredPart } from '../../../server/src/queue/domain/states/segment-map';
import { countCharacters } from '../../../server/src/narration/domain/cost';
import { DEFAULT_SEGMENT_CHARACTERS } from '../../../shared/contracts/settings';
import { article, editOneParagraph, paragraph, seededRandom, type Language } from './segment-fixtures';

/** What the worker would ask for of `after` with `before`'s parts stored. */
function changedAgainst(after: readonly PlannedSegment[], before: readonly PlannedSegment[]) {
  const stored: StoredPart[] = before.map(({ key, characters }) => ({
    key,
    characters,
    audioOffset: 0,
    audioLength: 0,
    durationSeconds: 0,
    offsetMs: 0,
    cueFirst: 0,
    cueCount: 0,
  }));
  const plan = planParts(after, stored, []);
  return { changed: plan.create.length, characters: plan.characters, credits: plan.credits };
}

const part = { text: 'The council met on Tuesday.', voiceId: 'en-female-1', preprocessType: '0' as const };

describe('segmentKey', () => {
  it('is the article key, "~p" and 16 hex digits: short, ASCII, stable', () => {
    const key = segmentKey('abc123def456ghi789jkl012-ar', part);
    expect(key).toMatch(/^abc123def456ghi789jkl012-ar~p[0-9a-f]{16}$/);
    expect(segmentKey('abc123def456ghi789jkl012-ar', { ...part })).toBe(key);
  });

  it('matches its documented encoding: SHA-256 over a JSON array with a scheme tag, 16 hex digits kept', () => {
    // Pinned: a key that changed would pay for every part of every segmented article again.
    const expected = createHash('sha256')
      .update(JSON.stringify(['narration-segment/v1', part.text, part.voiceId, part.preprocessType]))
      .digest('hex')
      .slice(0, 16);
    expect(segmentKey('doc', part)).toBe(`doc~p${expected}`);
    expect(segmentKey('doc', part)).toBe('doc~p55d3eba2406fead5');
  });

  it('changes with the text (even by a space), the voice and the preprocessType', () => {
    const key = segmentKey('doc', part);
    expect(segmentKey('doc', { ...part, text: `${part.text} ` })).not.toBe(key);
    expect(segmentKey('doc', { ...part, voiceId: 'en-male-1' })).not.toBe(key);
    expect(segmentKey('doc', { ...part, preprocessType: '2' })).not.toBe(key);
    expect(segmentKey('other', part)).not.toBe(key);
  });

  it('is unambiguous about where the text ends and the voice begins', () => {
    expect(segmentKey('doc', { text: 'a|b', voiceId: 'c', preprocessType: '0' })).not.toBe(
      segmentKey('doc', { text: 'a', voiceId: 'b|c', preprocessType: '0' })
    );
  });

  it('refuses a preprocessType the service would refuse and an empty article key', () => {
    expect(() => segmentKey('doc', { ...part, preprocessType: 2 as never })).toThrow(TypeError);
    expect(() => segmentKey('', part)).toThrow(TypeError);
  });

  it('starts with the article it belongs to and differs from the article key', () => {
    const articleId = articleKey('abc123def456ghi789jkl012', 'ar-JO', true);
    expect(segmentKey(articleId, part).startsWith(articleId)).toBe(true);
    expect(segmentKey(articleId, part)).not.toBe(articleId);
  });
});

describe('planSegments', () => {
  const text = article(7, 'en', 6_000).join('\n\n');
  const input = { articleId: 'doc-en', text, voiceId: 'en-female-1', preprocessType: '2' as const, maxCharacters: 1_000 };

  it('lists the parts in reading order with their key, text, characters and credits', () => {
    const plan = planSegments(input);
    expect(plan.length).toBeGreaterThan(3);
    plan.forEach((planned, index) => {
      expect(planned.index).toBe(index);
      expect(planned.key).toBe(segmentKey('doc-en', { text: planned.text, voiceId: 'en-female-1', preprocessType: '2' }));
      expect(planned.characters).toBe(countCharacters(planned.text));
      expect(planned.credits).toBe(2 * planned.characters);
      expect(planned.characters).toBeLessThanOrEqual(1_000);
    });
  });

  it('keys a part by its content, not its position: a paragraph added on top moves the others without new keys', () => {
    const before = planSegments(input);
    const after = planSegments({ ...input, text: `A new first paragraph, added by the editor.\n\n${text}` });
    expect(changedAgainst(after, before).changed).toBeLessThanOrEqual(2);
    expect(new Set(after.map((planned) => planned.key)).size).toBe(after.length);
  });

  it('gives two identical parts of one article one key', () => {
    const repeated = 'The same long paragraph is read twice in this article, word for word, as a refrain.';
    const plan = planSegments({ ...input, text: [repeated, repeated].join('\n\n'), maxCharacters: 100 });
    expect(plan.map((planned) => planned.text)).toEqual([repeated, repeated]);
    expect(plan[0].key).toBe(plan[1].key);
    const characters = countCharacters(repeated);
    expect(changedAgainst(plan, [])).toEqual({ changed: 1, characters, credits: 2 * characters });
  });
});

describe('a type’s mode and part size', () => {
  it('is whole unless it says segmented, and takes the global part size unless it has its own', () => {
    expect(narrationModeOf({})).toBe('whole');
    expect(narrationModeOf({ narrationMode: 'segmented' })).toBe('segmented');
    expect(segmentCharactersOf({}, 2_000)).toBe(2_000);
    expect(segmentCharactersOf({ segmentCharacters: 500 }, 2_000)).toBe(500);
  });
});

/**
 * What ten edits cost (issue 23): a 20,000-character article, English and Arabic, edited ten times in
 * a row (one word changed, or one sentence added, in one paragraph each time), narrated after each
 * edit. Whole mode pays the article each time; segmented mode pays the parts whose key the previous
 * version did not have (the stored audio: the service's own copies of older parts are not counted,
 * so this is the most it pays).
 */
describe('ten one-paragraph edits of a 20,000-character article', () => {
  function tenEdits(seed: number, language: Language) {
    let paragraphs = article(seed, language, 20_000);
    const random = seededRandom(seed * 7_919);
    const plan = (text: string) =>
      planSegments({ articleId: 'doc', text, voiceId: 'voice', preprocessType: '0', maxCharacters: DEFAULT_SEGMENT_CHARACTERS });
    let before = plan(paragraphs.join('\n\n'));
    let whole = 0;
    let segmented = 0;
    for (let edit = 0; edit < 10; edit += 1) {
      paragraphs = editOneParagraph(paragraphs, random, language);
      const text = paragraphs.join('\n\n');
      const after = plan(text);
      whole += countCharacters(text);
      segmented += changedAgainst(after, before).characters;
      before = after;
    }
    return { whole, segmented, parts: before.length };
  }

  // Measured: English 13,068 of 209,075 characters (6.3%, 22 parts); Arabic 9,754 of 207,669 (4.7%, 27 parts).
  it.each([
    ['English', 1, 'en'],
    ['Arabic', 2, 'ar'],
  ] as const)('%s: the parts paid for are at most 15% of what whole mode pays', (_name, seed, language) => {
    const { whole, segmented, parts } = tenEdits(seed, language);
    expect(whole).toBeGreaterThan(200_000);
    expect(parts).toBeGreaterThan(10);
    expect(segmented / whole).toBeLessThanOrEqual(0.15);
  });

  // Measured: 522,122 of 8,239,173 characters (6.3%). Packing paragraphs greedily (no paragraph
  // starting a part by its hash) pays 10.9% on the same edits, and far more for a paragraph added on top.
  it('over forty articles, English and Arabic: about 6%', () => {
    let whole = 0;
    let segmented = 0;
    for (let seed = 1; seed <= 20; seed += 1) {
      for (const language of ['en', 'ar'] as const) {
        const figures = tenEdits(seed, language);
        whole += figures.whole;
        segmented += figures.segmented;
      }
    }
    expect(segmented / whole).toBeLessThanOrEqual(0.08);
  });

  it('a paragraph added or removed (on top, or in the middle) changes at most three parts', () => {
    for (let seed = 1; seed <= 10; seed += 1) {
      const language: Language = seed % 2 ? 'en' : 'ar';
      const paragraphs = article(seed, language, 20_000);
      const plan = (list: string[]) =>
        planSegments({ articleId: 'doc', text: list.join('\n\n'), voiceId: 'v', preprocessType: '0', maxCharacters: 2_000 });
      const before = plan(paragraphs);
      const added = paragraph(seededRandom(seed), language);
      for (const edited of [[added, ...paragraphs], paragraphs.slice(1), [...paragraphs.slice(0, 10), added, ...paragraphs.slice(10)]]) {
        expect(changedAgainst(plan(edited), before).changed).toBeLessThanOrEqual(3);
      }
    }
  });
});
