/** Fixed-window rate limiting, per API key and endpoint (so STT polling cannot starve narration). */

export class FixedWindowRateLimiter {
  /** @param {() => import('./config.mjs').RateLimit} limit read on every request, so config changes apply at once */
  constructor(limit) {
    this.limit = limit;
    /** @type {Map<string, { windowStart: number, count: number }>} */
    this.windows = new Map();
  }

  /**
   * Counts one request; rejected requests are not counted.
   * @param {string} bucket
   * @returns {{ allowed: true } | { allowed: false, resetAfterSec: number }}
   */
  take(bucket, now = Date.now()) {
    const { requests, windowSec } = this.limit();
    const windowMs = windowSec * 1000;
    let window = this.windows.get(bucket);
    if (!window || now - window.windowStart >= windowMs) {
      window = { windowStart: now, count: 0 };
      this.windows.set(bucket, window);
    }
    if (window.count >= requests) {
      return { allowed: false, resetAfterSec: Math.max(1, Math.ceil((window.windowStart + windowMs - now) / 1000)) };
    }
    window.count += 1;
    return { allowed: true };
  }
}
