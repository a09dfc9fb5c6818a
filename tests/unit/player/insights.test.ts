/**
 * The player's listening insights (player/src/insights.ts), without a DOM: which events one
 * listening sends from the audio's positions, and the constants it shares with the contract.
 */
import { LISTENING_EVENTS_PATH, LISTENING_MILESTONES } from '../../../shared/contracts/insights';
import { EVENTS_PATH, Listening, PROGRESS, type Sent } from '../../../player/src/insights';

/** Plays from `from` to `to` in steps of `step` seconds (timeupdate), collecting what is sent. */
function playThrough(listening: Listening, from: number, to: number, duration: number, step = 0.25, rate = 1) {
  const sent: Sent[] = [];
  for (let position = from + step; position < to + 1e-9; position += step)
    sent.push(...listening.step(Math.min(position, to), duration, rate));
  return sent;
}

const heardOf = (sent: Sent[]) => sent.reduce((sum, event) => sum + event.heard, 0);
const percents = (sent: Sent[]) => sent.filter((event) => event.event === 'progress').map((event) => event.percent);

describe('player: listening insights', () => {
  it('has the contract’s path under /api and its milestones without 100', () => {
    expect(EVENTS_PATH).toBe(`/api${LISTENING_EVENTS_PATH}`);
    expect(PROGRESS).toEqual(LISTENING_MILESTONES.filter((milestone) => milestone < 100));
  });

  it('played to the end: one play, progress 10 to 90 once each, one end; heard sums to the duration', () => {
    const listening = new Listening();
    const sent = [...listening.play(0), ...playThrough(listening, 0, 23.4, 23.4, 0.26), ...listening.pause(), ...listening.end()];
    expect(sent[0]).toEqual({ event: 'play', heard: 0 });
    expect(percents(sent)).toEqual(PROGRESS);
    expect(sent.filter((event) => event.event === 'end')).toHaveLength(1);
    // At the end the audio pauses before it ends: element.ts does not report that pause.
    expect(sent.map((event) => event.event)).toEqual(['play', ...PROGRESS.map(() => 'progress'), 'pause', 'end']);
    expect(heardOf(sent)).toBeCloseTo(23.4, 5);
    for (const event of sent) expect(Math.round(event.heard * 10) / 10).toBe(event.heard);
  });

  it('sends progress with the seconds heard since the previous event, in tenths', () => {
    const listening = new Listening();
    listening.play(0);
    // Positions 0.4, 0.8, ... 3.6 of 10 s: 10 % is passed at 1.2, 20 % at 2, 30 % at 3.2.
    expect(playThrough(listening, 0, 3.6, 10, 0.4)).toEqual([
      { event: 'progress', percent: 10, heard: 1.2 },
      { event: 'progress', percent: 20, heard: 0.8 },
      { event: 'progress', percent: 30, heard: 1.2 },
    ]);
    expect(listening.pause()).toEqual([{ event: 'pause', heard: 0.4 }]);
  });

  it('resuming after a pause is the same listening; playing after the end is a new one', () => {
    const listening = new Listening();
    expect(listening.play(0)).toHaveLength(1);
    playThrough(listening, 0, 3.5, 10);
    expect(listening.pause()).toEqual([{ event: 'pause', heard: 0.5 }]);
    expect(listening.play(3.5)).toEqual([]);
    const rest = playThrough(listening, 3.5, 10, 10);
    expect(percents(rest)).toEqual([40, 50, 60, 70, 80, 90]);
    expect(listening.end()).toEqual([{ event: 'end', heard: expect.any(Number) }]);
    expect(listening.play(0)).toEqual([{ event: 'play', heard: 0 }]);
    expect(percents(playThrough(listening, 0, 2.5, 10))).toEqual([10, 20]);
  });

  it('resuming after a pause goes on from the last position seen: a milestone between it and the resumed position is sent', () => {
    const listening = new Listening();
    listening.play(0);
    playThrough(listening, 0, 3.7, 24.5, 0.37);
    expect(listening.pause()).toEqual([{ event: 'pause', heard: 1.1 }]);
    // The audio played on to 4.95 before it paused: 20 % (4.9) lies between.
    expect(listening.play(4.95)).toEqual([]);
    expect(listening.step(5.5, 24.5)).toEqual([{ event: 'progress', percent: 20, heard: 1.8 }]);
    // After a seek while paused, playing starts where the seek went.
    listening.pause();
    listening.seek();
    listening.play(12);
    expect(listening.step(12.5, 24.5)).toEqual([{ event: 'progress', percent: 50, heard: 0.5 }]);
  });

  it('a pause sends the seconds heard since the last event, and nothing when there are none', () => {
    const listening = new Listening();
    listening.play(0);
    playThrough(listening, 0, 0.75, 10);
    expect(listening.pause()).toEqual([{ event: 'pause', heard: 0.8 }]);
    expect(listening.pause()).toEqual([]);
    expect(listening.flush()).toEqual([]);
  });

  it('a seek is not listening: milestones jumped over are not sent; playing past one after the seek is', () => {
    const listening = new Listening();
    listening.play(0);
    playThrough(listening, 0, 1.5, 20);
    listening.seek();
    // Positions while seeking, and the first one after it, add nothing.
    expect(listening.step(12, 20)).toEqual([]);
    listening.at(12);
    const after = playThrough(listening, 12, 14.5, 20);
    expect(percents(after)).toEqual([70]);
    expect(heardOf([...after, ...listening.pause()])).toBeCloseTo(2.5 + 1.5, 5);
  });

  it('a jump longer than two seconds per unit of speed between positions is not heard', () => {
    const listening = new Listening();
    listening.play(0);
    expect(listening.step(5, 100)).toEqual([]);
    expect(listening.step(6, 100)).toEqual([]);
    expect(listening.pause()).toEqual([{ event: 'pause', heard: 1 }]);
    // At speed 4 a step of 3 s of audio is half a second of listening.
    listening.play(6);
    listening.step(9, 100, 4);
    expect(listening.pause()).toEqual([{ event: 'pause', heard: 3 }]);
  });

  it('a milestone reached twice in one listening (after seeking back) is sent once', () => {
    const listening = new Listening();
    listening.play(0);
    expect(percents(playThrough(listening, 0, 2.5, 10))).toEqual([10, 20]);
    listening.seek();
    listening.at(0);
    expect(percents(playThrough(listening, 0, 3.5, 10))).toEqual([30]);
  });

  it('paused, or at the end of a listening never played, sends nothing; positions without play count nothing', () => {
    const listening = new Listening();
    expect(listening.step(1, 10)).toEqual([]);
    listening.at(1);
    expect(listening.step(2, 10)).toEqual([]);
    expect(listening.end()).toEqual([]);
    expect(listening.flush()).toEqual([]);
  });

  it('flush (the page hidden) sends what was heard and the listening goes on', () => {
    const listening = new Listening();
    listening.play(0);
    playThrough(listening, 0, 0.5, 100);
    expect(listening.flush()).toEqual([{ event: 'pause', heard: 0.5 }]);
    playThrough(listening, 0.5, 1, 100);
    expect(listening.flush()).toEqual([{ event: 'pause', heard: 0.5 }]);
    expect(listening.play(1)).toEqual([]);
  });
});
