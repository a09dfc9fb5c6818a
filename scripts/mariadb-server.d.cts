export interface MariadbServerProcess {
  port: number;
  /** The server's folder (data/, server.log, the socket and the pid file), removed by stop(). */
  dir: string;
  /** The data directory. */
  data: string;
  /** Strapi's `mysql` connection to `database`: a TCP user with a password, all privileges. */
  connection: (database: string) => { host: string; port: number; database: string; user: string; password: string };
  /** Makes an empty utf8mb4 database. */
  createDatabase: (name: string) => void;
  /** Runs statements as root (in `database`, or none); returns the mariadb client's tab-separated rows. */
  sql: (database: string | null, statement: string) => string;
  /** Runs one of MariaDB's programs as the server's user; returns its stdout. */
  run: (command: string, args: string[]) => string;
  /** Stops the server (SIGTERM, waited for: every connection is ended), keeping its data. */
  halt: () => void;
  /** Starts the halted server again on the same port and data. */
  resume: () => void;
  stop: () => void;
}

export function startMariadb(options: { port: number }): MariadbServerProcess;
