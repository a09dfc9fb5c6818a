import type { Core } from '@strapi/strapi';
import { createNarrationService, type NarrationService } from './narration';

export default {
  narration: createNarrationService,
};

/** Typed access to the plugin's narration service. */
export function narrationService(strapi: Core.Strapi): NarrationService {
  return strapi.plugin('speech').service('narration') as NarrationService;
}
