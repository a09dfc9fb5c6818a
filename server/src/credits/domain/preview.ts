/** A preview served from the cache asks nothing and is told nothing: it cost nothing. */
export interface PreviewAccount {
  beforeGenerating(characters: number): Promise<void>;
  generated(speech: { characters: number; creditsUsed?: number; creditsRemaining?: number }): Promise<void>;
}
