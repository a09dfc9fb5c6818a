/**
 * A private, throwaway PostgreSQL cluster (Debian's `postgresql` package): initdb + pg_ctl on its
 * own port and socket folder, trust authentication for `postgres`, fsync off, so nothing depends on
 * a system service. Shared by the integration tests (tests/integration/postgres.ts) and the scale
 * bench (scripts/bench-scale.mjs). PostgreSQL refuses to run as root: as root the cluster runs as the
 * `postgres` user (or `benchpg`, created if neither exists).
 */
const { execFileSync, spawnSync } = require('node:child_process');
const { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** initdb/pg_ctl's folder: PG_BIN, else the newest /usr/lib/postgresql/<v>/bin, else PATH. */
function binDir() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const version = readdirSync(base).sort((a, b) => Number(b) - Number(a))[0];
    if (version) return path.join(base, version, 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (which) return path.dirname(which);
  throw new Error('PostgreSQL is not installed: apt-get install -y postgresql (or set PG_BIN)');
}

/** The user the server runs as when this process is root; null otherwise. */
function serverUser() {
  if (process.getuid?.() !== 0) return null;
  for (const user of ['postgres', 'benchpg']) {
    if (spawnSync('id', ['-u', user]).status === 0) return user;
  }
  execFileSync('useradd', ['-m', 'benchpg']);
  return 'benchpg';
}

/**
 * Starts a cluster listening on 127.0.0.1:`port`; `settings` are extra server settings
 * (`-c name=value`). `run(command, args)` runs one of PostgreSQL's programs as the server's user
 * and returns its stdout; `stop()` stops the cluster and removes its folder.
 */
function startCluster({ port, settings = {} }) {
  const bin = binDir();
  const user = serverUser();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'speech-pg-'));
  const data = path.join(dir, 'data');
  const run = (command, args) => {
    const full = path.join(bin, command);
    const result = user
      ? spawnSync('runuser', ['-u', user, '--', full, ...args], { encoding: 'utf8' })
      : spawnSync(full, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  const stop = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } catch (error) {
      // A server that is not running (it never started, or it ended) has nothing to stop.
      if (existsSync(path.join(data, 'postmaster.pid'))) throw error;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    if (user) {
      const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
      chownSync(dir, uid, gid);
    }
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    const options = Object.entries({ listen_addresses: '127.0.0.1', fsync: 'off', ...settings }).map(
      ([name, value]) => `-c ${name}=${value}`
    );
    run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} ${options.join(' ')}`, 'start']);
  } catch (error) {
    try {
      stop();
    } catch {
      /* the first error says more */
    }
    throw error;
  }
  return { port, dir, data, url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`, run, stop };
}

module.exports = { startCluster };
