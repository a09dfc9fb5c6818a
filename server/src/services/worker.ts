import type { Core } from '@strapi/strapi';
import { createWorker } from '../narration/worker';
import { getService } from '../utils';

/** The narration queue's worker (narration/worker.ts), wired to the plugin's services. */
export function createWorkerService({ strapi }: { strapi: Core.Strapi }) {
  const settings = getService('settings');
  const client = getService('speech-client');
  return createWorker({
    strapi,
    config: settings.config,
    repository: getService('jobs'),
    settings,
    voiceOverrides: getService('voice-overrides'),
    content: getService('content'),
    client: () => client,
    media: getService('media'),
    callbackUrl: () => settings.callbackUrl(),
  });
}
