import { formatSrt, parseSrt, type Cue } from '../../../server/src/subtitles/srt';
import { joinCues, joinSrt, partCues } from '../../../server/src/subtitles/join';

/** A part's subtitles joined with the others', shifted by the exact durations of the parts before it, and taken back out. */

const FRAME_SECONDS = 1152 / 44100;
const cue = (startMs: number, endMs: number, text: string): Cue => ({ index: 0, startMs, endMs, text });

describe('joining the cues of the parts', () => {
  it('shifts each part by the exact time the parts before it play, rounded once, not part by part', () => {
    // Parts of 77 frames: 2,011.43 ms each. Rounding each part's duration would drift 0.43 ms a part.
    const parts = Array.from({ length: 5 }, (_, i) => ({ cues: [cue(0, 1000, `part ${i + 1}`)], durationSeconds: 77 * FRAME_SECONDS }));
    const joined = joinCues(parts);
    expect(joined.parts.map((part) => part.offsetMs)).toEqual([0, 2011, 4023, 6034, 8046]);
    expect(joined.cues.map((each) => each.startMs)).toEqual([0, 2011, 4023, 6034, 8046]);
    expect(joined.parts[4]!.endMs).toBe(Math.round(5 * 77 * FRAME_SECONDS * 1000));
  });

  it('keeps every cue inside its part: an end past the audio brought back, a cue starting after it dropped', () => {
    const joined = joinCues([
      { cues: [cue(0, 900, 'one'), cue(900, 2100, 'runs past the end'), cue(2000, 2500, 'after the end')], durationSeconds: 2 },
      { cues: [cue(0, 500, 'two')], durationSeconds: 1 },
    ]);
    expect(joined.cues).toEqual([
      { index: 1, startMs: 0, endMs: 900, text: 'one' },
      { index: 2, startMs: 900, endMs: 2000, text: 'runs past the end' },
      { index: 3, startMs: 2000, endMs: 2500, text: 'two' },
    ]);
    expect(joined.parts).toEqual([
      { first: 0, count: 2, offsetMs: 0, endMs: 2000, dropped: 1 },
      { first: 2, count: 1, offsetMs: 2000, endMs: 3000, dropped: 0 },
    ]);
  });

  it('puts the cues in order and numbers them 1..n; a part without cues takes its time all the same', () => {
    const joined = joinCues([
      { cues: [cue(500, 900, 'second'), cue(0, 400, 'first'), cue(500, 700, 'second too')], durationSeconds: 1 },
      { cues: [], durationSeconds: 1.5 },
      { cues: [cue(100, 300, 'third'), cue(50, 60, ' ')], durationSeconds: 1 },
    ]);
    expect(joined.cues.map((each) => [each.index, each.startMs, each.text])).toEqual([
      [1, 0, 'first'],
      [2, 500, 'second'],
      [3, 500, 'second too'],
      [4, 2600, 'third'],
    ]);
    expect(joined.parts.map(({ first, count, dropped }) => ({ first, count, dropped }))).toEqual([
      { first: 0, count: 3, dropped: 0 },
      { first: 3, count: 0, dropped: 0 },
      { first: 3, count: 1, dropped: 1 },
    ]);
  });
});

describe('taking a part back out', () => {
  const parts = [
    { cues: [cue(0, 1200, 'Hello.'), cue(1300, 2900, 'A first part.')], durationSeconds: 115 * FRAME_SECONDS },
    { cues: [cue(0, 800, 'Then'), cue(800, 1900, 'a second.')], durationSeconds: 77 * FRAME_SECONDS },
    { cues: [cue(200, 1500, '<i>And</i> a third.')], durationSeconds: 60 * FRAME_SECONDS },
  ];

  it('gives the part its own cues again, from its own start: joined again with another part, they land where they were', () => {
    const joined = joinCues(parts);
    const taken = parts.map((_, i) => partCues(joined.cues, joined.parts[i]!));
    expect(taken).toEqual(parts.map((part) => part.cues.map((each, position) => ({ ...each, index: position + 1 }))));
    // The middle part narrated anew, the others taken back out: the first and last parts' cues are unchanged.
    const again = joinCues([
      { cues: taken[0]!, durationSeconds: parts[0]!.durationSeconds },
      { cues: [cue(0, 1000, 'A new middle.')], durationSeconds: parts[1]!.durationSeconds },
      { cues: taken[2]!, durationSeconds: parts[2]!.durationSeconds },
    ]);
    const timing = ({ startMs, endMs, text }: Cue) => ({ startMs, endMs, text });
    expect(again.cues.slice(0, 2).map(timing)).toEqual(joined.cues.slice(0, 2).map(timing));
    expect(timing(again.cues[again.cues.length - 1]!)).toEqual(timing(joined.cues[joined.cues.length - 1]!));
  });

  it('takes them out of the joined SRT file read back, too', () => {
    const joined = joinCues(parts);
    const stored = parseSrt(formatSrt(joined.cues));
    expect(partCues(stored, joined.parts[1]!)).toEqual(parts[1]!.cues.map((each, position) => ({ ...each, index: position + 1 })));
  });

  it('refuses a range that is not in the list', () => {
    expect(() => partCues([cue(0, 10, 'a')], { first: 1, count: 1, offsetMs: 0 })).toThrow('cues 1 to 2 are not all in a list of 1');
  });
});

describe('joining SRT files', () => {
  it('answers one SRT and its WebVTT twin', () => {
    const joined = joinSrt([
      { srt: '1\n00:00:00,000 --> 00:00:01,500\nOne & two\n', durationSeconds: 2 },
      { srt: '1\r\n00:00:00,250 --> 00:00:00,750\r\n<b>Three</b>\r\n', durationSeconds: 1 },
    ]);
    expect(joined.srt).toBe('1\n00:00:00,000 --> 00:00:01,500\nOne & two\n\n2\n00:00:02,250 --> 00:00:02,750\n<b>Three</b>\n');
    expect(joined.vtt).toBe(
      'WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.500\nOne &amp; two\n\n2\n00:00:02.250 --> 00:00:02.750\n<b>Three</b>\n'
    );
    expect(joined.parts.map((part) => part.offsetMs)).toEqual([0, 2000]);
  });
});
