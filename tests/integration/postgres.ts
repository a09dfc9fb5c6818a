import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './harness';

/**
 * A private PostgreSQL cluster for one test file (Debian's `postgresql` package): initdb + pg_ctl
 * on its own port and socket folder, so tests never depend on a system service. As root (CI), the
 * server runs as the `postgres` user, since PostgreSQL refuses to run as root.
 */

function binDir(): string {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql');
  const version = readdirSync(base).sort((a, b) => Number(b) - Number(a))[0];
  return path.join(base, version, 'bin');
}

export interface PostgresCluster {
  port: number;
  url: (database: string) => string;
  createDatabase: (name: string) => void;
  /** Runs one SQL statement in a database; returns psql's unaligned output. */
  sql: (database: string, statement: string) => string;
  stop: () => void;
}

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = binDir();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'speech-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const full = path.join(bin, command);
    const result = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' })
      : spawnSync(full, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  if (asRoot) {
    const pgUser = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const pgGroup = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dir, Number(pgUser), Number(pgGroup));
  }
  const port = await freePort();
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'server.log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  ]);
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    createDatabase(name) {
      run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', `CREATE DATABASE "${name}"`]);
    },
    sql(database, statement) {
      return run('psql', [
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'postgres',
        '-d',
        database,
        '-At',
        '-v',
        'ON_ERROR_STOP=1',
        '-c',
        statement,
      ]);
    },
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
