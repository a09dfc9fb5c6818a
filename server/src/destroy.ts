import type { Core } from '@strapi/strapi';
import { narrationService, transcriptionService } from './services';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  // Let an in-flight tick and after-commit enqueues finish before the database closes.
  await transcriptionService(strapi).stop();
  await narrationService(strapi).stop();
};
