/**
 * The credits side of a voice or paragraph preview (createPreviewAccount in credits/budget.service.ts): asked before a
 * request goes out (the budget may refuse it by throwing), and told what the service charged after.
 * A preview served from the cache asks nothing and is told nothing: it cost nothing.
 */
export interface PreviewAccount {
  beforeGenerating(characters: number): Promise<void>;
  generated(speech: { characters: number; creditsUsed?: number; creditsRemaining?: number }): Promise<void>;
}
