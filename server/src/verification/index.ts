/** Verified narration: stored narrations checked by the service's speech to text. No other feature imports it; the wiring builds its services. */
