import { activeCueIndex, lastStartedIndex } from '../../../player/src/cues';
import { formatTime } from '../../../player/src/time';

const cues = [
  { start: 0.5, end: 2 },
  { start: 2, end: 3.5 },
  { start: 4, end: 6 },
  { start: 6, end: 6.5 },
];

describe('player: the cue at a time', () => {
  it('is the one being read; none before the first, in a silence, after the last', () => {
    const at = (time: number) => activeCueIndex(cues, time);
    expect([0, 0.49, 0.5, 1.99, 2, 3.49, 3.5, 3.99, 4, 5.99, 6, 6.49, 6.5, 100].map(at)).toEqual([
      -1, -1, 0, 0, 1, 1, -1, -1, 2, 2, 3, 3, -1, -1,
    ]);
    expect(activeCueIndex([], 1)).toBe(-1);
  });

  it('for chapters, the last one started, whatever its end', () => {
    expect([0, 0.5, 3.7, 100].map((time) => lastStartedIndex(cues, time))).toEqual([-1, 0, 1, 3]);
  });

  it('agrees with a linear scan on a long track', () => {
    const many = Array.from({ length: 501 }, (_, i) => ({ start: i * 2, end: i * 2 + 1.5 }));
    for (let time = -1; time < 1010; time += 0.37) {
      const expected = many.findIndex((cue) => cue.start <= time && time < cue.end);
      expect(activeCueIndex(many, time)).toBe(expected);
    }
  });
});

describe('player: time as shown', () => {
  it('m:ss under an hour, h:mm:ss from an hour on, whole seconds', () => {
    expect([0, 5.9, 59.99, 60, 605, 3599, 3600, 3725, 36_000].map(formatTime)).toEqual([
      '0:00',
      '0:05',
      '0:59',
      '1:00',
      '10:05',
      '59:59',
      '1:00:00',
      '1:02:05',
      '10:00:00',
    ]);
  });

  it('what is not a time reads 0:00', () => {
    expect([NaN, Infinity, -3].map(formatTime)).toEqual(['0:00', '0:00', '0:00']);
  });
});
