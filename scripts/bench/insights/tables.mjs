/**
 * The insights bench's reading of the plugin's tables: the day totals per article (either
 * database), the listener hashes per article, and, on SQLite, the writes to the day totals, seen
 * by triggers the bench adds to its own database file (AFTER INSERT and AFTER UPDATE on
 * speech_listening_days, each a row in bench_day_writes with the time to the millisecond).
 */
const DAYS = 'speech_listening_days';
const UNIQUES = 'speech_listening_uniques';
const REACHED = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((n) => `reached_${n}`);

const totalsSql = `select article_id, sum(plays) as plays, sum(listeners) as listeners, ${REACHED.map((c) => `sum(${c}) as ${c}`).join(', ')},
  sum(deciseconds_heard) as deciseconds, (select count(*) from ${UNIQUES} u where u.article_id = d.article_id and u.kind = 'listener') as hashes
  from ${DAYS} d group by article_id`;

/** Per article: { plays, listeners, reached, deciseconds, hashes } from rows of totalsSql. */
const totalsOf = (rows) =>
  new Map(
    rows.map((row) => [
      row.article_id,
      {
        plays: Number(row.plays),
        listeners: Number(row.listeners),
        reached: REACHED.map((c) => Number(row[c])),
        deciseconds: Number(row.deciseconds),
        hashes: Number(row.hashes),
      },
    ])
  );

/** better-sqlite3 on the playground's file: `totals()`, and the write triggers. */
export function sqliteTables(connection) {
  return {
    totals: () => totalsOf(connection.prepare(totalsSql).all()),
    addWriteTriggers() {
      connection.exec(`
        create table if not exists bench_day_writes (article_id text, at real);
        create trigger if not exists bench_day_insert after insert on ${DAYS}
          begin insert into bench_day_writes values (new.article_id, (julianday('now') - 2440587.5) * 86400.0); end;
        create trigger if not exists bench_day_update after update on ${DAYS}
          begin insert into bench_day_writes values (new.article_id, (julianday('now') - 2440587.5) * 86400.0); end;`);
    },
    triggerNames: () =>
      connection
        .prepare(`select name from sqlite_master where type = 'trigger' and tbl_name = ?`)
        .all(DAYS)
        .map((row) => row.name),
    /** [{ articleId, at (seconds since the epoch) }], oldest first. */
    writes: () => connection.prepare('select article_id as articleId, at from bench_day_writes order by at').all(),
  };
}

/** The same totals from a pg client. */
export async function postgresTotals(client) {
  return totalsOf((await client.query(totalsSql)).rows);
}

/**
 * Writes per article per flush interval, from the triggers' rows taken during the load: each
 * article's writes put in intervals of `flushSeconds` centred on the first write of the run (a
 * flush writes its articles within milliseconds; the intervals' edges fall between flushes).
 * `max`: most writes of one article in one interval; `mean`: writes / (articles x intervals);
 * `minGapSeconds`: the shortest time between two writes of one article.
 */
export function writesPerInterval(writes, flushSeconds) {
  if (writes.length === 0) return { writes: 0, articles: 0, intervals: 0, max: 0, mean: 0, minGapSeconds: null };
  const first = writes[0].at;
  const bucket = (at) => Math.floor((at - first + flushSeconds / 2) / flushSeconds);
  const counts = new Map();
  const lastAt = new Map();
  let minGap = Infinity;
  for (const { articleId, at } of writes) {
    const key = `${articleId} ${bucket(at)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (lastAt.has(articleId)) minGap = Math.min(minGap, at - lastAt.get(articleId));
    lastAt.set(articleId, at);
  }
  const articles = lastAt.size;
  const intervals = bucket(writes[writes.length - 1].at) + 1;
  return {
    writes: writes.length,
    articles,
    intervals,
    max: Math.max(...counts.values()),
    mean: writes.length / (articles * intervals),
    minGapSeconds: minGap === Infinity ? null : minGap,
  };
}

/** The times (seconds since the epoch) of the flushes: the first write of each burst of writes. */
export function flushTimes(writes, gapSeconds = 1) {
  const times = [];
  for (const { at } of writes) if (times.length === 0 || at - times[times.length - 1] > gapSeconds) times.push(at);
  return times;
}
