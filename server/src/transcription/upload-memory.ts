import v8 from 'v8';
import vm from 'vm';

/**
 * Keeps a large transcription upload from inflating the process by tens of megabytes.
 *
 * Why: Node copies every chunk of a request body into a fresh Buffer (the HTTP parser's `Buffer::Copy`),
 * the body parser writes it to the temporary file, and the client reads it back in 64 KB chunks to send
 * it on. Each chunk is garbage a moment later, but its memory lives outside V8's heap and V8 only
 * collects it when the heap itself needs a collection, or once external memory has grown by tens of
 * megabytes. Measured on Node 20 (`npm run bench`): a cold Strapi process grows about 30 MB while it
 * receives 50 MB, even when the bytes are only read and thrown away. The plugin cannot read the socket
 * into a reused buffer (the HTTP server owns it), so while an upload is in flight it asks V8 for a
 * young-generation collection (a scavenge: a few milliseconds, freeing exactly those short-lived
 * chunks) each time array-buffer memory has grown by `stepBytes`. Nothing runs when no upload is in
 * flight, and nothing runs if the engine offers no way to ask.
 */

/** What the policy sees: the process's array-buffer bytes (`process.memoryUsage().arrayBuffers`). */
export interface ReclaimPolicy {
  /** True when a collection is due given the current array-buffer bytes. */
  due(arrayBufferBytes: number): boolean;
  /** Records the array-buffer bytes right after a collection. */
  collected(arrayBufferBytes: number): void;
}

/**
 * Due once array-buffer memory is `stepBytes` above the lowest figure seen since the last collection.
 * The floor follows the figure down, so memory freed by the stream itself (chunks written out) resets
 * the count rather than hiding growth.
 */
export function createReclaimPolicy(stepBytes: number, startBytes: number): ReclaimPolicy {
  if (!(stepBytes > 0)) throw new RangeError('stepBytes must be positive');
  let floor = startBytes;
  return {
    due(bytes) {
      if (bytes < floor) floor = bytes;
      return bytes - floor >= stepBytes;
    },
    collected(bytes) {
      floor = bytes;
    },
  };
}

export type Collect = () => void;

let cachedCollect: Collect | null | undefined;

/**
 * A function that runs a young-generation collection, or null when the engine does not offer one.
 * Uses `global.gc` when Node was started with `--expose-gc`; otherwise turns the flag on for one new
 * V8 context, takes that context's `gc`, and turns the flag off again (the flag only decides whether new
 * contexts get a `gc` function; nothing else in the process changes).
 */
export function youngGenerationCollector(): Collect | null {
  if (cachedCollect !== undefined) return cachedCollect;
  type GcFunction = (options?: { type?: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void;
  let gc: GcFunction | undefined = typeof (globalThis as any).gc === 'function' ? (globalThis as any).gc : undefined;
  if (!gc) {
    try {
      v8.setFlagsFromString('--expose-gc');
      const candidate = vm.runInNewContext('gc');
      if (typeof candidate === 'function') gc = candidate;
    } catch {
      gc = undefined;
    } finally {
      v8.setFlagsFromString('--no-expose-gc');
    }
  }
  const found = gc;
  cachedCollect = found ? () => found({ type: 'minor' }) : null;
  return cachedCollect;
}

export interface UploadMemoryGovernorOptions {
  /** Array-buffer growth that triggers a collection. */
  stepBytes?: number;
  /** How often the figure is read while an upload is in flight. */
  sampleMs?: number;
  collect?: Collect | null;
  readArrayBufferBytes?: () => number;
}

/**
 * Reference-counted: `begin()` when an upload starts, call the returned `end` when its request is over.
 * The sampler runs only while at least one upload is in flight, and never keeps the process alive.
 */
export function createUploadMemoryGovernor(options: UploadMemoryGovernorOptions = {}) {
  const stepBytes = options.stepBytes ?? 4 * 1024 * 1024;
  const sampleMs = options.sampleMs ?? 10;
  const collect = options.collect === undefined ? youngGenerationCollector() : options.collect;
  const read = options.readArrayBufferBytes ?? (() => process.memoryUsage().arrayBuffers);
  let active = 0;
  let timer: NodeJS.Timeout | null = null;
  let policy: ReclaimPolicy | null = null;
  let collections = 0;

  function sample() {
    if (!policy || !collect) return;
    if (policy.due(read())) {
      collect();
      collections += 1;
      policy.collected(read());
    }
  }

  return {
    /** Whether collections can be asked for at all on this engine. */
    enabled: collect !== null,
    begin(): () => void {
      if (!collect) return () => {};
      active += 1;
      if (active === 1) {
        policy = createReclaimPolicy(stepBytes, read());
        timer = setInterval(sample, sampleMs);
        timer.unref();
      }
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        active -= 1;
        if (active === 0 && timer) {
          clearInterval(timer);
          timer = null;
          policy = null;
        }
      };
    },
    /** Collections run so far (for tests and the benchmark). */
    get collections() {
      return collections;
    },
    get inFlight() {
      return active;
    },
  };
}

export type UploadMemoryGovernor = ReturnType<typeof createUploadMemoryGovernor>;
