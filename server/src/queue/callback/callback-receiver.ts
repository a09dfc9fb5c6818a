import type { Core } from '@strapi/strapi';
import type { LedgerService } from '../../credits';
import { verifyCallbackSignature, type SpeechClientConfig } from '../../speech-client';
import { createPendingWork } from '../../utils';
import type { ResultUrls } from '../domain/states';
import type { NarrationRows } from '../rows/narration-rows';
import type { PartRows } from '../rows/part-rows';
import { recordCallback, settledRow, type CallbackInput, type CallbackOutcome, type CallbackRules } from './record-callback';

export interface CallbackReceiverDeps {
  strapi: Core.Strapi;
  config: CallbackRules & Pick<SpeechClientConfig, 'apiKey'>;
  repository: NarrationRows;
  parts: PartRows;
  ledger: Pick<LedgerService, 'callbackReceived'>;
  worker: { wake: () => void; fetchPart: (result: ResultUrls) => void; settle: (narrationId: number) => Promise<void> };
}

/** The speech service's callback: its signature checked, recorded on its article's or its part's row, and settled in the ledger. */
export function createCallbackReceiver({ strapi, config, repository, parts, ledger, worker }: CallbackReceiverDeps) {
  const pending = createPendingWork();
  const track = (promise: Promise<unknown>) => void pending.track(promise);

  async function recordVerified(input: CallbackInput): Promise<CallbackOutcome> {
    const row = await settledRow(() => repository.findByArticleId(input.articleId));
    if (row) {
      return recordCallback(
        input,
        row,
        { apply: (event) => repository.apply(row, event), latest: () => repository.findByArticleId(input.articleId), moved: worker.wake },
        config
      );
    }
    // A part of a segmented narration: its article moves on once every part is in (or one failed).
    const part = await settledRow(() => parts.findByArticleId(input.articleId));
    if (!part) return { status: 'ignored', reason: 'no narration awaits this article' };
    return recordCallback(
      input,
      part,
      {
        apply: (event) => parts.apply(part, event),
        latest: () => parts.findByArticleId(input.articleId),
        moved: (status) => {
          if (status === 'storing' && input.audioFile && input.srtFile)
            worker.fetchPart({ audioFile: input.audioFile, srtFile: input.srtFile });
          if (status === 'storing' || status === 'failed') track(worker.settle(part.narrationId).then(worker.wake));
          else worker.wake();
        },
      },
      config
    );
  }

  return {
    /** Verifies and records a callback; storing its files happens after the answer. */
    async receive(input: CallbackInput): Promise<CallbackOutcome> {
      if (!config.apiKey || !verifyCallbackSignature(config.apiKey, input)) return { status: 'unauthorized' };
      const outcome = await recordVerified(input);
      // Settled whatever the row made of it (a cancelled article's callback still says what was charged).
      // A refund settles before the answer, so a failure's 500 makes the service resend; a result settles
      // after it, off the service's path. A callback being checked settles nothing yet (worker.ts).
      if (outcome.status === 'checking') return outcome;
      const withFiles = Boolean(input.audioFile && input.srtFile);
      const settle = () => ledger.callbackReceived(input.articleId, withFiles, new Date());
      if (!withFiles) await settle();
      else
        track(
          settle().catch((error) =>
            strapi.log.error(`[speech] ${input.articleId}: the ledger did not settle its result: ${(error as Error).message}`)
          )
        );
      return outcome;
    },
    /** Resolves once what callbacks left running after their answer has ended (shutdown, tests). */
    settled: pending.settled,
  };
}
