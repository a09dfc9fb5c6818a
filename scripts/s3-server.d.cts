import type { IncomingMessage } from 'node:http';

export interface HeldRequests {
  /** How many requests are held right now. */
  count: () => number;
  /** Stops holding, and closes the held requests' connections unanswered. */
  drop: () => void;
}

export interface S3ServerProcess {
  /** `http://127.0.0.1:<port>`: the provider's `s3Options.endpoint`. */
  endpoint: string;
  bucket: string;
  region: string;
  /** s3rver's built-in account. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Where s3rver keeps the objects, removed by stop(). */
  dir: string;
  /** The path-style URL of an object. */
  objectUrl: (key: string) => string;
  /** Every request received so far, in order: its method and the object's key (no query string). */
  requests: () => Array<{ method: string; key: string }>;
  /** Keeps the requests `matches` picks unanswered (never passed on to s3rver) until `drop()`. */
  hold: (matches: (req: IncomingMessage) => boolean) => HeldRequests;
  stop: () => Promise<void>;
}

export function startS3Server(options?: { bucket?: string; region?: string }): Promise<S3ServerProcess>;
