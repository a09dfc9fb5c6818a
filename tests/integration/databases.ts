import { startMariadb } from '../../scripts/mariadb-server.cjs';
import { startCluster } from '../../scripts/postgres-cluster.cjs';
import { freePort } from './harness';

/**
 * The database servers the queue's database-dependent tests run on besides SQLite, each a private
 * server for one test file (scripts/postgres-cluster.cjs, scripts/mariadb-server.cjs: on its own
 * port and folder), so tests never depend on a system service. A suite parametrised over
 * SERVER_DATABASES (`describe.each`) runs the same assertions on each.
 */

export interface DatabaseServer {
  /** Strapi's environment (the playground's DATABASE_* variables) for `database` on this server. */
  strapiEnv: (database: string) => Record<string, string>;
  createDatabase: (name: string) => void;
  /** Runs SQL in a database as the server's superuser; returns the rows, one a line. */
  sql: (database: string, statement: string) => string;
  /** Stops the server, every session ended, its data kept (a restart's first half). */
  halt: () => void;
  /** Serves the halted data again on the same port. */
  resume: () => void;
  stop: () => void;
}

export interface ServerDatabase {
  /** How test titles name it. */
  name: string;
  start: () => Promise<DatabaseServer>;
}

export const postgres: ServerDatabase = {
  name: 'PostgreSQL',
  async start() {
    const { port, url, run, halt, resume, stop } = startCluster({ port: await freePort() });
    const psql = (args: string[]) => run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', ...args]);
    return {
      strapiEnv: (database) => ({ DATABASE_CLIENT: 'postgres', DATABASE_URL: url(database) }),
      createDatabase(name) {
        psql(['-c', `CREATE DATABASE "${name}"`]);
      },
      sql: (database, statement) => psql(['-d', database, '-At', '-v', 'ON_ERROR_STOP=1', '-c', statement]),
      halt,
      resume,
      stop,
    };
  },
};

export const mariadb: ServerDatabase = {
  name: 'MariaDB',
  async start() {
    const server = startMariadb({ port: await freePort() });
    return {
      strapiEnv(database) {
        const { host, port, user, password } = server.connection(database);
        return {
          DATABASE_CLIENT: 'mysql',
          DATABASE_HOST: host,
          DATABASE_PORT: String(port),
          DATABASE_NAME: database,
          DATABASE_USERNAME: user,
          DATABASE_PASSWORD: password,
        };
      },
      createDatabase: server.createDatabase,
      sql: server.sql,
      halt: server.halt,
      resume: server.resume,
      stop: server.stop,
    };
  },
};

export const SERVER_DATABASES = [postgres, mariadb];
