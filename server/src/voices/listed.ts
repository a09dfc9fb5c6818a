import { errors } from '@strapi/utils';
import { StatusError } from '../http';
import type { VoicesService } from './service';

export interface AskedVoice {
  path: string[];
  voiceId: string;
}

/** The service would refuse unlisted voices at narration, and a 403 there could pause the whole queue. */
export async function ensureVoicesListed(voices: Pick<VoicesService, 'notInList'>, asked: readonly AskedVoice[]): Promise<void> {
  if (asked.length === 0) return;
  let missing: string[];
  try {
    missing = await voices.notInList(asked.map((voice) => voice.voiceId));
  } catch (error) {
    throw new StatusError(
      503,
      'ServiceUnavailableError',
      `The voice list could not be read to check ${asked.map((voice) => `"${voice.voiceId}"`).join(', ')} (${(error as Error).message}). Try again when the speech service answers.`
    );
  }
  const refused = asked.filter((voice) => missing.includes(voice.voiceId));
  if (refused.length === 0) return;
  const problems = refused.map((voice) => ({ path: voice.path, message: `"${voice.voiceId}" is not in the voice list` }));
  throw new errors.ValidationError(problems.map((problem) => `${problem.path.join('.')}: ${problem.message}.`).join(' '), {
    errors: problems,
  });
}
