import type {
  ContentTypeDescription,
  TypeSettings,
  FileTypeSettings,
  GetNarratedTypesResponse,
  ServerFeatures,
} from '../../../shared/contracts/settings';

/** What Settings -> Speech and the content manager are told (shared/contracts/settings.ts). Pure: no Strapi, no I/O. */

/** What this server offers the admin. */
export const SERVER_FEATURES: ServerFeatures = { voicePreview: true, transcription: true };

/** The parts of a content type's schema the settings page describes. */
export interface DescribedSchema {
  uid: string;
  kind?: string;
  info?: { displayName?: unknown };
  options?: { draftAndPublish?: boolean };
  pluginOptions?: unknown;
  attributes: Record<string, { type: string }>;
}

/** A site content type as the settings page offers it; `narratableFields` are its text fields that are not private. */
export function describeContentType(type: DescribedSchema, narratableFields: string[]): ContentTypeDescription {
  return {
    uid: type.uid,
    displayName: (type.info?.displayName as string) ?? type.uid,
    kind: type.kind === 'singleType' ? 'singleType' : 'collectionType',
    draftAndPublish: Boolean(type.options?.draftAndPublish),
    localized: Boolean((type.pluginOptions as { i18n?: { localized?: boolean } } | undefined)?.i18n?.localized),
    // The only fields a narration may read.
    fields: narratableFields.map((name) => ({ name, type: type.attributes[name].type })),
  };
}

/**
 * What the content manager needs to decide where to show narration UI: each narrated type's
 * trigger, and the server's features.
 */
export function narratedTypesView(contentTypes: Record<string, Pick<TypeSettings, 'trigger'>>): GetNarratedTypesResponse {
  return {
    contentTypes: Object.fromEntries(Object.entries(contentTypes).map(([uid, typeSettings]) => [uid, { trigger: typeSettings.trigger }])),
    features: SERVER_FEATURES,
  };
}

/**
 * The configuration file's values of the fields a saved type leaves to the file, for every type of
 * the file: what the settings page need not send back. Only these fields are picked, never the
 * file's entry as it stands (nothing else of the file is the admin's to read).
 */
export function fileTypesView(fileTypes: Readonly<Record<string, TypeSettings>>): Record<string, FileTypeSettings> {
  return Object.fromEntries(
    Object.entries(fileTypes).map(
      ([uid, { skipBlocks, authorField, narrationMode, segmentCharacters, verify, verification, passageVoices }]) => [
        uid,
        {
          ...(skipBlocks ? { skipBlocks: [...skipBlocks] } : {}),
          ...(authorField ? { authorField } : {}),
          ...(narrationMode ? { narrationMode } : {}),
          ...(segmentCharacters != null ? { segmentCharacters } : {}),
          ...(verify !== undefined ? { verify } : {}),
          ...(verification ? { verification: { ...verification } } : {}),
          ...(passageVoices !== undefined ? { passageVoices } : {}),
        },
      ]
    )
  );
}
