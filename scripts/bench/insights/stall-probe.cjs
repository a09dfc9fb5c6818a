/**
 * A diagnosis for the insights bench (`--stall-probe`), loaded into the playground Strapi with
 * `node --require`: a 10 ms timer that notices when the event loop did not turn for more than
 * 40 ms, and says what the process did meanwhile, as a JSON line on stdout (the bench reads
 * Strapi's stdout, scripts/bench/insights/load.mjs requestLog):
 *
 *   {"event":"event-loop-stall","at":<epoch ms>,"gapMs":..,"cpuMs":..,"ranMs":..,"waitedMs":..}
 *
 * cpuMs: CPU time of the whole process (all its threads: V8's helpers too) during the gap; ranMs
 * and waitedMs: the main thread's time on a core and runnable but waiting for one, from
 * /proc/<pid>/task/<pid>/schedstat. A gap the main thread ran through is work (JavaScript, a
 * collection, a synchronous query); one it waited through is the machine's cores busy elsewhere;
 * one it neither ran nor waited through is a blocking call (a sync to disk) or the VM not running.
 * Nothing of the plugin's: the playground only.
 */
const { readFileSync } = require('node:fs');

const GAP_MS = 40;
const SCHEDSTAT = `/proc/${process.pid}/task/${process.pid}/schedstat`;

function mainThread() {
  const [ran, waited] = readFileSync(SCHEDSTAT, 'utf8').split(' ').map(Number);
  return { ran: ran / 1e6, waited: waited / 1e6 };
}

let last = performance.now();
let lastCpu = process.cpuUsage();
let lastThread = mainThread();
setInterval(() => {
  const now = performance.now();
  const cpu = process.cpuUsage();
  const thread = mainThread();
  const gapMs = now - last;
  if (gapMs > GAP_MS) {
    const line = {
      event: 'event-loop-stall',
      at: Date.now(),
      gapMs: Math.round(gapMs),
      cpuMs: Math.round((cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000),
      ranMs: Math.round(thread.ran - lastThread.ran),
      waitedMs: Math.round(thread.waited - lastThread.waited),
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
  last = now;
  lastCpu = cpu;
  lastThread = thread;
}, 10).unref();
