import type {
  ContentTypeDescription,
  TypeSettings,
  FileTypeSettings,
  GetNarratedTypesResponse,
  ServerFeatures,
} from '../../../shared/contracts/settings';

export const SERVER_FEATURES: ServerFeatures = { voicePreview: true, transcription: true };

export interface DescribedSchema {
  uid: string;
  kind?: string;
  info?: { displayName?: unknown };
  options?: { draftAndPublish?: boolean };
  pluginOptions?: unknown;
  attributes: Record<string, { type: string }>;
}

/** `narratableFields`: its text fields that are not private. */
export function describeContentType(type: DescribedSchema, narratableFields: string[]): ContentTypeDescription {
  return {
    uid: type.uid,
    displayName: (type.info?.displayName as string) ?? type.uid,
    kind: type.kind === 'singleType' ? 'singleType' : 'collectionType',
    draftAndPublish: Boolean(type.options?.draftAndPublish),
    localized: Boolean((type.pluginOptions as { i18n?: { localized?: boolean } } | undefined)?.i18n?.localized),
    fields: narratableFields.map((name) => ({ name, type: type.attributes[name].type })),
  };
}

export function narratedTypesView(contentTypes: Record<string, Pick<TypeSettings, 'trigger'>>): GetNarratedTypesResponse {
  return {
    contentTypes: Object.fromEntries(Object.entries(contentTypes).map(([uid, typeSettings]) => [uid, { trigger: typeSettings.trigger }])),
    features: SERVER_FEATURES,
  };
}

/** Only the fields a saved type leaves to the file, never the file's whole entry (the rest is not the admin's to read). */
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
