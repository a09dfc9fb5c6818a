/**
 * Starts the speech-service emulator (emulator/src/main.mjs, ESM) as a child process, so jest's
 * CommonJS world can use it over HTTP. Reusable by the plugin's integration tests.
 *
 *   const emulator = await startEmulatorProcess({ delayMs: 100, webPort: true });
 *   ... fetch(`${emulator.url}/process-text`) / fetch(`${emulator.webUrl}/api/v1/voices`) ...
 *   await emulator.stop();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

export const EMULATOR_MAIN = path.resolve(__dirname, '../../emulator/src/main.mjs');
export const DEFAULT_API_KEY = 'emulator-dev-key';

export interface EmulatorProcessOptions {
  /** Serve web_url (STT, TTS, voices) on a second port; `url` then only serves /process-text. */
  webPort?: boolean;
  /** Narration delay before synthesis (ms); the emulator's default is 1500. */
  delayMs?: number;
  /** Starting credits of every company. */
  credits?: number;
  /** Valid API keys (default: emulator-dev-key). */
  apiKeys?: string[];
  /** "requests/windowSec", e.g. "5/60". */
  rateLimit?: string;
  /** Any further CLI flags, e.g. ['--stt-queued-ms', '100']. */
  args?: string[];
  /** Extra environment variables. EMULATOR_* variables of the parent are NOT inherited unless listed here. */
  env?: Record<string, string>;
  /** How long to wait for the listening line (default 20 s). */
  startTimeoutMs?: number;
}

export interface EmulatorProcess {
  /** base_url: /process-text, /media, /__control */
  url: string;
  /** web_url: /api/v1/... (equals url unless webPort was requested) */
  webUrl: string;
  pid: number;
  /** stderr printed so far (for diagnostics). */
  stderr(): string;
  /** JSON call to the control API (base_url/__control/...). Throws on a non-2xx answer. */
  control<T = any>(controlPath: string, init?: { method?: string; body?: unknown }): Promise<T>;
  /** SIGTERM, then SIGKILL after 5 s. Safe to call twice. Resolves with the exit code (null when killed). */
  stop(): Promise<number | null>;
}

const MAX_STDERR = 64 * 1024;

/**
 * One speech cache for every emulator of a test run (`--speech-cache`): the tests say the same
 * sentences many times, and eSpeak takes about half a second of CPU for each.
 */
export const SPEECH_CACHE = path.join(os.tmpdir(), 'speech-emulator-speech-cache');

function buildArgs(opts: EmulatorProcessOptions): string[] {
  const args = ['--port', '0', '--speech-cache', SPEECH_CACHE];
  if (opts.webPort) args.push('--web-port', '0');
  if (opts.delayMs !== undefined) args.push('--delay', String(opts.delayMs));
  if (opts.credits !== undefined) args.push('--credits', String(opts.credits));
  if (opts.apiKeys) args.push('--api-keys', opts.apiKeys.join(','));
  if (opts.rateLimit) args.push('--rate-limit', opts.rateLimit);
  return [...args, ...(opts.args ?? [])];
}

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('EMULATOR_')) env[name] = value;
  }
  return { ...env, ...extra };
}

export async function startEmulatorProcess(opts: EmulatorProcessOptions = {}): Promise<EmulatorProcess> {
  const child: ChildProcess = spawn(process.execPath, [EMULATOR_MAIN, ...buildArgs(opts)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: cleanEnv(opts.env),
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-MAX_STDERR);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // If the test process dies, do not leave an emulator behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const lines = readline.createInterface({ input: child.stdout! });
  let listening: { url: string; webUrl: string };
  try {
    listening = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`emulator did not start within ${opts.startTimeoutMs ?? 20000} ms.\nstderr:\n${stderr}`)),
        opts.startTimeoutMs ?? 20000
      );
      lines.on('line', (line) => {
        try {
          const event = JSON.parse(line);
          if (event?.event === 'listening') {
            clearTimeout(timer);
            resolve(event);
          }
        } catch {
          // human-readable lines are fine
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`emulator exited with code ${code} before listening.\nstderr:\n${stderr}`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    process.removeListener('exit', killOnExit);
    throw error;
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  child.stdout!.resume();

  let stopped: Promise<number | null> | null = null;
  return {
    url: listening.url,
    webUrl: listening.webUrl,
    pid: child.pid!,
    stderr: () => stderr,
    async control(controlPath, init = {}) {
      const response = await fetch(`${listening.url}/__control/${controlPath.replace(/^\/+/, '')}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: init.body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`control ${controlPath} answered ${response.status}: ${text}`);
      return text ? JSON.parse(text) : undefined;
    },
    stop() {
      stopped ??= (async () => {
        process.removeListener('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        const code = await exited;
        clearTimeout(timer);
        return code;
      })();
      return stopped;
    },
  };
}
