import type { NarrationMode } from '../../../../shared/contracts/settings';
import type { TextHeading } from '../../subtitles';
import type { ContentVersion, NarrationRow } from './narration-row';
import type { PartToNarrate } from './part-plan';

export interface LiveVersion extends ContentVersion {
  text: string;
  headings: TextHeading[];
  mode: NarrationMode;
  parts: PartToNarrate[];
}

/** Null when the document is no longer published or narrated; narration supplies it, so the queue imports nothing of narration. */
export type DescribeLive = (narration: NarrationRow) => Promise<LiveVersion | null>;
