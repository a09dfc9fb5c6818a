import type { SettingsService } from '../settings/service';
import type { ContentReader } from './content';
import type { NarrationRow } from './jobs.repository';
import type { VoiceOverrides } from './voice-overrides';

/** What reading a job's live version takes: the settings, the content, the editor's voice. */
export interface LiveVersionDeps {
  settings: Pick<SettingsService, 'get'>;
  content: Pick<ContentReader, 'loadLive' | 'describe'>;
  voiceOverrides: Pick<VoiceOverrides, 'get'>;
}

/**
 * The live version of a job's document as it would be narrated now (for the submission, and for
 * the chapters of what is stored); null when it is no longer published or no longer narrated.
 */
export async function describeLive({ settings, content, voiceOverrides }: LiveVersionDeps, job: NarrationRow) {
  const current = await settings.get();
  const narration = current.contentTypes[job.contentType];
  const entry = narration ? await content.loadLive(job.contentType, job.targetDocumentId, job.targetLocale) : null;
  if (!narration || !entry) return null;
  return content.describe(job.contentType, entry, narration, current, await voiceOverrides.get(job.articleId));
}
