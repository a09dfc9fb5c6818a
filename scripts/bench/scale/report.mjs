/** What the scale bench prints after its JSON line: how each figure is taken, then a table per database with its targets. */
import { printTable } from '../figures.mjs';

export function table(kind, results) {
  const rows = results.filter((r) => r.db === kind);
  if (rows.length === 0) return;
  const withDb = rows.some((r) => r.dbIdleCpuPercent !== null);
  const header = [
    'rows',
    'idle CPU %',
    'whole / main %',
    ...(withDb ? ['db idle CPU %'] : []),
    'statuses p50/p95 ms',
    'users/me p50 ms',
    'publish->submit p50/max ms',
    'claim p50/max ms',
    'insert s',
  ];
  const lines = rows.map((r) => [
    r.rows.toLocaleString('en-US'),
    r.idleCpuPercent.toFixed(2),
    `${r.idleCpuWholePercent.toFixed(2)} / ${r.idleCpuMainPercent.toFixed(2)}`,
    ...(withDb ? [r.dbIdleCpuPercent.toFixed(2)] : []),
    `${r.statusesMs.p50.toFixed(1)} / ${r.statusesMs.p95.toFixed(1)}`,
    r.adminFloorMs.p50.toFixed(1),
    `${r.publishToSubmitMs.p50} / ${r.publishToSubmitMs.max}`,
    `${r.claimMs.p50.toFixed(1)} / ${r.claimMs.max.toFixed(1)}`,
    r.insertSeconds.toFixed(1),
  ]);
  console.log('');
  console.log(
    kind === 'sqlite'
      ? 'SQLite (queries run inside the Strapi process)'
      : 'PostgreSQL (private cluster; "db idle CPU" = its processes, fsync off)'
  );
  printTable(header, lines, { padded: true });
  const small = rows[0];
  const large = rows[rows.length - 1];
  if (rows.length > 1) {
    const ratio = large.idleCpuPercent / small.idleCpuPercent;
    console.log(
      `idle CPU ${large.rows.toLocaleString('en-US')} / ${small.rows.toLocaleString('en-US')} rows: ${ratio.toFixed(2)}x (target < 2x)`
    );
  }
  if (withDb) {
    // The targets name the Strapi process; on PostgreSQL the tick's queries cost CPU in the cluster instead.
    const total = (r) => r.idleCpuPercent + r.dbIdleCpuPercent;
    console.log(
      `Strapi + PostgreSQL processes idle (not a target, for comparison): ${rows.map((r) => `${total(r).toFixed(2)} %`).join(' -> ')}` +
        (rows.length > 1 ? ` (${(total(large) / total(small)).toFixed(2)}x)` : '')
    );
  }
  const verdict = (ok) => (ok ? 'OK' : 'OVER');
  const idleOk = rows.every((r) => r.idleCpuPercent < 1);
  const statusesOk = rows.every((r) => r.statusesMs.p50 < 20);
  const publishOk = rows.every((r) => r.publishToSubmitMs.p50 < 200);
  const ratioOk = rows.length < 2 || large.idleCpuPercent / small.idleCpuPercent < 2;
  console.log(
    `targets: idle CPU < 1 % ${verdict(idleOk)}; growth < 2x ${verdict(ratioOk)}; statuses p50 < 20 ms ${verdict(statusesOk)}; publish->submit p50 < 200 ms ${verdict(publishOk)}`
  );
  return idleOk && statusesOk && publishOk && ratioOk;
}

export function explain({ idleParts, documents, statusRuns, statusWarmups, publishes, claims }) {
  console.log('');
  console.log(
    `idle CPU: CPU time of the Strapi process (all its threads, schedstat), % of one core, default 2 s worker tick; the median of ${idleParts} equal parts of the idle window ` +
      '(a one-off heap reduction by V8 on its helper threads lands in one part); "whole / main": the whole window, and its main thread alone (JavaScript and SQLite queries).'
  );
  console.log(
    `statuses: POST /speech/narrations/statuses for ${documents} documents that have rows, wall time at the client, ${statusRuns} runs after ${statusWarmups} warm-ups.`
  );
  console.log(
    "users/me: the admin's own GET /admin/users/me, interleaved with the statuses requests: the same authentication and almost nothing else (the floor of an admin request here)."
  );
  console.log(
    `publish->submit: Content Manager publish response -> emulator receives POST /process-text for that article, ${publishes} articles one at a time.`
  );
  console.log(
    `claim: start of the worker tick that claims a queued row -> its claim (queued -> submitting) written, read from lease_expires_at and a trigger; ${claims} rows.`
  );
}
