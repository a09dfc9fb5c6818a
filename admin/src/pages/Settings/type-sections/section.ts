import type { ComponentType } from 'react';
import type { ContentTypeDescription } from '../../../api/types';
import type { TypeForm } from './type-form';

/** A field of a type's settings the server may refuse with a message of its own. */
export type TypeField = 'trigger' | 'titleField' | 'textFields' | 'authorField' | 'narrationMode' | 'segmentCharacters';

export interface TypeSectionProps {
  type: ContentTypeDescription;
  form: TypeForm;
  disabled: boolean;
  error: (field: TypeField) => string | undefined;
  update: (patch: Partial<TypeForm>) => void;
  /** The global part size; undefined when the server does not offer parts (older servers). */
  segmentCharacters: number | null | undefined;
  /** What one regenerate of an average article of this type costs (null: no narration yet to average). */
  regenerateCredits: number | null;
}

/** One feature's part of a narrated type's settings: grid items of the type's box, shown while it is narrated. */
export interface TypeSection {
  id: string;
  Section: ComponentType<TypeSectionProps>;
}
