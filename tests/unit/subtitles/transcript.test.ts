import { parseSrt } from '../../../server/src/subtitles/srt';
import { attachmentDisposition, fileStem } from '../../../server/src/speech-to-text/result-file';
import {
  isReadableSubtitles,
  renderTranscript,
  segmentsFromSubtitles,
  segmentsToSrt,
  transcriptView,
} from '../../../server/src/subtitles/transcript';

const segments = [
  { start: 0, end: 2.5, text: 'مرحبا بكم في النشرة.' },
  { start: 2.8, end: 5.123, text: 'Rain < 5 mm & wind --> fine.' },
];

describe('json segments -> SRT, WebVTT, JSON', () => {
  it('writes numbered SRT cues with comma milliseconds', () => {
    expect(renderTranscript(segments, 'srt')).toBe(
      '1\n00:00:00,000 --> 00:00:02,500\nمرحبا بكم في النشرة.\n\n' + '2\n00:00:02,800 --> 00:00:05,123\nRain < 5 mm & wind --> fine.\n'
    );
  });

  it('writes WebVTT with dot milliseconds and escaped cue text', () => {
    const vtt = renderTranscript(segments, 'vtt');
    expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
    expect(vtt).toContain('00:00:02.800 --> 00:00:05.123');
    expect(vtt).toContain('Rain &lt; 5 mm &amp; wind --&gt; fine.');
    expect(vtt).toContain('مرحبا بكم في النشرة.');
  });

  it('writes the segments as JSON', () => {
    expect(JSON.parse(renderTranscript(segments, 'json'))).toEqual(segments);
  });

  it('reads numeric strings and start_time/end_time, skips unreadable entries', () => {
    expect(
      segmentsFromSubtitles([
        { start: '1.5', end: '2', text: ' one ' },
        { start_time: 3, end_time: 4, text: 'two' },
        { start: 5, end: 4, text: 'backwards' },
        { start: 1, end: 2, text: '' },
        { start: 'x', end: 2, text: 'bad' },
        'not an object',
      ])
    ).toEqual([
      { start: 1.5, end: 2, text: 'one' },
      { start: 3, end: 4, text: 'two' },
    ]);
  });

  it('keeps a zero-length segment (the emulator labels untranscribed audio that way)', () => {
    expect(segmentsFromSubtitles([{ start: 0, end: 0, text: '[untranscribed audio]' }])).toHaveLength(1);
  });

  it('reads {segments: [...]} and JSON strings', () => {
    expect(segmentsFromSubtitles({ segments })).toEqual(segments);
    expect(segmentsFromSubtitles(JSON.stringify(segments))).toEqual(segments);
  });
});

describe('SRT results', () => {
  const srt = segmentsToSrt(segments);

  it('keeps the service SRT byte for byte on download', () => {
    const raw = '1\r\n00:00:01,000 --> 00:00:02,000\r\nHello\r\n';
    expect(renderTranscript(raw, 'srt')).toBe(raw);
    expect(renderTranscript('1\n00:00:01,000 --> 00:00:02,000\nHello', 'srt')).toBe('1\n00:00:01,000 --> 00:00:02,000\nHello\n');
  });

  it('reads SRT into segments in seconds', () => {
    expect(segmentsFromSubtitles(srt)).toEqual(segments);
    expect(JSON.parse(renderTranscript(srt, 'json'))).toEqual(segments);
  });

  it('converts SRT to WebVTT', () => {
    expect(renderTranscript(srt, 'vtt')).toBe(renderTranscript(segments, 'vtt'));
  });
});

describe('transcriptView', () => {
  it('describes a json result', () => {
    expect(transcriptView(segments)).toEqual({
      format: 'json',
      segments,
      text: 'مرحبا بكم في النشرة. Rain < 5 mm & wind --> fine.',
      srt: null,
    });
  });

  it('describes an SRT result and keeps the raw SRT', () => {
    const srt = '1\n00:00:00,000 --> 00:00:01,200\n<i>Hello</i> there.\n';
    const view = transcriptView(srt);
    expect(view.format).toBe('srt');
    expect(view.srt).toBe(srt);
    expect(view.segments).toEqual([{ start: 0, end: 1.2, text: '<i>Hello</i> there.' }]);
    expect(view.text).toBe('Hello there.');
  });

  it('round-trips segments through SRT', () => {
    expect(parseSrt(segmentsToSrt(segments)).map((cue) => cue.text)).toEqual(segments.map((segment) => segment.text));
  });
});

describe('isReadableSubtitles', () => {
  it('accepts arrays (even empty: silence), segment objects and SRT', () => {
    expect(isReadableSubtitles([])).toBe(true);
    expect(isReadableSubtitles({ segments: [] })).toBe(true);
    expect(isReadableSubtitles(segmentsToSrt(segments))).toBe(true);
    expect(isReadableSubtitles('')).toBe(true);
  });

  it('refuses nothing, numbers and prose', () => {
    expect(isReadableSubtitles(undefined)).toBe(false);
    expect(isReadableSubtitles(null)).toBe(false);
    expect(isReadableSubtitles(42)).toBe(false);
    expect(isReadableSubtitles('just words')).toBe(false);
  });
});

describe('file names', () => {
  it('takes the stem of an upload name', () => {
    expect(fileStem('interview.final.mp3')).toBe('interview.final');
    expect(fileStem('C:\\rec\\مقابلة.wav')).toBe('مقابلة');
    expect(fileStem('.mp3')).toBe('transcription');
    expect(fileStem('a"b\nc.m4a')).toBe('ab c');
    expect(fileStem('../../../etc/<img src=x onerror=alert(1)>.mp3')).toBe('img src=x onerror=alert(1)');
  });

  it('writes a Content-Disposition that keeps non-ASCII names', () => {
    expect(attachmentDisposition('مقابلة.srt')).toBe(
      `attachment; filename="______.srt"; filename*=UTF-8''${encodeURIComponent('مقابلة.srt')}`
    );
    expect(attachmentDisposition('talk.vtt')).toBe(`attachment; filename="talk.vtt"; filename*=UTF-8''talk.vtt`);
  });
});
