/**
 * Does the ledger's write deadlock on MariaDB (InnoDB gap locks) when many transactions insert the
 * same brand-new total keys at once? Each transaction does what credits/ledger.repository.ts
 * `record` does: an entry, then its day total and its article-month total by
 * INSERT ... ON DUPLICATE KEY UPDATE (utils/add-to-totals.ts), in that order. 100 rounds of 16 at
 * once on new keys. Run 2026-11-27: { ok: 1600, deadlocks: 0, other: 0 }, sum 1600 (every write
 * counted): the same order of upserts in every transaction leaves no cycle for InnoDB to break.
 *
 *   node scripts/repro/ledger-upsert-contention.cjs
 */
const knexLib = require('knex');
const path = require('node:path');
const { startMariadb } = require(path.join(__dirname, '..', 'mariadb-server.cjs'));
(async () => {
  const server = startMariadb({ port: 30000 + Math.floor(Math.random() * 20000) });
  server.createDatabase('dl');
  const db = knexLib({ client: 'mysql2', connection: server.connection('dl'), pool: { min: 0, max: 16 } });
  await db.schema.createTable('entries', (t) => {
    t.increments('id');
    t.string('day');
    t.integer('credits');
  });
  await db.schema.createTable('articles', (t) => {
    t.increments('id');
    t.string('month');
    t.string('art');
    t.integer('spent');
    t.unique(['month', 'art']);
  });
  await db.schema.createTable('days', (t) => {
    t.increments('id');
    t.string('day');
    t.string('source');
    t.integer('charged');
    t.unique(['day', 'source']);
  });
  let deadlocks = 0,
    other = 0,
    ok = 0;
  const tx = async (day, source) => {
    try {
      await db.transaction(async (trx) => {
        await trx('entries').insert({ day, credits: 1 });
        await trx('days')
          .insert({ day, source, charged: 1 })
          .onConflict(['day', 'source'])
          .merge({ charged: db.raw('?? + ?', ['days.charged', 1]) });
        await trx('articles')
          .insert({ month: day.slice(0, 7), art: source + Math.floor(Math.random() * 40), spent: 1 })
          .onConflict(['month', 'art'])
          .merge({ spent: db.raw('?? + ?', ['articles.spent', 1]) });
      });
      ok++;
    } catch (e) {
      if (e.errno === 1213) deadlocks++;
      else {
        other++;
        console.log(e.code, e.message.slice(0, 100));
      }
    }
  };
  for (let round = 0; round < 100; round++) {
    const day = `2026-01-${String((round % 28) + 1).padStart(2, '0')}-${round}`;
    await Promise.all(Array.from({ length: 16 }, () => tx(day, `s${Math.floor(Math.random() * 6)}`)));
  }
  console.log({ ok, deadlocks, other });
  const [[{ n }]] = await db.raw('select sum(charged) n from days');
  console.log('sum', n);
  await db.destroy();
  server.stop();
})(); // a failure is an unhandled rejection: Node prints it and exits with 1
