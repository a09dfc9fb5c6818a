/** What the flow bench prints at the end: a table of each figure against its target, the player's size among them. */
import { printTable } from '../figures.mjs';
import { PLAYER_GZIP_BUDGET, PLAYER_OUTPUT, builtPlayerSizes } from '../../build-player.cjs';
import { GENERATION_MS, SAMPLES, SLOTS, TARGETS, WARMUPS, ms, verdict } from './settings.mjs';

export function table(figures) {
  const { publish, drain, callback, statuses, player } = figures;
  const rows = [
    [
      `publish (Content Manager admin API), narration on vs off, ${SAMPLES} each after ${WARMUPS} warm-up pairs`,
      `p50 ${ms(publish.on.p50)} vs ${ms(publish.off.p50)} = x${publish.ratioP50.toFixed(3)}; p95 ${ms(publish.on.p95)} vs ${ms(publish.off.p95)} = x${publish.ratioP95.toFixed(3)}`,
      `ratio <= ${TARGETS.publishRatio} (p50 and p95)`,
      verdict(publish.ok),
    ],
    [
      `backlog drain, ${drain.articles} articles, ${SLOTS} in flight, T = accepted -> callback at Strapi, mean ${drain.serviceMs.mean.toFixed(0)} ms (${GENERATION_MS} ms wait + synthesis)`,
      `${(drain.wallMs / 1000).toFixed(2)} s / ideal ${(drain.idealMs / 1000).toFixed(2)} s = x${drain.ratio.toFixed(3)} (x${drain.nominalRatio.toFixed(3)} against T = ${GENERATION_MS} ms); accepted ${drain.accepted}/${drain.articles}, generations ${drain.generations}, credits ${drain.creditsSpent}/${drain.creditsExpected}, at most ${drain.mostGenerating} generating`,
      `<= ${TARGETS.drainRatio} x ideal; accepted == ${drain.articles}, paid once`,
      verdict(drain.ok),
    ],
    [
      `callback acknowledgement, ${callback.callbacks} concurrent, handler time in process (koa middleware placed first)`,
      `p50 ${ms(callback.handlerMs.p50)}, p95 ${ms(callback.handlerMs.p95)} (loopback round trip p50 ${ms(callback.roundTripMs.p50)}, p95 ${ms(callback.roundTripMs.p95)})`,
      `p95 < ${TARGETS.callbackP95Ms} ms`,
      verdict(callback.ok),
    ],
    [
      `statuses of ${statuses.documents} documents (demo-sized table, measured here; the scale section has 1k-1M rows)`,
      `p50 ${ms(statuses.p50)}, p95 ${ms(statuses.p95)}`,
      `p50 < ${TARGETS.statusesMs} ms`,
      verdict(statuses.ok),
    ],
    ['50 MB transcription upload, plugin share', 'measured by the upload section (--only upload)', '< 5 MB', '-'],
    [
      `player gzip size (${PLAYER_OUTPUT}, gzip at zlib's default level)`,
      player.built ? `${player.gzipBytes} bytes gzip (${player.bytes} bytes minified)` : 'not built (npm run build)',
      `< ${player.budget} bytes (8 KB)`,
      verdict(player.ok),
    ],
  ];
  console.log('');
  printTable(['figure', 'measured', 'target', 'verdict'], rows);
}

/** The built player's sizes against its 8 KB gzip budget (step 5). */
export function playerFigure() {
  const sizes = builtPlayerSizes();
  return sizes ? { built: true, ...sizes, ok: sizes.gzipBytes < sizes.budget } : { built: false, budget: PLAYER_GZIP_BUDGET, ok: false };
}
