import { formatSrt, containsSrtCues, narrationDuration, parseSrt, srtToVtt, type Cue } from '../../../server/src/subtitles/srt';
import { plainText, segmentsFromSubtitles } from '../../../server/src/subtitles/transcript';

const arabicSrt = [
  '1',
  '00:00:00,000 --> 00:00:02,500',
  'مرحبا بكم في النشرة.',
  '',
  '2',
  '00:00:02,500 --> 00:00:05,120',
  'اليوم نتحدث عن الطقس؟',
  'وعن الأخبار.',
  '',
].join('\n');

describe('parseSrt', () => {
  it('parses Arabic cues', () => {
    expect(parseSrt(arabicSrt)).toEqual<Cue[]>([
      { index: 1, startMs: 0, endMs: 2500, text: 'مرحبا بكم في النشرة.' },
      { index: 2, startMs: 2500, endMs: 5120, text: 'اليوم نتحدث عن الطقس؟\nوعن الأخبار.' },
    ]);
  });

  it('tolerates a BOM and CRLF line ends', () => {
    const crlf = `\uFEFF${arabicSrt.replace(/\n/g, '\r\n')}`;
    expect(parseSrt(crlf)).toEqual(parseSrt(arabicSrt));
  });

  it('reads hours above zero and either millisecond separator', () => {
    const srt = '1\n01:02:03.004 --> 12:00:00,999\nLate cue\n';
    expect(parseSrt(srt)).toEqual([{ index: 1, startMs: 3_723_004, endMs: 43_200_999, text: 'Late cue' }]);
  });

  it('reads short fractions as fractions of a second', () => {
    expect(parseSrt('00:00:01,5 --> 00:00:02,25\nx')[0]).toMatchObject({ startMs: 1500, endMs: 2250 });
  });

  it('tolerates missing index lines and extra blank lines', () => {
    const srt =
      '\n\n00:00:01,000 --> 00:00:02,000\nFirst\n\n\n\n7\n\n00:00:03,000 --> 00:00:04,000\nSecond\n\n\n00:00:05,000 --> 00:00:06,000\nThird\n\n\n';
    expect(parseSrt(srt)).toEqual([
      { index: 1, startMs: 1000, endMs: 2000, text: 'First' },
      { index: 7, startMs: 3000, endMs: 4000, text: 'Second' },
      { index: 3, startMs: 5000, endMs: 6000, text: 'Third' },
    ]);
  });

  it('takes an index line written without a blank line before it', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\nOne\n2\n00:00:02,000 --> 00:00:03,000\nTwo';
    expect(parseSrt(srt).map((cue) => [cue.index, cue.text])).toEqual([
      [1, 'One'],
      [2, 'Two'],
    ]);
  });

  it('skips invalid blocks', () => {
    const srt = [
      'garbage before the first cue',
      '',
      '1',
      '00:00:05,000 --> 00:00:04,000',
      'Ends before it starts',
      '',
      '2',
      '00:61:00,000 --> 00:62:00,000',
      'Minutes out of range',
      '',
      '3',
      'not a timing line',
      'orphan text',
      '',
      '4',
      '00:00:06,000 --> 00:00:07,000',
      '',
      '5',
      '00:00:08,000 --> 00:00:09,000',
      'Valid',
    ].join('\n');
    expect(parseSrt(srt)).toEqual([{ index: 5, startMs: 8000, endMs: 9000, text: 'Valid' }]);
  });

  it('returns no cues for empty or non-SRT input', () => {
    expect(parseSrt('')).toEqual([]);
    expect(parseSrt('just some words')).toEqual([]);
  });
});

