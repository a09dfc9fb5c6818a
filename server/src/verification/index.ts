/** Verified narration: stored narrations checked by the service's speech to text. Other features import it from here. */
