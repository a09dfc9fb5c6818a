import type { Core } from '@strapi/strapi';
import { pluginConfig } from './config';
import { invalidConfigError } from './settings/problems';
import { PERMISSION_ACTIONS } from './access/permissions';
import { getService } from './utils';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  await strapi.service('admin::permission').actionProvider.registerMany(PERMISSION_ACTIONS);
  const config = pluginConfig(strapi);
  const content = getService('content');
  // Content types are known only now: a type or field that can never be narrated stops Strapi
  // here, naming it, like any other bad value of the config.
  const problems = content.contentTypesProblems(config.contentTypes);
  if (problems.length) throw invalidConfigError(problems);
  if (!config.apiKey) {
    strapi.log.warn('[speech] no API key configured (speech.config.apiKey): narration submissions will pause until one is set.');
  }
  await getService('queue').prepare();
  // The languages a passage may be told in, before the first narration is described.
  await content.loadSiteLocales();
  getService('narration-webhooks').registerEvents();
  getService('budget').registerEvents();
  // The configuration file's budget may have changed while Strapi was down: what it held is checked again.
  if (config.worker) await getService('budget').releaseHeld();
  await getService('narrations').start();
  getService('backfill').startLoop();
  await getService('speech-to-text').start();
  getService('verifier').start();
  getService('insights').start();
  getService('feeds').checkArtwork();
};
