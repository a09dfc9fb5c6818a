import { formatVtt } from '../../../server/src/subtitles/srt';
import { cueText, parseTimestamp, parseVtt } from '../../../player/src/vtt';

describe('player: WebVTT cues', () => {
  it('reads the cues of a file as the plugin writes it, times in seconds', () => {
    const vtt = formatVtt([
      { index: 1, startMs: 0, endMs: 1250, text: 'The first sentence.' },
      { index: 2, startMs: 1250, endMs: 3_725_040, text: 'Fish & chips <b>now</b> cost < 5 > 4 --> none.' },
    ]);
    expect(parseVtt(vtt)).toEqual([
      { start: 0, end: 1.25, text: 'The first sentence.' },
      { start: 1.25, end: 3725.04, text: 'Fish & chips now cost < 5 > 4 --> none.' },
    ]);
  });

  it('skips the header, NOTE and STYLE blocks, cue identifiers and cue settings; joins lines', () => {
    const vtt = [
      '\ufeffWEBVTT - a title',
      'Kind: captions',
      '',
      'NOTE a comment',
      'on two lines',
      '',
      'STYLE',
      '::cue { color: red }',
      '',
      'intro',
      '00:01.000 --> 00:02.500 align:start position:10%',
      '<v Reader>Hello</v>',
      'world.',
      '',
      '00:00:02.500 --> 00:00:04.000',
      'مرحبا &lrm;بالعالم&#x21; &#8230;',
      '',
    ].join('\r\n');
    expect(parseVtt(vtt)).toEqual([
      { start: 1, end: 2.5, text: 'Hello world.' },
      { start: 2.5, end: 4, text: 'مرحبا \u200eبالعالم! …' },
    ]);
  });

  it('orders cues by start and leaves out cues without text or with an unreadable or reversed timing', () => {
    const vtt =
      'WEBVTT\n\n00:05.000 --> 00:06.000\nLater\n\n00:01.000 --> 00:02.000\nEarlier\n\n00:03.000 --> 00:04.000\n<i></i>\n\n' +
      'xx:01.000 --> 00:02.000\nBroken\n\n00:09.000 --> 00:08.000\nBackwards\n';
    expect(parseVtt(vtt).map((cue) => cue.text)).toEqual(['Earlier', 'Later']);
    expect(parseVtt('')).toEqual([]);
    expect(parseVtt('not a subtitle file')).toEqual([]);
  });

  it('timestamps with and without hours, and an SRT comma', () => {
    expect(parseTimestamp('00:00.500')).toBe(0.5);
    expect(parseTimestamp('01:02:03.004')).toBeCloseTo(3723.004, 6);
    expect(parseTimestamp('100:00:00,000')).toBe(360_000);
  });

  it('cue text: tags removed, known entities decoded, unknown ones kept', () => {
    expect(cueText('<c.loud>A</c> &amp;&lt;&gt;&nbsp;&quot;&unknown; &#0; <00:00:01.000>b')).toBe('A &<>\u00a0"&unknown; &#0; b');
  });
});
