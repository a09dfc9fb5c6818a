/**
 * How the benches turn timings into figures and print them: nearest-rank quantiles, summaries with
 * the same keys the benches' JSON lines have always had, timed runs after warm-ups, and tables.
 */
import { performance } from 'node:perf_hooks';

/** The value at quantile q (nearest rank). */
export const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};

const STATISTICS = {
  p50: (values) => quantile(values, 0.5),
  p95: (values) => quantile(values, 0.95),
  p99: (values) => quantile(values, 0.99),
  min: (values) => Math.min(...values),
  max: (values) => Math.max(...values),
  n: (values) => values.length,
};

/** `stats(values, 'p50', 'max')` -> `{ p50, max }`: the named figures, in that order (default: p50, p95, min, max, n). */
export function stats(values, ...names) {
  const wanted = names.length ? names : ['p50', 'p95', 'min', 'max', 'n'];
  return Object.fromEntries(wanted.map((name) => [name, STATISTICS[name](values)]));
}

/** Milliseconds since `started` (a performance.now() reading). */
export const since = (started) => performance.now() - started;

/**
 * Runs `sample` warm-ups + runs times, one after another; answers what the timed runs (those after
 * the warm-ups) returned. `sample` gets the run's number and times what it wants itself.
 */
export async function timedRuns({ warmups, runs }, sample) {
  const kept = [];
  for (let run = 0; run < warmups + runs; run += 1) {
    const value = await sample(run);
    if (run >= warmups) kept.push(value);
  }
  return kept;
}

/** Milliseconds that `action` took, and what it answered. */
export async function timed(action) {
  const started = performance.now();
  const value = await action();
  return { ms: since(started), value };
}

/**
 * Prints a Markdown table. `padded`: cells right-aligned to their column's width, the separator as
 * wide as each column; otherwise `|---|` separators and the cells as they are.
 */
export function printTable(header, rows, { padded = false } = {}) {
  if (!padded) {
    console.log(`| ${header.join(' | ')} |`);
    console.log(`|${header.map(() => '---').join('|')}|`);
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
    return;
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const format = (cells) => `| ${cells.map((c, i) => c.padStart(widths[i])).join(' | ')} |`;
  console.log(format(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(format(row));
}
