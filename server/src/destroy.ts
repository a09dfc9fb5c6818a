import { getService } from './utils';

export default async () => {
  // Let an in-flight tick and after-commit enqueues finish before the database closes.
  await getService('verifier').stop();
  await getService('speech-to-text').stop();
  await getService('backfill').stop();
  await getService('narrations').stop();
  // What listening was counted in memory is written before the database closes.
  await getService('insights').stop();
  await getService('narration-webhooks').settle();
  getService('narration-webhooks').unregisterEvents();
  getService('budget').unregisterEvents();
};
