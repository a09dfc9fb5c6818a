import { withSavepoint } from '../../../server/src/utils/savepoint';

function recorder() {
  const statements: string[] = [];
  return { statements, trx: { raw: async (sql: string) => void statements.push(sql) } };
}

describe('withSavepoint', () => {
  it('releases the savepoint after work that succeeds, and answers its result', async () => {
    const { statements, trx } = recorder();
    await expect(withSavepoint(trx, 'speech_record', async () => 42)).resolves.toBe(42);
    expect(statements).toEqual(['SAVEPOINT speech_record', 'RELEASE SAVEPOINT speech_record']);
  });

  it('rolls back to the savepoint after work that fails, and passes the error on', async () => {
    const { statements, trx } = recorder();
    await expect(
      withSavepoint(trx, 'speech_record', async () => {
        statements.push('INSERT ...');
        throw new Error('refused');
      })
    ).rejects.toThrow('refused');
    expect(statements).toEqual(['SAVEPOINT speech_record', 'INSERT ...', 'ROLLBACK TO SAVEPOINT speech_record']);
  });

  it('refuses a name that is not a plain identifier (it is written into SQL)', async () => {
    const { statements, trx } = recorder();
    await expect(withSavepoint(trx, 'x; DROP TABLE y', async () => 1)).rejects.toThrow('not a savepoint name');
    expect(statements).toEqual([]);
  });
});
