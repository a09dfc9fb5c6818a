export interface PostgresClusterProcess {
  port: number;
  /** The cluster's folder (data/, server.log and the socket), removed by stop(). */
  dir: string;
  /** The data directory (postmaster.pid names the server's process). */
  data: string;
  url: (database: string) => string;
  /** Runs one of PostgreSQL's programs (psql, pg_ctl, ...) as the server's user; returns its stdout. */
  run: (command: string, args: string[]) => string;
  /** Stops the server (a fast shutdown: every session is ended), keeping its data. */
  halt: () => void;
  /** Starts the halted server again on the same port and data. */
  resume: () => void;
  stop: () => void;
}

export function startCluster(options: { port: number; settings?: Record<string, string> }): PostgresClusterProcess;
