/**
 * Preloaded into the segmented bench's Strapi (`node --expose-gc --require <this file>`), and into
 * nothing else: on SIGUSR2, a full garbage collection, then a line on stdout saying it is done. The
 * join step collects the garbage before it reads the process's resident size, as the stitch bench does
 * in its own process (scripts/bench/stitch/run.mjs), so what the join needs is not hidden by heap the
 * process had already grown and not yet given back.
 */
process.on('SIGUSR2', () => {
  globalThis.gc();
  process.stdout.write(`${JSON.stringify({ event: 'bench-gc-done' })}\n`);
});
