/**
 * Everything the emulator remembers between requests. `POST /__control/reset` disposes the
 * whole object and creates a new one: pending timers are cancelled, and background work
 * (generations, callback deliveries, STT jobs) that still holds the old object sees it is
 * disposed and stops, so nothing leaks from one test into the next.
 */
import { CreditLedger } from './credits.mjs';
import { FixedWindowRateLimiter } from './ratelimit.mjs';
import { InjectionQueue } from './injections.mjs';
import { RequestLog } from './http/request-log.mjs';
import { MediaStore } from './speech/media.mjs';

/**
 * @typedef {object} EmulatorEvent
 * @property {string} at
 * @property {string} type  e.g. CREDITS_CHARGED, CREDITS_REFUNDED, REFUND_FAILED, PROCESSING_ERROR, NO_AUDIO, GENERATED, DELIVERY_FAILED
 * @property {string} company
 * @property {string} [articleId]
 * @property {number} [credits]
 * @property {string} [message]
 * @property {number} [holdMs]  ANSWER_LOST: how long the answer was held before the connection was cut
 */

export class StateDisposedError extends Error {
  constructor() {
    super('Emulator state was reset');
  }
}

export class EmulatorState {
  /** @param {() => import('./config.mjs').Knobs} knobs live view of the current settings */
  constructor(knobs) {
    this.credits = new CreditLedger(() => knobs().startingCredits);
    this.rateLimiter = new FixedWindowRateLimiter(() => knobs().rateLimit);
    this.injections = new InjectionQueue();
    this.requests = new RequestLog();
    this.media = new MediaStore();
    /** @type {Map<string, import('./narration/articles.mjs').ArticleRecord>} */
    this.articles = new Map();
    /** @type {Map<string, string>} company -> most recent callbackURL */
    this.callbackUrls = new Map();
    /** @type {import('./narration/callbacks.mjs').CallbackDelivery[]} */
    this.callbacks = [];
    /** @type {Map<string, import('./stt/jobs.mjs').SttJob>} */
    this.sttJobs = new Map();
    /** @type {Set<string>} companies with a TTS request in flight */
    this.ttsInFlight = new Set();
    /** @type {EmulatorEvent[]} */
    this.events = [];
    this.disposed = false;
    this.abortController = new AbortController();
    /** @type {Set<NodeJS.Timeout>} */
    this.timers = new Set();
  }

  /** Aborted on reset/close; pass it to long work and outgoing requests. */
  get signal() {
    return this.abortController.signal;
  }

  /** @param {Omit<EmulatorEvent, 'at'>} event */
  recordEvent(event) {
    this.events.push({ at: new Date().toISOString(), ...event });
  }

  /**
   * Runs `fn` after `ms` unless the state is disposed first.
   * @param {() => void} fn @param {number} ms
   */
  schedule(fn, ms) {
    if (this.disposed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  /** Resolves after `ms`; rejects with StateDisposedError if the state is disposed meanwhile. @param {number} ms */
  sleep(ms) {
    return new Promise((resolve, reject) => {
      if (this.disposed) return reject(new StateDisposedError());
      const onAbort = () => reject(new StateDisposedError());
      this.signal.addEventListener('abort', onAbort, { once: true });
      this.schedule(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve(undefined);
      }, ms);
    });
  }

  /** Throws StateDisposedError when a reset happened while background work was waiting. */
  assertLive() {
    if (this.disposed) throw new StateDisposedError();
  }

  dispose() {
    this.disposed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.abortController.abort(new StateDisposedError());
  }
}

/**
 * For fire-and-forget background tasks: a reset is a normal way for them to end.
 * @param {(message: string) => void} logError
 * @returns {(error: unknown) => void}
 */
export function backgroundErrorHandler(logError) {
  return (error) => {
    if (error instanceof StateDisposedError || (error instanceof Error && error.name === 'AbortError')) return;
    logError(`background task failed: ${error instanceof Error ? error.stack : String(error)}`);
  };
}
