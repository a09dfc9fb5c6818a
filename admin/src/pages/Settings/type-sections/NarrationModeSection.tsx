import { NarrationModeFields } from './NarrationModeFields';
import type { TypeSectionProps } from './section';

/** Segmented narration (docs/segmented-narration.md): whole or in parts, and the type's own part size. */
export function NarrationModeSection({ type, form, disabled, error, update, segmentCharacters }: TypeSectionProps) {
  if (segmentCharacters === undefined) return null;
  return (
    <NarrationModeFields
      uid={type.uid}
      form={form}
      globalSize={segmentCharacters}
      disabled={disabled}
      errors={{ narrationMode: error('narrationMode'), segmentCharacters: error('segmentCharacters') }}
      onChange={update}
    />
  );
}
