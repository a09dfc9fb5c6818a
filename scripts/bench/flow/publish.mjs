/**
 * Step 2 of the flow bench: publishes through the Content Manager with the article type's narration
 * switched on and off in the plugin's settings, ABBA, generations held at the emulator.
 */
import { performance } from 'node:perf_hooks';
import { contentManager, json } from '../../bench-support.mjs';
import { stats } from '../figures.mjs';
import { ARTICLE_NARRATION, SAMPLES, TARGETS, UID, WARMUPS, article, ms, say, statusesOf } from './settings.mjs';

async function setNarration({ url, token }, on) {
  const body = { contentTypes: { [UID]: { ...ARTICLE_NARRATION, trigger: on ? 'publish' : 'off' } } };
  const put = await json(`${url}/speech/settings`, 'PUT', body, token);
  if (put.status !== 200) throw new Error(`settings update failed: ${put.status} ${JSON.stringify(put.body)}`);
  const types = await json(`${url}/speech/narrated-types`, 'GET', undefined, token);
  const trigger = types.body?.contentTypes?.[UID]?.trigger;
  if (trigger !== (on ? 'publish' : 'off'))
    throw new Error(`narration of ${UID} should be ${on ? 'on' : 'off'}, the plugin says trigger ${trigger}`);
}

export async function publishOnOff(server) {
  const cm = contentManager(server.url, server.token, UID);
  const samples = { on: [], off: [] };
  const documents = { on: [], off: [] };
  for (let pair = 0; pair < WARMUPS + SAMPLES; pair += 1) {
    // ABBA: on, off, off, on, ... so a drift of the machine over the run weighs on both alike.
    for (const kind of pair % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
      await setNarration(server, kind === 'on');
      const draft = await cm.create(article(`${kind}-${pair}`));
      const started = performance.now();
      await cm.publish(draft.documentId);
      const elapsed = performance.now() - started;
      documents[kind].push(draft.documentId);
      if (pair >= WARMUPS) samples[kind].push(elapsed);
    }
  }
  await setNarration(server, true);

  // Narration on made exactly one row per publish; off made none.
  const onRows = await statusesOf(server, documents.on);
  const offRows = await statusesOf(server, documents.off);
  if (onRows.length !== documents.on.length || offRows.length !== 0) {
    throw new Error(
      `narration rows: ${onRows.length} for ${documents.on.length} publishes with narration on, ${offRows.length} with it off (expected 0)`
    );
  }

  const result = { on: stats(samples.on), off: stats(samples.off), warmupPairs: WARMUPS };
  result.ratioP50 = result.on.p50 / result.off.p50;
  result.ratioP95 = result.on.p95 / result.off.p95;
  result.ok = result.ratioP50 <= TARGETS.publishRatio && result.ratioP95 <= TARGETS.publishRatio;
  say(
    `publish: narration on p50 ${ms(result.on.p50)}, p95 ${ms(result.on.p95)}; off p50 ${ms(result.off.p50)}, p95 ${ms(result.off.p95)} ` +
      `(${SAMPLES} each after ${WARMUPS} warm-up pairs); ratio p50 ${result.ratioP50.toFixed(3)}, p95 ${result.ratioP95.toFixed(3)}`
  );
  return { result, documents };
}
