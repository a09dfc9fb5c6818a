import type { NarrationMode } from '../../../../shared/contracts/settings';
import type { TextHeading } from '../../subtitles';
import type { ContentVersion, NarrationRow } from './narration-row';
import type { PartToNarrate } from './part-plan';

/** A narration's document as it would be narrated now: what is submitted, and the text its chapters come from. */
export interface LiveVersion extends ContentVersion {
  text: string;
  headings: TextHeading[];
  mode: NarrationMode;
  parts: PartToNarrate[];
}

/**
 * Reads a narration's live version; null when its document is no longer published or no longer
 * narrated. What an article means is narration's to say: the queue receives this function and
 * imports nothing of narration.
 */
export type DescribeLive = (narration: NarrationRow) => Promise<LiveVersion | null>;
