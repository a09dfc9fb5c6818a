/**
 * What the private, throwaway database servers of the tests and the scale bench have in common
 * (scripts/postgres-cluster.cjs, scripts/mariadb-server.cjs): a temporary folder of their own, a
 * non-root user to run as when this process is root (neither PostgreSQL nor MariaDB serves as
 * root), their programs run as that user, and a start that fails leaving nothing behind.
 */
const { execFileSync, spawnSync } = require('node:child_process');
const { chownSync, mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/**
 * The user the server runs as when this process is root: the first of `candidates` that exists,
 * else the last one, created. Null when this process is not root (the server runs as it).
 */
function serverUser(candidates) {
  if (process.getuid?.() !== 0) return null;
  for (const user of candidates) {
    if (spawnSync('id', ['-u', user]).status === 0) return user;
  }
  const created = candidates[candidates.length - 1];
  execFileSync('useradd', ['-m', created]);
  return created;
}

/** A user's numeric uid and gid. */
function idsOf(user) {
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/**
 * Starts a server in a new temporary folder (`<tmp>/<prefix>XXXXXX`, owned by the server's user).
 * `start({ dir, user, run })` starts it and returns its handle; `stop({ dir, user, run })` stops
 * it, and the folder is removed after. When `start` throws, whatever it started is stopped and the
 * folder removed before the error goes on. `run(command, args)` runs `bin/command` as the server's
 * user and returns its stdout (throwing with its stderr on a non-zero exit).
 */
function startPrivateServer({ prefix, users, bin, start, stop }) {
  const user = serverUser(users);
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const run = (command, args) => {
    const full = path.join(bin, command);
    const result = user
      ? spawnSync('runuser', ['-u', user, '--', full, ...args], { encoding: 'utf8' })
      : spawnSync(full, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  const context = { dir, user, run };
  const stopAndRemove = () => {
    try {
      stop(context);
    } finally {
      // A server killed a moment ago may still be closing a file in there: retry briefly.
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    }
  };
  try {
    if (user) {
      const { uid, gid } = idsOf(user);
      chownSync(dir, uid, gid);
    }
    return { ...start(context), dir, run, stop: stopAndRemove };
  } catch (error) {
    try {
      stopAndRemove();
    } catch {
      /* the first error says more */
    }
    throw error;
  }
}

module.exports = { startPrivateServer, idsOf };
