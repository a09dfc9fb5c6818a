/**
 * Listening insights, the player's side: which events one listening sends, from the
 * audio's positions. Pure (no DOM): element.ts feeds it the audio's events and sends what it returns.
 * The wire format is shared/contracts/insights.ts; the constants are copied here so the player's
 * bundle carries none of the contract's other values (tests/unit/player/insights.test.ts keeps them equal).
 */

/** `LISTENING_EVENTS_PATH` under Strapi's `/api`. */
export const EVENTS_PATH = '/api/speech/insights/events';
/** The progress milestones, in percent: `LISTENING_MILESTONES` without 100 (that is `end`). */
export const PROGRESS = [10, 20, 30, 40, 50, 60, 70, 80, 90];
/** Longer than this (seconds of wall time, times the speed) between two positions is a jump, not listening. */
const MAX_STEP = 2;

/** A `ListeningEvent` without its `articleId`. */
export interface Sent {
  event: 'play' | 'progress' | 'end' | 'pause';
  percent?: number;
  heard: number;
}

const tenths = (seconds: number) => Math.round(seconds * 10) / 10;

/** One listening: from its first play to its end (then the next play begins another). */
export class Listening {
  #started = false;
  #reached = new Set<number>();
  /** Seconds heard in this listening, and how many of them were already sent (in tenths). */
  #heard = 0;
  #sent = 0;
  /** The position of the last step while playing; null while paused or seeking. */
  #last: number | null = null;
  /**
   * Where a pause left off: the last step's position. Playing resumes from it, not from where the
   * audio says it resumes (past it when the audio played on after the last step).
   */
  #resume: number | null = null;

  /** The audio plays from `position`: `play` for the first time in this listening. */
  play(position: number): Sent[] {
    this.#last = this.#resume ?? position;
    this.#resume = null;
    if (this.#started) return [];
    this.#started = true;
    return [{ event: 'play', heard: 0 }];
  }

  /** A seek began: the next positions are not listening until `play` (or `at`) again. */
  seek() {
    this.#last = this.#resume = null;
  }

  /** Playing resumed at `position` after a seek. */
  at(position: number) {
    if (this.#started) this.#last = position;
  }

  /**
   * The audio reached `position` (a `timeupdate`) at `rate`: the seconds since the last position
   * are heard, and each milestone of `duration` they pass is sent once per listening.
   */
  step(position: number, duration: number, rate = 1): Sent[] {
    const last = this.#last;
    if (last === null) return [];
    this.#last = position;
    const step = position - last;
    if (!(step > 0 && step <= MAX_STEP * Math.max(1, rate))) return [];
    this.#heard += step;
    const sent: Sent[] = [];
    for (const percent of PROGRESS) {
      const mark = (duration * percent) / 100;
      if (last < mark && mark <= position && !this.#reached.has(percent)) {
        this.#reached.add(percent);
        sent.push({ event: 'progress', percent, heard: this.#take() });
      }
    }
    return sent;
  }

  /** The listener paused: `pause` with the seconds heard since the last event, if any. */
  pause(): Sent[] {
    this.#resume = this.#last;
    this.#last = null;
    return this.flush();
  }

  /** The page is hidden or left (the audio may play on): `pause` with the seconds not yet sent, if any. */
  flush(): Sent[] {
    const heard = this.#take();
    return heard > 0 ? [{ event: 'pause', heard }] : [];
  }

  /** The audio ended: `end`, and the next play begins a new listening. */
  end(): Sent[] {
    if (!this.#started) return [];
    const heard = this.#take();
    this.#started = false;
    this.#reached.clear();
    this.#heard = this.#sent = 0;
    this.#last = null;
    return [{ event: 'end', heard }];
  }

  /** The heard seconds not sent yet, in tenths; the sum of everything sent stays the rounded total. */
  #take() {
    const total = tenths(this.#heard);
    const heard = tenths(total - this.#sent);
    this.#sent = total;
    return heard;
  }
}
