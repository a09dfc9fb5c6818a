import { z } from 'zod/v3';
import type { SpeechSettings } from '../../../shared/contracts/settings';
import { localeCode } from '../utils';

export const voiceId = z.string().trim().min(1, 'must name a voice').max(200);

/** An article in that locale is read in it unless it has its own. */
export const localeVoicesSchema = z.record(localeCode, voiceId).refine((map) => Object.keys(map).length <= 500, 'at most 500 locales');

const voiceSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  language: z.string().optional(),
  gender: z.string().optional(),
});

export const voicesConfigShape = {
  defaultVoiceId: z.string().default(''),
  localeVoices: localeVoicesSchema.default({}),
  /** For types with passage voices (docs/passage-voices.md). */
  quoteVoices: localeVoicesSchema.default({}),
  voiceSource: z.enum(['service', 'config']).default('service'),
  voicesPath: z.string().startsWith('/').default('/api/v1/voices'),
  voices: z.array(voiceSchema).default([]),
};
export type VoicesConfig = z.output<z.ZodObject<typeof voicesConfigShape>>;

export const voicesSettingsShape = {
  defaultVoiceId: z.string().min(1).max(200),
  /** Replaces the file's whole map, so an editor removes a locale's voice by leaving it out. */
  localeVoices: localeVoicesSchema,
  quoteVoices: localeVoicesSchema,
};
export type VoicesSettings = Partial<z.output<z.ZodObject<typeof voicesSettingsShape>>>;

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
