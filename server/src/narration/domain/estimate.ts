/**
 * What a version would pay, as the estimate tells editors (POST /speech/narrations/estimate, the
 * panel, the regenerate dialog, the bulk dialog). Pure: no Strapi, no I/O.
 *
 * - Publishing (or "narrate now") pays for what is not at hand: in parts, the changed parts only
 *   ("2 of 18 parts changed: 640 credits"), planned exactly as the worker plans them (part-plan.ts).
 * - "Regenerate" asks again, with regenerate: true, for the whole text: in parts, every part of the
 *   version (each distinct part once), unchanged ones included. A narration never generated is
 *   asked for as a publish would ask (states/content.ts): then regenerating pays what publishing pays.
 */
import type { PartsChanged, VoiceRequests } from '../../../../shared/contracts/narrations';
import type { NarrationMode } from '../../../../shared/contracts/settings';
import {
  generatedBefore,
  partsAtHand,
  planParts,
  type NarrationPartRow,
  type NarrationState,
  type PartToNarrate,
  type StoredPart,
} from '../../queue';

/** The version estimated (describeArticle's). */
export interface EstimatedVersion {
  mode: NarrationMode;
  /** The whole text's. */
  characters: number;
  credits: number;
  /** In parts: the version's parts in reading order; whole: none. */
  parts: readonly PartToNarrate[];
  /** The article's voice (a part without its own is read in it). */
  voiceId?: string;
}

/** The article's narration row, if it has one. */
export type EstimatedRow = Pick<NarrationState, 'submissions' | 'narratedFingerprint'> & {
  segments?: readonly StoredPart[] | null;
  freshParts?: readonly string[] | null;
};

export interface VersionCosts {
  /** What publishing would pay: the whole text, or in parts the changed parts. */
  characters: number;
  credits: number;
  /** In parts: how many would be asked for on a publish; null whole. */
  parts: PartsChanged | null;
  /** What "Regenerate" would pay. */
  regeneration: { characters: number; credits: number };
  /** Read in several voices (docs/passage-voices.md): the requests a publish would send, by voice; null in one voice. */
  requestsByVoice: VoiceRequests[] | null;
}

export function versionCosts(
  version: EstimatedVersion,
  row: EstimatedRow | null | undefined,
  partRows: readonly NarrationPartRow[]
): VersionCosts {
  if (version.mode !== 'segmented') {
    const whole = { characters: version.characters, credits: version.credits };
    return { ...whole, parts: null, regeneration: whole, requestsByVoice: null };
  }
  // In parts: only the parts neither stored nor at the service (nor on their way) would be paid.
  const changed = planParts(version.parts, row ? partsAtHand(row) : null, row ? partRows : []);
  // A fresh take: nothing stored or at the service is reused (plan-step.ts), each distinct part is paid once.
  const fresh = row && generatedBefore(row) ? planParts(version.parts, null, []) : changed;
  return {
    characters: changed.characters,
    credits: changed.credits,
    parts: { total: version.parts.length, changed: changed.create.length + changed.retry.length },
    regeneration: { characters: fresh.characters, credits: fresh.credits },
    requestsByVoice: requestsByVoice(version, [...changed.create, ...changed.retry]),
  };
}

/** The requests a publish would send, by voice, in order of first use; null when every part is in the article's voice. */
function requestsByVoice(
  version: Pick<EstimatedVersion, 'parts' | 'voiceId'>,
  asked: ReadonlyArray<{ characters: number; credits: number; voiceId?: string | null }>
): VoiceRequests[] | null {
  if (version.parts.every((part) => !part.voiceId || part.voiceId === version.voiceId)) return null;
  const byVoice = new Map<string, VoiceRequests>();
  // A part to create carries its voice; a part row asked again, the voice it was created with.
  for (const part of asked) {
    const voiceId = part.voiceId ?? version.voiceId ?? '';
    const sum = byVoice.get(voiceId) ?? { voiceId, requests: 0, characters: 0, credits: 0 };
    byVoice.set(voiceId, {
      voiceId,
      requests: sum.requests + 1,
      characters: sum.characters + part.characters,
      credits: sum.credits + part.credits,
    });
  }
  return [...byVoice.values()];
}
