/**
 * jest's node environment, which also counts each test file's CPU seconds: the worker's own and
 * those of the processes it started and waited for (Strapi, the emulator, Chromium, npm), from
 * /proc/self/stat before the file and after its last afterAll. On two cores, with three files side
 * by side, CI's time follows the CPU spent more than any one file's seconds: `npm test` lists both.
 * A process left running past the file is not counted (nor should one be left).
 */
const fs = require('node:fs');
const path = require('node:path');
const NodeEnvironment = require('jest-environment-node').TestEnvironment;

const TICKS_PER_SECOND = 100;

/** utime + stime + cutime + cstime of this process, in seconds; null off Linux. */
function cpuSeconds() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    // The command name may hold spaces; the fields after it are numbers (utime is the 14th field).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

class CpuCountingEnvironment extends NodeEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.rootDir = config.globalConfig.rootDir;
  }

  async setup() {
    this.cpuAtStart = cpuSeconds();
    await super.setup();
  }

  async teardown() {
    await super.teardown();
    const end = cpuSeconds();
    const file = process.env.JEST_CPU_FILE;
    if (!file || end === null || this.cpuAtStart === null) return;
    const line = JSON.stringify([path.relative(this.rootDir, this.testPath), Number((end - this.cpuAtStart).toFixed(2))]);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // One short line with O_APPEND: files ending at once in other workers do not interleave.
    fs.appendFileSync(file, `${line}\n`);
  }
}

module.exports = CpuCountingEnvironment;
