import type { Core } from '@strapi/strapi';
import type { DescribeLive, NarrationRow, Queue } from '../queue';
import type { SettingsService } from '../settings';
import type { VoicesService } from '../voices';
import type { CheckRows } from './check-rows';
import type { CheckRow } from './domain/check';
import { afterSweep, currentSweep, isChecked, sweepSince, type SweepState } from './domain/sweep';
import { audioToCheck, wasRetaken } from './domain/view';

/** Stores looked at per pass. */
const BATCH = 20;
const STORE_KEY = 'verification';

export interface CheckFinderDeps {
  strapi: Core.Strapi;
  rows: CheckRows;
  narrations: Pick<Queue['reads'], 'storedSince'>;
  settings: Pick<SettingsService, 'get'>;
  describeLive: DescribeLive;
  voices: Pick<VoicesService, 'check'>;
  now: () => Date;
  /** The pass left stores behind: one more right after it. */
  requestRerun: () => void;
}

/**
 * Finds the stores of the types that verify and gives each audio a check row, with the text that
 * was sent for it. How far each type's stores were looked at is kept in the plugin store
 * (domain/sweep.ts), so a restart carries on.
 */
export function createCheckFinder(deps: CheckFinderDeps) {
  const { strapi, rows, narrations, now } = deps;
  const store = () => strapi.store({ type: 'plugin', name: 'speech' });

  /** The language the audio is spoken in: its voice's, else the article's locale; null leaves the service's default. */
  async function languageOf(voiceId: string, locale: string | null): Promise<string | null> {
    const voice = await deps.voices.check(voiceId, locale).catch(() => null);
    return voice?.language ?? locale;
  }

  /** Gives a stored narration a check for each of its audio not checked yet, with the text that was sent for it. */
  async function addChecks(narration: NarrationRow, existing: CheckRow[]) {
    const audio = audioToCheck(narration);
    const current = new Set(audio.map((item) => item.audioKey));
    // A part regenerated after its mismatch keeps its key: its audio is new once stored again.
    const retaken = existing.filter((row) => current.has(row.audioKey) && wasRetaken(row, narration));
    const known = new Set(existing.filter((row) => !retaken.includes(row)).map((row) => row.audioKey));
    // A pass looks at recent stores again: it writes only when a store replaced audio.
    if (existing.some((row) => !current.has(row.audioKey))) await rows.retireOtherThan(narration.id, [...current]);
    await rows.retire(retaken.map((row) => row.id));
    const missing = audio.filter((item) => !known.has(item.audioKey));
    if (missing.length === 0) return;
    const live = await deps.describeLive(narration);
    // Edited since this audio was made: what was sent is no longer known, and new audio is on its way.
    if (!live || live.fingerprint !== narration.narratedFingerprint) return;
    const at = now();
    for (const item of missing) {
      const part = item.part ? live.parts.find((candidate) => candidate.key === item.part!.key) : undefined;
      const text = item.part ? part?.text : live.text;
      if (text === undefined) continue;
      // A passage read in another language's voice is heard in that language.
      const language = await languageOf(part?.voiceId ?? live.voiceId, live.locale);
      await rows.create(
        {
          narrationId: narration.id,
          articleId: narration.articleId,
          audioKey: item.audioKey,
          partKey: item.part?.key ?? null,
          language,
          text,
        },
        at
      );
    }
    strapi.log.info(`[speech] ${narration.articleId}: ${missing.length} verification check(s) queued`);
  }

  /** The types this verifier saw verifying at its previous read of the settings (a type turned on since begins after it). */
  let lastRead: { at: Date; types: string[] } | undefined;
  let latestRead: { at: Date; types: string[] } | undefined;

  async function verifyingTypes(): Promise<string[]> {
    const settings = await deps.settings.get();
    const types = Object.entries(settings.contentTypes)
      .filter(([, type]) => type.verify)
      .map(([uid]) => uid);
    lastRead = latestRead;
    latestRead = { at: now(), types };
    return types;
  }

  async function savedSweep(): Promise<SweepState | null> {
    return ((await store().get({ key: STORE_KEY })) as SweepState | null) ?? null;
  }

  /** Looks at the stores of `types` since the last pass (domain/sweep.ts says which). */
  async function sweep(types: string[]) {
    const at = now();
    const saved = await savedSweep();
    const { state, changed } = currentSweep(saved, types, at, lastRead);
    const since = sweepSince(state);
    if (!since) {
      if (changed) await store().set({ key: STORE_KEY, value: state });
      return;
    }
    const stored = await narrations.storedSince(since, types, BATCH);
    const checked = stored.filter((narration) => isChecked(state, narration));
    const existing = await rows.forNarrations(checked.map((row) => row.id));
    for (const narration of checked) {
      await addChecks(
        narration,
        existing.filter((row) => row.narrationId === narration.id)
      );
    }
    const next = afterSweep(state, stored, stored.length < BATCH, at);
    if (changed || JSON.stringify(next) !== JSON.stringify(saved)) await store().set({ key: STORE_KEY, value: next });
    if (stored.length === BATCH) deps.requestRerun();
  }

  return { verifyingTypes, savedSweep, sweep };
}
