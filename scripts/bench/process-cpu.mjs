/**
 * CPU time of processes, read from /proc (Linux only): a process's own clock ticks, its threads'
 * nanoseconds, a PostgreSQL cluster's processes, and an idle window measured in equal parts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { quantile } from './figures.mjs';
import { sleep } from '../bench-support.mjs';

export const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** utime + stime of a process in clock ticks (all its threads). */
export function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime field 15.
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * CPU time of a process split by thread, in ticks (1/CLK_TCK s) but read from schedstat's
 * nanoseconds, since a quiet 10 s part holds only a few ticks: the main thread (JavaScript, and on
 * SQLite the queries themselves: better-sqlite3 runs them on it) and every other thread (V8's
 * garbage-collector and compiler helpers, libuv's pool). A thread that ended between two readings
 * is missed, which only under-counts the helpers.
 */
export function threadTicks(pid) {
  const ticksOf = (tid) => (Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e9) * CLK_TCK;
  let helpers = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    if (tid === String(pid)) continue;
    try {
      helpers += ticksOf(tid);
    } catch {
      /* the thread ended */
    }
  }
  return { main: ticksOf(pid), helpers };
}

function parentOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The PostgreSQL postmaster and its children (backends, checkpointer, autovacuum, ...). */
export function clusterPids(postmasterPid) {
  const pids = [postmasterPid];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (parentOf(Number(name)) === postmasterPid) pids.push(Number(name));
    } catch {
      /* ended meanwhile */
    }
  }
  return pids;
}

function alive(pid) {
  return existsSync(`/proc/${pid}/stat`);
}

/**
 * CPU of process `pid` (all its threads) over `seconds`, read in `parts` equal parts, as % of one
 * core: each part, their median, the whole window, and its main thread alone; `otherPids` (e.g. a
 * database cluster's processes) are summed beside it, or null without them.
 */
export async function idleCpu({ pid, otherPids = [], seconds, parts }) {
  const reading = () => ({
    threads: threadTicks(pid),
    others: otherPids.reduce((sum, other) => sum + (alive(other) ? cpuTicks(other) : 0), 0),
    at: performance.now(),
  });
  const readings = [reading()];
  for (let part = 0; part < parts; part += 1) {
    await sleep((seconds * 1000) / parts);
    readings.push(reading());
  }
  const percent = (ticksUsed, from, to) => (ticksUsed / CLK_TCK / ((to.at - from.at) / 1000)) * 100;
  const total = (r) => r.threads.main + r.threads.helpers;
  const first = readings[0];
  const last = readings[readings.length - 1];
  const partsPercent = readings.slice(1).map((to, i) => percent(total(to) - total(readings[i]), readings[i], to));
  return {
    seconds: (last.at - first.at) / 1000,
    partsPercent,
    medianPercent: quantile(partsPercent, 0.5),
    wholePercent: percent(total(last) - total(first), first, last),
    mainPercent: percent(last.threads.main - first.threads.main, first, last),
    othersPercent: otherPids.length ? percent(last.others - first.others, first, last) : null,
  };
}
