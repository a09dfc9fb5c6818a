import type { Core } from '@strapi/strapi';
import { createNarrationService, type NarrationService } from './narration';
import { createTranscriptionService, type TranscriptionService } from './transcription';

export default {
  narration: createNarrationService,
  transcription: createTranscriptionService,
};

/** Typed access to the plugin's narration service. */
export function narrationService(strapi: Core.Strapi): NarrationService {
  return strapi.plugin('speech').service('narration') as NarrationService;
}

/** Typed access to the plugin's transcription (speech to text, speech generation) service. */
export function transcriptionService(strapi: Core.Strapi): TranscriptionService {
  return strapi.plugin('speech').service('transcription') as TranscriptionService;
}
