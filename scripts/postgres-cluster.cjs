/**
 * A private, throwaway PostgreSQL cluster (Debian's `postgresql` package): initdb + pg_ctl on its
 * own port and socket folder, trust authentication for `postgres`, fsync off, so nothing depends on
 * a system service. Shared by the integration tests (tests/integration/databases.ts) and the scale
 * bench (scripts/bench-scale.mjs). PostgreSQL refuses to run as root: as root the cluster runs as the
 * `postgres` user (or `benchpg`, created if neither exists).
 */
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync } = require('node:fs');
const path = require('node:path');
const { startPrivateServer } = require('./private-server.cjs');

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

/**
 * Starts a cluster listening on 127.0.0.1:`port`; `settings` are extra server settings
 * (`-c name=value`). `run(command, args)` runs one of PostgreSQL's programs as the server's user
 * and returns its stdout; `halt()` and `resume()` stop and start it again on the same data (a
 * database restart); `stop()` stops the cluster and removes its folder.
 */
function startCluster({ port, settings = {} }) {
  return startPrivateServer({
    prefix: 'speech-pg-',
    users: ['postgres', 'benchpg'],
    bin: binDir(),
    start({ dir, run }) {
      const data = path.join(dir, 'data');
      run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
      const options = Object.entries({ listen_addresses: '127.0.0.1', fsync: 'off', ...settings }).map(
        ([name, value]) => `-c ${name}=${value}`
      );
      const serve = () =>
        run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} ${options.join(' ')}`, 'start']);
      serve();
      return {
        port,
        data,
        url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
        // A restart as an operator's (or a managed failover's) would be: a fast shutdown ends every
        // session (57P01), the data stays; resume() serves it again on the same port.
        halt: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
        resume: serve,
      };
    },
    stop({ dir, run }) {
      const data = path.join(dir, 'data');
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch (error) {
        // A server that is not running (it never started, or it ended) has nothing to stop.
        if (existsSync(path.join(data, 'postmaster.pid'))) throw error;
      }
    },
  });
}

module.exports = { startCluster };
