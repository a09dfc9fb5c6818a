import { isCrossOrigin, mediaUrl, srtToVtt } from '../../../admin/src/utils/media';

describe('admin media helpers', () => {
  it('prefixes Media Library paths with the backend URL and leaves absolute URLs alone', () => {
    expect(mediaUrl('/uploads/a.mp3', 'http://cms.test/')).toBe('http://cms.test/uploads/a.mp3');
    expect(mediaUrl('/uploads/a.mp3', '')).toBe('/uploads/a.mp3');
    expect(mediaUrl('https://cdn.test/a.mp3', 'http://cms.test')).toBe('https://cdn.test/a.mp3');
    expect(mediaUrl('//cdn.test/a.mp3', 'http://cms.test')).toBe('//cdn.test/a.mp3');
  });

  it('detects another origin', () => {
    expect(isCrossOrigin('https://cdn.test/a.vtt', 'http://cms.test')).toBe(true);
    expect(isCrossOrigin('/uploads/a.vtt', 'http://cms.test')).toBe(false);
  });

  it('converts SRT to WebVTT', () => {
    const srt = '\uFEFF1\r\n00:00:00,000 --> 00:00:01,500\r\nمرحبا\r\n\r\n2\r\n00:00:01,800 --> 00:00:03,250\r\nSecond line\r\nwraps\r\n';
    expect(srtToVtt(srt)).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nمرحبا\n\n00:00:01.800 --> 00:00:03.250\nSecond line\nwraps\n');
  });
});
