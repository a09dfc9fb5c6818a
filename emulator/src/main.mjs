#!/usr/bin/env node
/**
 * CLI: node emulator/src/main.mjs [--port 4010] [--web-port 4011] [--delay 1500] [--credits 100000]
 *      [--api-keys k1,k2] [--rate-limit 60/60] ... (--help lists everything; env EMULATOR_* too)
 *
 * The first stdout line is JSON: {"event":"listening","url":...,"webUrl":...,"port":...,"webPort":...}
 * so a parent process can start it with --port 0 and read where it listens.
 */
import { parseCommandLine, describeFlags, ConfigError } from './config.mjs';
import { startEmulator } from './server.mjs';

const DEFAULT_CLI_PORT = 4010;

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`Speech service emulator\n\n${describeFlags()}\n`);
    return;
  }
  let options;
  try {
    options = parseCommandLine(argv, process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`emulator: ${error.message}\n(see --help)\n`);
    process.exitCode = 2;
    return;
  }
  const emulator = await startEmulator({ port: DEFAULT_CLI_PORT, ...options });
  const { url, webUrl, port, webPort } = emulator;
  process.stdout.write(`${JSON.stringify({ event: 'listening', url, webUrl, port, webPort })}\n`);
  process.stdout.write(`Speech service emulator\n  base_url: ${url}\n  web_url:  ${webUrl}\n  control:  ${url}/__control/\n`);

  let stopping = false;
  const stop = async (/** @type {string} */ signal) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`[emulator] ${signal}: shutting down\n`);
    await emulator.close();
    // Servers closed and timers cleared: the process ends by itself with code 0.
    process.exitCode = 0;
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  process.stderr.write(`emulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