describe('formatSrt', () => {
  it('round-trips through parseSrt', () => {
    const cues = parseSrt(arabicSrt);
    const written = formatSrt(cues);
    expect(written).toBe(arabicSrt);
    expect(parseSrt(written)).toEqual(cues);
  });

  it('numbers cues 1..n and writes hours, commas and padded fields', () => {
    const written = formatSrt([
      { index: 10, startMs: 3_723_004, endMs: 3_725_000, text: 'Hour one' },
      { index: 20, startMs: 360_000_000, endMs: 360_000_500, text: 'Hour hundred' },
    ]);
    expect(written).toBe('1\n01:02:03,004 --> 01:02:05,000\nHour one\n\n2\n100:00:00,000 --> 100:00:00,500\nHour hundred\n');
  });

  it('never writes an empty line inside a cue', () => {
    expect(formatSrt([{ index: 1, startMs: 0, endMs: 1000, text: 'a\n\nb' }])).toBe('1\n00:00:00,000 --> 00:00:01,000\na\nb\n');
  });
});

describe('srtToVtt', () => {
  it('writes a WebVTT file for an HTML <track>', () => {
    expect(srtToVtt(arabicSrt)).toBe(
      [
        'WEBVTT',
        '',
        '1',
        '00:00:00.000 --> 00:00:02.500',
        'مرحبا بكم في النشرة.',
        '',
        '2',
        '00:00:02.500 --> 00:00:05.120',
        'اليوم نتحدث عن الطقس؟',
        'وعن الأخبار.',
        '',
      ].join('\n')
    );
  });

  it('accepts CRLF, a BOM and hours above zero', () => {
    const vtt = srtToVtt('\uFEFF1\r\n02:00:00,001 --> 02:00:01,000\r\nHello\r\n');
    expect(vtt).toBe('WEBVTT\n\n1\n02:00:00.001 --> 02:00:01.000\nHello\n');
  });

  it('sanitises text that a VTT parser would misread', () => {
    const vtt = srtToVtt('1\n00:00:01,000 --> 00:00:02,000\nA --> B & <i>C</i> <font color="red">D</font> 1 < 2\n');
    expect(vtt).toContain('A --&gt; B &amp; <i>C</i> D 1 &lt; 2');
    // Only the timing line may contain the arrow.
    expect(vtt.split('\n').filter((line) => line.includes('-->'))).toEqual(['00:00:01.000 --> 00:00:02.000']);
  });

  it('gives just the header when there are no cues', () => {
    expect(srtToVtt('')).toBe('WEBVTT\n\n');
  });
});

describe('the plain transcript of an SRT', () => {
  it('joins cue texts into a plain transcript', () => {
    expect(plainText(segmentsFromSubtitles(arabicSrt))).toBe('مرحبا بكم في النشرة. اليوم نتحدث عن الطقس؟ وعن الأخبار.');
    expect(plainText([{ start: 0, end: 0.001, text: '<i>Styled</i>\n{\\an8}text' }])).toBe('Styled text');
    expect(plainText([])).toBe('');
  });
});

describe('containsSrtCues', () => {
  it('recognises SRT', () => {
    expect(containsSrtCues(arabicSrt)).toBe(true);
    expect(containsSrtCues(`\uFEFF${arabicSrt.replace(/\n/g, '\r\n')}`)).toBe(true);
  });

  it('rejects other content', () => {
    expect(containsSrtCues('')).toBe(false);
    expect(containsSrtCues('plain words')).toBe(false);
    expect(containsSrtCues('{"subtitles": []}')).toBe(false);
    expect(containsSrtCues(srtToVtt(arabicSrt))).toBe(false);
    expect(containsSrtCues(42)).toBe(false);
    expect(containsSrtCues(null)).toBe(false);
  });
});

describe('the plain transcript keeps text that only looks like markup', () => {
  it('drops styling tags but not comparisons', () => {
    const srt = '1\n00:00:00,000 --> 00:00:01,000\n<b>Rain</b> < 5 mm & wind > 3 <font color="red">today</font>\n';
    expect(plainText(segmentsFromSubtitles(srt))).toBe('Rain < 5 mm & wind > 3 today');
  });
});

describe('narrationDuration', () => {
  it('is the end of the latest cue, in seconds, and null without cues', () => {
    expect(narrationDuration('1\n00:00:00,000 --> 00:00:02,500\nOne.\n\n2\n00:00:02,500 --> 00:01:03,250\nTwo.\n')).toBe(63.25);
    expect(narrationDuration('')).toBeNull();
  });
});
