import type { DispatcherLease } from '../../utils';
import { fairOrder } from '../domain/part-plan';
import { createSend, type SendDeps } from './send';
import { submitArticle, submitPart, type SubmissionDeps } from './submissions';

export type SubmitStepDeps = SendDeps &
  Omit<SubmissionDeps, 'send'> & {
    /** One instance at a time submits: `maxInFlight` counts across the account. */
    dispatcher: Pick<DispatcherLease, 'acquire'>;
  };

/** Queued articles read in one pass: all those narrated in parts among them are planned in it. */
const ARTICLES_PER_PASS = 20;

export function createSubmitStep(deps: SubmitStepDeps) {
  const { config, repository, parts, settings, queueState, now } = deps;
  const submission = { ...deps, send: createSend(deps) };

  return {
    async submitQueued(at: Date) {
      // An idle queue costs one read per table per tick: the lease (a write) is only taken when there is work.
      const { contentTypes } = await settings.get();
      // More than a pass can send is read only where some type is narrated in parts (below).
      const anyInParts = Object.values(contentTypes).some((type) => type.narrationMode === 'segmented');
      const [articles, queuedParts] = [
        await repository.claimable(at, anyInParts ? Math.max(config.maxInFlight, ARTICLES_PER_PASS) : config.maxInFlight),
        await parts.claimable(at, config.maxInFlight),
      ];
      if (articles.length === 0 && queuedParts.length === 0) return;
      // Renewed from the clock before each claim: a pass slower than `leaseMs` (a loaded machine)
      // would otherwise go on after another instance took the lease, and both would count the same
      // budget and in-flight slots as free. Lost, the pass stops.
      const holdsLease = () => deps.dispatcher.acquire(now());
      if (!(await holdsLease())) return;
      const queue = await queueState.read();
      if (queue.paused) {
        if (queue.pausedUntil && new Date(queue.pausedUntil) > at) return;
        // The pause ran out: let one submission probe the balance (or the key) again.
        await queueState.update({ paused: false, pausedUntil: null });
      }
      let free = config.maxInFlight - (await repository.countInFlight()) - (await parts.countInFlight());
      // Articles narrated in parts are cut up first, slots free or not (it asks nothing), so their parts
      // take their turn in the fair order beside all that waits.
      const inParts = new Set(articles.filter((row) => contentTypes[row.contentType]?.narrationMode === 'segmented'));
      for (const row of inParts) {
        if (!(await holdsLease())) return;
        if (!(await submitArticle(submission, row, at, free > 0))) continue;
        // Narrated whole after all (its settings changed meanwhile): it was sent.
        free -= 1;
        if ((await queueState.read()).paused) return;
      }
      const due = inParts.size > 0 ? await parts.claimable(at, config.maxInFlight) : queuedParts;
      const whole = articles.filter((row) => !inParts.has(row));
      for (const work of fairOrder(whole, due)) {
        if (free <= 0 || !(await holdsLease())) return;
        const sent = work.kind === 'article' ? await submitArticle(submission, work.row, at) : await submitPart(submission, work.row, at);
        if (sent) free -= 1;
        if ((await queueState.read()).paused) return;
      }
    },
  };
}
