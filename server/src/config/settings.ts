import { z } from 'zod/v3';
import type { SpeechSettings } from '../../../shared/contracts/settings';
import { budgetChangesOver, budgetInEffect, creditsSettingsShape } from '../credits/config';
import { lexiconSettingsShape } from '../lexicon/config';
import { narrationInEffect, narrationSettingsShape } from '../narration/config';
import type { SettingsParts } from '../settings/service';
import { verificationChangesOver, verificationInEffect, verificationSettingsShape } from '../verification/config';
import { voicesInEffect, voicesSettingsShape } from '../voices/config';
import type { PluginConfig } from './schema';

/** What an editor may change in Settings -> Speech, saved in the plugin store over the configuration file. */
export const runtimeSettingsSchema = z
  .object({
    ...voicesSettingsShape,
    ...narrationSettingsShape,
    ...lexiconSettingsShape,
    ...creditsSettingsShape,
    ...verificationSettingsShape,
  })
  .partial()
  .strict();
export type RuntimeSettings = z.infer<typeof runtimeSettingsSchema>;

export function runtimeSettingsParts(file: PluginConfig, hasDraftAndPublish: (uid: string) => boolean): SettingsParts<RuntimeSettings> {
  return {
    schema: runtimeSettingsSchema,
    // Each key given replaces the saved one, but the budget's and the verification's, which are changed one by one.
    combine: (saved, changes) => ({
      ...saved,
      ...changes,
      ...(changes.budget ? { budget: budgetChangesOver(saved.budget, changes.budget) } : {}),
      ...(changes.verification ? { verification: verificationChangesOver(saved.verification, changes.verification) } : {}),
    }),
    inEffect: (saved): SpeechSettings => ({
      ...voicesInEffect(file, saved),
      ...narrationInEffect(file, saved, hasDraftAndPublish),
      lexicon: saved.lexicon ?? [],
      budget: budgetInEffect(file.budget, saved.budget),
      verification: verificationInEffect(file.verification, saved.verification),
    }),
  };
}
