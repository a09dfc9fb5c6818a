import type { DescribeLive } from '../queue';
import type { SettingsService } from '../settings';
import type { ContentReader } from './content';
import type { VoiceOverrides } from './voice-overrides';

export interface LiveVersionDeps {
  settings: Pick<SettingsService, 'get'>;
  content: Pick<ContentReader, 'loadLive' | 'describe'>;
  voiceOverrides: Pick<VoiceOverrides, 'choices'>;
}

/** Null when the document is no longer published or no longer narrated. */
export function liveVersionReader({ settings, content, voiceOverrides }: LiveVersionDeps): DescribeLive {
  return async (narration) => {
    const current = await settings.get();
    const type = current.contentTypes[narration.contentType];
    const entry = type ? await content.loadLive(narration.contentType, narration.targetDocumentId, narration.targetLocale) : null;
    if (!type || !entry) return null;
    return content.describe(narration.contentType, entry, type, current, await voiceOverrides.choices(narration.articleId));
  };
}
