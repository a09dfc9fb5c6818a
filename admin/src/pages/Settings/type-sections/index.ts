import { NarrationModeSection } from './NarrationModeSection';
import { PassageVoicesSection } from './PassageVoicesSection';
import { ReadingSection } from './ReadingSection';
import type { TypeSection } from './section';
import { VerificationSection } from './VerificationSection';

/** The sections of a narrated type's settings, in the order they show: a feature adds its own here. */
export const TYPE_SECTIONS: readonly TypeSection[] = [
  { id: 'reading', Section: ReadingSection },
  { id: 'passage-voices', Section: PassageVoicesSection },
  { id: 'verification', Section: VerificationSection },
  { id: 'narration-mode', Section: NarrationModeSection },
];

export type { TypeField, TypeSection, TypeSectionProps } from './section';
