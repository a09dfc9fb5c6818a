import { BUDGET_REACHED, type LedgerKind } from '../../../shared/contracts/usage';
import { StatusError } from '../http/status-error';
import type { Origin } from './domain/cause';
import type { PreviewAccount } from './domain/preview';
import type { BudgetService } from './budget.service';
import type { LedgerService, NarratedTarget } from './ledger.service';

/**
 * The credits side of a voice or paragraph preview: the monthly budget is asked before the service
 * is (a preview over it is refused with 402 and the budget's reason, and nothing is sent), and the
 * ledger records what the service charged (its `Service-Credits-Used`, else the characters, which
 * is how speech generation counts).
 */
export interface PreviewCharge {
  kind: Extract<LedgerKind, 'voice-preview' | 'paragraph-preview'>;
  origin: Origin;
  voiceId: string;
  /** The article a paragraph preview reads from. */
  target?: Omit<NarratedTarget, 'kind' | 'narrationId'> | null;
}

export type { PreviewAccount };

export function createPreviewAccount(
  services: { budget: Pick<BudgetService, 'check'>; ledger: Pick<LedgerService, 'previewGenerated'> },
  { kind, origin, voiceId, target = null }: PreviewCharge
): PreviewAccount {
  return {
    async beforeGenerating(characters) {
      const check = await services.budget.check(
        {
          articleId: target?.articleId ?? `preview:${voiceId}`,
          // Counted against the site's budget only: a type's own limit is for its narrations.
          contentType: null,
          documentId: target?.targetDocumentId ?? null,
          locale: target?.targetLocale ?? null,
          title: target?.title ?? null,
          credits: characters,
        },
        new Date()
      );
      if (check.hold) throw new StatusError(402, 'BudgetReachedError', check.reason, { code: BUDGET_REACHED });
    },
    async generated(speech) {
      await services.ledger.previewGenerated({
        kind,
        origin,
        voiceId,
        characters: speech.characters,
        credits: speech.creditsUsed ?? speech.characters,
        target,
        creditsRemaining: speech.creditsRemaining,
        at: new Date(),
      });
    },
  };
}
