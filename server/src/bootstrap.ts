import type { Core } from '@strapi/strapi';
import { PERMISSION_ACTIONS } from './permissions';
import { narrationService, transcriptionService } from './services';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  await strapi.service('admin::permission').actionProvider.registerMany(PERMISSION_ACTIONS as never);
  const narration = narrationService(strapi);
  if (!narration.config.apiKey) {
    strapi.log.warn('[speech] no API key configured (speech.config.apiKey): narration submissions will pause until one is set.');
  }
  await narration.start();
  await transcriptionService(strapi).start();
};
