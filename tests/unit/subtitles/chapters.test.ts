import { chaptersFromCues, chaptersToVtt, skeleton } from '../../../server/src/subtitles/chapters';
import { parseSrt } from '../../../server/src/subtitles/srt';
import { describeArticle } from '../../../server/src/narration/domain/article';
import { extractNarration } from '../../../server/src/text';

const cue = (startMs: number, endMs: number, text: string, index = 1) => ({ index, startMs, endMs, text });

/** An article's text from its paragraphs, and its headings: the paragraphs at `headingAt`, titled without their full stop. */
function article(paragraphs: string[], headingAt: number[]) {
  const text = paragraphs.join('\n\n');
  const headings = headingAt.map((index) => ({ offset: text.indexOf(paragraphs[index]), title: paragraphs[index].replace(/\.$/u, '') }));
  return { text, headings };
}

/** The SRT cues that read `texts`, one a span of `timings` ([startMs, endMs]). */
const timed = (timings: Array<[number, number]>, texts: string[]) => texts.map((text, at) => cue(timings[at][0], timings[at][1], text));

describe('headings of the narrated text', () => {
  const heading = (level: number, text: string) => ({ type: 'heading', level, children: [{ type: 'text', text }] });
  const paragraph = (text: string) => ({ type: 'paragraph', children: [{ type: 'text', text }] });

  it('extraction lists the paragraphs that are headings, across fields, never the title', () => {
    const entry = {
      title: 'Intro',
      body: [heading(2, 'Intro'), paragraph('First.'), heading(3, 'Second part'), paragraph('More.')],
      notes: '## Notes\n\nLast words.',
    };
    const extracted = extractNarration(
      entry,
      { titleField: 'title', textFields: ['body', 'notes'] },
      { title: { type: 'string' }, body: { type: 'blocks' }, notes: { type: 'richtext' } }
    );
    expect(extracted.text.split('\n\n')).toEqual(['Intro.', 'Intro.', 'First.', 'Second part.', 'More.', 'Notes.', 'Last words.']);
    expect(extracted.headingParagraphs).toEqual([1, 3, 5]);
  });

  it('a skipped block kind or a heading that reads as nothing leaves no heading', () => {
    const entry = { body: '## \n\n> ## Quoted heading\n\nText.' };
    expect(extractNarration(entry, { textFields: ['body'], skipBlocks: ['quote'] }, { body: { type: 'richtext' } })).toEqual({
      text: 'Text.',
      headingParagraphs: [],
      quoteParagraphs: [],
    });
  });

  it("describeArticle gives each heading's offset in the submitted text (after intro and lexicon) and its written title", () => {
    const version = describeArticle({
      contentType: 'api::article.article',
      entry: {
        documentId: 'd',
        locale: 'en',
        title: 'SQL today',
        body: [paragraph('Intro SQL.'), heading(2, 'Why SQL?'), paragraph('Because.'), heading(2, 'Next steps')],
      },
      narration: { titleField: 'title', textFields: ['body'] },
      attributes: { title: { type: 'string' }, body: { type: 'blocks' } },
      localized: true,
      voiceId: 'v',
      preprocessType: '0',
      lexicon: [
        {
          term: 'SQL',
          spoken: 'sequel',
          locale: null,
          wholeWord: true,
          caseSensitive: false,
          ignoreDiacritics: false,
          letterVariants: false,
        },
      ],
      introTemplates: { '*': 'Listen to {title}.' },
    });
    expect(version.text).toBe('Listen to sequel today.\n\nsequel today.\n\nIntro sequel.\n\nWhy sequel?\n\nBecause.\n\nNext steps.');
    expect(version.headings).toEqual([
      { offset: version.text.indexOf('Why sequel?'), title: 'Why SQL?' },
      { offset: version.text.indexOf('Next steps.'), title: 'Next steps' },
    ]);
  });
});

