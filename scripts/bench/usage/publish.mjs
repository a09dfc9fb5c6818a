/**
 * The usage bench's publish step: what a monthly budget adds to publishing. The playground Strapi
 * runs on the seeded ledger (a million entries); the emulator generates at once (no wait, one
 * sentence), so each narration is submitted, called back and stored before the next publish.
 * For each sample the bench sets the budget in the plugin's settings (PUT /speech/settings
 * `budget.monthlyCredits`: a limit far above the month's spending, or null for none; the same
 * setting `SPEECH_BUDGET` gives the playground from the file), creates a draft article and times its
 * publish through the Content Manager's admin API, at the client, over loopback (as the flow bench);
 * then the time from the publish's answer to the emulator receiving `POST /process-text` for it,
 * which is where the budget is asked (the worker, after the publish's answer: one read of the
 * month's day totals); then it waits for the narration to complete, and 250 ms more. Budget on and off alternate
 * ABBA, warm-up pairs first. Checked: p50 and p95 ratios on/off <= 1.05 (the flow bench's target
 * for narration on/off), every narration submitted, none held.
 */
import { performance } from 'node:perf_hooks';
import { benchArticle, contentManager, json, narrationStatuses, sleep, waitFor } from '../../bench-support.mjs';
import { stats } from '../figures.mjs';

const UID = 'api::article.article';
export const PUBLISH_RATIO_TARGET = 1.05;
const SETTLE_MS = 250;

async function setBudget({ url, token }, monthlyCredits) {
  const put = await json(`${url}/speech/settings`, 'PUT', { budget: { monthlyCredits } }, token);
  if (put.status !== 200) throw new Error(`settings update failed: ${put.status} ${JSON.stringify(put.body)}`);
  const saved = put.body?.settings?.budget?.monthlyCredits;
  if (saved !== monthlyCredits) throw new Error(`budget.monthlyCredits should be ${monthlyCredits}, the settings say ${saved}`);
}

/** Publishes `warmups` + `samples` pairs, budget on and off; `limit`: the budget's monthlyCredits when on. */
export async function publishWithBudget(server, emulatorUrl, { warmups, samples, limit, say }) {
  const cm = contentManager(server.url, server.token, UID);
  const kept = { on: [], off: [] };
  const toSubmission = { on: [], off: [] };
  for (let pair = 0; pair < warmups + samples; pair += 1) {
    for (const kind of pair % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
      await setBudget(server, kind === 'on' ? limit : null);
      const draft = await cm.create(
        benchArticle(`budget-${kind}-${pair}`, {
          summary: 'A short summary.',
          firstParagraph: `Paragraph one of article ${kind} ${pair}. An editor wrote it and pressed Publish.`,
        })
      );
      const articleId = `${draft.documentId}-${draft.locale ?? 'en'}`;
      const started = performance.now();
      await cm.publish(draft.documentId);
      const elapsed = performance.now() - started;
      const answered = Date.now();
      const request = await waitFor(
        async () => {
          const log = await json(`${emulatorUrl}/__control/requests?path=/process-text&method=POST`, 'GET');
          return (log.body.requests ?? []).find((entry) => entry.body?.postData?.articleId === articleId);
        },
        { timeoutMs: 60_000, intervalMs: 10, what: `the submission of ${articleId}` }
      );
      const [row] = await waitFor(
        async () => {
          const rows = await narrationStatuses(server, UID, [draft.documentId]);
          return rows.length && ['completed', 'failed'].includes(rows[0].status) ? rows : null;
        },
        { timeoutMs: 60_000, intervalMs: 50, what: `the narration of ${articleId} to complete` }
      );
      if (row.status !== 'completed') throw new Error(`${articleId} ended ${row.status}: ${row.error?.message ?? ''}`);
      // What follows a narration's completion (the stored files' last writes, the webhook, the garbage
      // it leaves) settles before the next publish is timed.
      await sleep(SETTLE_MS);
      if (pair >= warmups) {
        kept[kind].push(elapsed);
        toSubmission[kind].push(Date.parse(request.at) - answered);
      }
    }
  }
  await setBudget(server, null);
  const result = {
    on: stats(kept.on),
    off: stats(kept.off),
    submissionOn: stats(toSubmission.on, 'p50', 'p95'),
    submissionOff: stats(toSubmission.off, 'p50', 'p95'),
    limit,
    warmupPairs: warmups,
    samples,
  };
  result.ratioP50 = result.on.p50 / result.off.p50;
  result.ratioP95 = result.on.p95 / result.off.p95;
  result.ok = result.ratioP50 <= PUBLISH_RATIO_TARGET && result.ratioP95 <= PUBLISH_RATIO_TARGET;
  say(
    `publish: budget on p50 ${result.on.p50.toFixed(1)} ms, p95 ${result.on.p95.toFixed(1)} ms; off p50 ${result.off.p50.toFixed(1)} ms, p95 ${result.off.p95.toFixed(1)} ms ` +
      `(${samples} each after ${warmups} warm-up pairs); ratio p50 ${result.ratioP50.toFixed(3)}, p95 ${result.ratioP95.toFixed(3)}; ` +
      `publish answer -> submission p50 ${result.submissionOn.p50} vs ${result.submissionOff.p50} ms`
  );
  return result;
}
