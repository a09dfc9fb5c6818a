import { z } from 'zod/v3';
import type { SpeechSettings } from '../../../shared/contracts/settings';
import { localeCode } from '../utils';

/** A voice id as sent to the service: non-empty, no surrounding spaces. */
export const voiceId = z.string().trim().min(1, 'must name a voice').max(200);

/** Default voice per locale (`{ ar: 'ar-female-1' }`): an article in that locale is read in it unless it has its own. */
export const localeVoicesSchema = z.record(localeCode, voiceId).refine((map) => Object.keys(map).length <= 500, 'at most 500 locales');

const voiceSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  language: z.string().optional(),
  gender: z.string().optional(),
});

/** The voices' slice of the configuration file: the default voices, and where the list editors choose from comes from. */
export const voicesConfigShape = {
  defaultVoiceId: z.string().default(''),
  localeVoices: localeVoicesSchema.default({}),
  /** The voice of quotes by locale, for types with passage voices (docs/passage-voices.md). */
  quoteVoices: localeVoicesSchema.default({}),
  /** Voice source: the service's voice endpoint, or the list below. */
  voiceSource: z.enum(['service', 'config']).default('service'),
  voicesPath: z.string().startsWith('/').default('/api/v1/voices'),
  voices: z.array(voiceSchema).default([]),
};
export type VoicesConfig = z.output<z.ZodObject<typeof voicesConfigShape>>;

/** What an editor may change of the voices in Settings -> Speech. */
export const voicesSettingsShape = {
  defaultVoiceId: z.string().min(1).max(200),
  /** Replaces the file's whole map (an editor removes a locale's voice by leaving it out). */
  localeVoices: localeVoicesSchema,
  /** Replaces the file's whole map, as localeVoices. */
  quoteVoices: localeVoicesSchema,
};
export type VoicesSettings = Partial<z.output<z.ZodObject<typeof voicesSettingsShape>>>;

/** The voices in effect: what was saved from the admin, over the file. */
export function voicesInEffect(
  file: VoicesConfig,
  saved: VoicesSettings
): Pick<SpeechSettings, 'defaultVoiceId' | 'localeVoices' | 'quoteVoices'> {
  return {
    defaultVoiceId: saved.defaultVoiceId ?? file.defaultVoiceId,
    localeVoices: saved.localeVoices ?? file.localeVoices,
    quoteVoices: saved.quoteVoices ?? file.quoteVoices,
  };
}
