import type { Core } from '@strapi/strapi';
import { createNarrationService, type NarrationService } from './narration';
import { createTranscriptionService, type TranscriptionService } from './transcription';
import { createContentApiAccess, type ContentApiAccess } from '../access/content-api-access';
import { createDocumentPermissions, type DocumentPermissions } from '../access/document-permissions';

export default {
  narration: createNarrationService,
  transcription: createTranscriptionService,
  'document-permissions': ({ strapi }: { strapi: Core.Strapi }) => createDocumentPermissions(strapi),
  'content-api-access': ({ strapi }: { strapi: Core.Strapi }) => createContentApiAccess(strapi),
};

/** The Content Manager's permissions, applied to the documents the admin routes act on. */
export function documentPermissions(strapi: Core.Strapi): DocumentPermissions {
  return strapi.plugin('speech').service('document-permissions') as DocumentPermissions;
}

/** Who may read narrations through the content API (REST and GraphQL). */
export function contentApiAccess(strapi: Core.Strapi): ContentApiAccess {
  return strapi.plugin('speech').service('content-api-access') as ContentApiAccess;
}

/** Typed access to the plugin's narration service. */
export function narrationService(strapi: Core.Strapi): NarrationService {
  return strapi.plugin('speech').service('narration') as NarrationService;
}

/** Typed access to the plugin's transcription (speech to text, speech generation) service. */
export function transcriptionService(strapi: Core.Strapi): TranscriptionService {
  return strapi.plugin('speech').service('transcription') as TranscriptionService;
}
