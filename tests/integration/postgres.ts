import { startCluster } from '../../scripts/postgres-cluster.cjs';
import { freePort } from './harness';

/**
 * A private PostgreSQL cluster for one test file (scripts/postgres-cluster.cjs: initdb + pg_ctl on
 * its own port and socket folder), so tests never depend on a system service.
 */

export interface PostgresCluster {
  port: number;
  url: (database: string) => string;
  createDatabase: (name: string) => void;
  /** Runs one SQL statement in a database; returns psql's unaligned output. */
  sql: (database: string, statement: string) => string;
  stop: () => void;
}

export async function startPostgres(): Promise<PostgresCluster> {
  const { port, url, run, stop } = startCluster({ port: await freePort() });
  return {
    port,
    url,
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
    stop,
  };
}