describe('chapters from the SRT', () => {
  const { text, headings } = article(['Title.', 'First heading.', 'Some words. More words.', 'Second heading.', 'The end.'], [1, 3]);
  const cues = timed(
    [
      [0, 800],
      [1100, 2000],
      [2300, 3000],
      [3300, 4000],
      [4300, 5200],
      [5500, 6100],
    ],
    ['Title.', 'First heading.', 'Some words.', 'More words.', 'Second heading.', 'The end.']
  );

  it('a chapter starts at the cue where its heading is read and lasts until the next, the last until the end of the audio', () => {
    expect(chaptersFromCues(text, headings, cues)).toEqual([
      { startMs: 1100, endMs: 4300, title: 'First heading' },
      { startMs: 4300, endMs: 6100, title: 'Second heading' },
    ]);
    expect(chaptersFromCues(text, headings, cues, 'Title')[0]).toEqual({ startMs: 0, endMs: 1100, title: 'Title' });
  });

  it('matches cues written differently (case, punctuation, spacing, diacritics) and cues that join or split sentences', () => {
    const loose = [
      cue(0, 900, 'title first'),
      cue(1000, 2000, 'HEADING — some words,'),
      cue(2100, 3000, 'more words'),
      cue(3100, 4000, 'Second'),
      cue(4000, 5000, 'heading. The end.'),
    ];
    expect(chaptersFromCues(text, headings, loose)).toEqual([
      { startMs: 0, endMs: 3100, title: 'First heading' },
      { startMs: 3100, endMs: 5000, title: 'Second heading' },
    ]);
  });

  it('Arabic: harakat and tatweel in the cues do not matter', () => {
    const arabic = article(['عنوان.', 'الفصل الأول.', 'نص قصير.', 'الفصل الثاني.', 'النهاية.'], [1, 3]);
    const arCues = timed(
      [
        [0, 500],
        [700, 1500],
        [1700, 2500],
        [2700, 3500],
        [3700, 4200],
      ],
      ['عنوان.', 'الفَصْلُ الأوَّل.', 'نص قصـــير.', 'الفصل الثاني.', 'النهاية.']
    );
    expect(chaptersFromCues(arabic.text, arabic.headings, arCues)).toEqual([
      { startMs: 700, endMs: 2700, title: 'الفصل الأول' },
      { startMs: 2700, endMs: 4200, title: 'الفصل الثاني' },
    ]);
    expect(skeleton('الفَصْلُ').letters).toBe('الفصل');
  });

  it('a heading never read (audio cut short) has no chapter; no heading or no cue: no chapters', () => {
    expect(chaptersFromCues(text, headings, cues.slice(0, 3))).toEqual([{ startMs: 1100, endMs: 3000, title: 'First heading' }]);
    expect(chaptersFromCues(text, [], cues)).toEqual([]);
    expect(chaptersFromCues(text, headings, [])).toEqual([]);
    expect(chaptersFromCues(text, headings, [cue(0, 100, 'nothing like the text')])).toEqual([]);
  });

  it('two headings read by one cue make one chapter, named by the first', () => {
    const joined = [
      cue(0, 800, 'Title.'),
      cue(1000, 4000, 'First heading. Some words. More words. Second heading.'),
      cue(4200, 5000, 'The end.'),
    ];
    expect(chaptersFromCues(text, headings, joined)).toEqual([{ startMs: 1000, endMs: 5000, title: 'First heading' }]);
  });

  it('writes a WebVTT chapters track that a parser reads back', () => {
    const vtt = chaptersToVtt([
      { startMs: 0, endMs: 61_250, title: 'Intro --> <b>bold</b> & more' },
      { startMs: 61_250, endMs: 3_723_004, title: 'Two\nlines' },
    ]);
    expect(vtt).toBe(
      'WEBVTT\n\n1\n00:00:00.000 --> 00:01:01.250\nIntro --&gt; <b>bold</b> &amp; more\n\n2\n00:01:01.250 --> 01:02:03.004\nTwo lines\n'
    );
    expect(parseSrt(vtt.replace(/^WEBVTT\n\n/, '')).map((parsed) => [parsed.startMs, parsed.endMs])).toEqual([
      [0, 61_250],
      [61_250, 3_723_004],
    ]);
  });
});
