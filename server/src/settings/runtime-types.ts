import { z } from 'zod/v3';
import type { ContentTypeNarration } from '../../../shared/contracts/settings';
import { contentTypeNarrationSchema, segmentCharacters, type ContentTypeNarrationConfig } from './config-schema';

/**
 * The narrated types in effect: the configuration file's `contentTypes`, overridden type by type by
 * what was saved from the admin (`PUT /speech/settings`). Pure: no Strapi, no I/O.
 */

/**
 * A type's entry as saved from the admin: the file's shape, and `segmentCharacters: null` to clear
 * the type's own part size (the global one applies, even where the file gives the type a size).
 */
export const runtimeContentTypeSchema = contentTypeNarrationSchema.extend({
  segmentCharacters: segmentCharacters.nullable().optional(),
}) satisfies z.ZodType<ContentTypeNarration, z.ZodTypeDef, unknown>;
export type RuntimeContentTypeNarration = z.infer<typeof runtimeContentTypeSchema>;

/**
 * Every type of the file or the saved map. A saved entry replaces the file's, but what it leaves
 * out of the file's (`publicNarration`, which the settings page does not offer; what is read, the
 * author field, the narration mode and the part size, when a saved entry predates them) is kept.
 * A saved `segmentCharacters: null` stays null, over the file's size: the type has no size of its
 * own (the global one applies), and the settings page, shown it, sends the clear back.
 */
export function typesOverFile(
  file: Readonly<Record<string, ContentTypeNarrationConfig>>,
  saved: Readonly<Record<string, RuntimeContentTypeNarration>>
): Record<string, RuntimeContentTypeNarration> {
  const types: Record<string, RuntimeContentTypeNarration> = { ...file };
  for (const [uid, type] of Object.entries(saved)) {
    const fromFile = file[uid];
    const kept = {
      publicNarration: fromFile?.publicNarration,
      skipBlocks: fromFile?.skipBlocks,
      authorField: fromFile?.authorField,
      narrationMode: fromFile?.narrationMode,
      segmentCharacters: fromFile?.segmentCharacters,
    };
    types[uid] = { ...kept, ...type };
  }
  return types;
}
