import type { Core } from '@strapi/strapi';
import { narrationService } from './services';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  // Let an in-flight tick and after-commit enqueues finish before the database closes.
  await narrationService(strapi).stop();
};
