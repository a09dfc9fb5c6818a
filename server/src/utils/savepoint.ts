/**
 * Runs work inside a savepoint of a transaction that is not ours: when the work fails, only what it
 * wrote is rolled back and the transaction goes on as it was. Without it, one failed statement
 * would abort a PostgreSQL transaction whole ("current transaction is aborted"), so a plugin's
 * error would undo the host's publish. SQLite, PostgreSQL and MySQL/MariaDB share the syntax.
 */

export interface RawRunner {
  raw(sql: string): PromiseLike<unknown>;
}

export async function withSavepoint<T>(trx: RawRunner, name: string, work: () => Promise<T>): Promise<T> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a savepoint name: ${name}`);
  await trx.raw(`SAVEPOINT ${name}`);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await trx.raw(`ROLLBACK TO SAVEPOINT ${name}`);
    throw error;
  }
  await trx.raw(`RELEASE SAVEPOINT ${name}`);
  return result;
}
