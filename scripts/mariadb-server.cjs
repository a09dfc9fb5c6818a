/**
 * A private, throwaway MariaDB server (Debian's `mariadb-server` package): mariadb-install-db and
 * mariadbd on their own port, socket and data folder, with none of the system's option files
 * (--no-defaults), so nothing depends on a system service. Strapi connects over TCP as a real user
 * with a password (`strapi`, all privileges), as it would in production; `root` (no password, on the
 * socket only) is for the tests' own SQL. Tables default to utf8mb4 with Debian's collation,
 * utf8mb4_general_ci, what a MariaDB installed from Debian packages gives an app.
 * mariadbd refuses to run as root: as root the server runs as the `mysql` user (or `benchmy`,
 * created if neither exists).
 */
const { spawn, spawnSync } = require('node:child_process');
const { closeSync, existsSync, openSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { startPrivateServer } = require('./private-server.cjs');

const STRAPI_USER = 'strapi';
const STRAPI_PASSWORD = 'strapi-test-password';
const START_TIMEOUT_MS = 60_000;

/** mariadbd and its tools: MARIADB_BIN, else where PATH (plus /usr/sbin, where Debian puts mariadbd) has them. */
function binDirs() {
  if (process.env.MARIADB_BIN) return { server: process.env.MARIADB_BIN, tools: process.env.MARIADB_BIN };
  const find = (program) =>
    spawnSync('sh', ['-c', `PATH="$PATH:/usr/sbin:/usr/local/sbin" command -v ${program}`], { encoding: 'utf8' }).stdout.trim();
  const server = find('mariadbd');
  const tools = find('mariadb-install-db');
  if (!server || !tools) throw new Error('MariaDB is not installed: apt-get install -y mariadb-server (or set MARIADB_BIN)');
  return { server: path.dirname(server), tools: path.dirname(tools) };
}

/** Blocks this thread for `ms` (the start is synchronous, as PostgreSQL's pg_ctl -w is). */
function pause(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Whether a process has ended (gone, or a zombie its parent has not reaped yet). */
function ended(pid) {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * Starts a server listening on 127.0.0.1:`port`. `sql(database, statement)` runs statements as
 * root through the mariadb client and returns its tab-separated rows; `createDatabase(name)`
 * makes an empty utf8mb4 database; `stop()` kills the server and removes its folder.
 */
function startMariadb({ port }) {
  const bins = binDirs();
  /** mariadbd's process id once spawned: stop() kills it even when the start failed halfway. */
  let serverPid = null;
  return startPrivateServer({
    prefix: 'speech-mariadb-',
    users: ['mysql', 'benchmy'],
    bin: bins.tools,
    start({ dir, user, run }) {
      const data = path.join(dir, 'data');
      const socket = path.join(dir, 'mariadb.sock');
      const log = path.join(dir, 'server.log');
      run('mariadb-install-db', [
        '--no-defaults',
        `--datadir=${data}`,
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
        '--skip-name-resolve',
      ]);
      const serve = () => {
        const output = openSync(log, 'a');
        const server = spawn(
          path.join(bins.server, 'mariadbd'),
          [
            '--no-defaults',
            ...(user ? [`--user=${user}`] : []),
            `--datadir=${data}`,
            `--socket=${socket}`,
            `--pid-file=${path.join(dir, 'mariadbd.pid')}`,
            `--port=${port}`,
            '--bind-address=127.0.0.1',
            '--skip-name-resolve',
            '--character-set-server=utf8mb4',
            '--collation-server=utf8mb4_general_ci',
            // A throwaway server: no durability on each commit, no binary log.
            '--innodb-flush-log-at-trx-commit=0',
            '--innodb-doublewrite=0',
            '--skip-log-bin',
          ],
          { stdio: ['ignore', output, output] }
        );
        closeSync(output);
        server.unref();
        serverPid = server.pid;
        const deadline = Date.now() + START_TIMEOUT_MS;
        for (;;) {
          const ping = spawnSync(path.join(bins.tools, 'mariadb-admin'), ['--no-defaults', `--socket=${socket}`, '-uroot', 'ping'], {
            encoding: 'utf8',
          });
          if (ping.status === 0) break;
          if (ended(server.pid) || Date.now() > deadline) {
            const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-3000) : '';
            throw new Error(`mariadbd did not start on port ${port}:\n${tail}`);
          }
          pause(100);
        }
      };
      const sql = (database, statement) =>
        run('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-N', '-B', '-e', statement, ...(database ? [database] : [])]);
      serve();
      sql(null, `CREATE USER '${STRAPI_USER}'@'%' IDENTIFIED BY '${STRAPI_PASSWORD}'; GRANT ALL PRIVILEGES ON *.* TO '${STRAPI_USER}'@'%'`);
      return {
        port,
        data,
        /** What Strapi's `mysql` client needs to reach `database` (the playground's DATABASE_* variables). */
        connection: (database) => ({ host: '127.0.0.1', port, database, user: STRAPI_USER, password: STRAPI_PASSWORD }),
        createDatabase: (name) => sql(null, `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`),
        sql,
        // A restart as an operator's upgrade would be: a clean shutdown ends every connection, the data stays.
        halt() {
          const pid = serverPid;
          if (!pid || ended(pid)) return;
          process.kill(pid, 'SIGTERM');
          const deadline = Date.now() + START_TIMEOUT_MS;
          while (!ended(pid)) {
            if (Date.now() > deadline) throw new Error('mariadbd did not stop');
            pause(100);
          }
        },
        resume: serve,
      };
    },
    stop() {
      // Killed outright, as PostgreSQL's immediate stop: the data is thrown away with the folder.
      if (serverPid && !ended(serverPid)) process.kill(serverPid, 'SIGKILL');
    },
  });
}

module.exports = { startMariadb };
