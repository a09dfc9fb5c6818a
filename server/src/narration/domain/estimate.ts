/**
 * What a version would pay, as the estimate tells editors. A publish pays for what is not at hand
 * (in parts, the changed ones, planned as the worker plans); "Regenerate" pays for every distinct part.
 */
import type { PartsChanged, VoiceRequests } from '../../../../shared/contracts/narrations';
import type { NarrationMode } from '../../../../shared/contracts/settings';
import { partsAsked, type LiveVersion, type NarrationRow, type StoredPart } from '../../queue';

export interface EstimatedVersion {
  mode: NarrationMode;
  characters: number;
  credits: number;
  parts: readonly LiveVersion['parts'][number][];
  voiceId?: string;
}

export type EstimatedRow = Pick<NarrationRow, 'submissions' | 'narratedFingerprint'> & {
  segments?: readonly StoredPart[] | null;
  freshParts?: readonly string[] | null;
};

export interface VersionCosts {
  characters: number;
  credits: number;
  parts: PartsChanged | null;
  regeneration: { characters: number; credits: number };
  requestsByVoice: VoiceRequests[] | null;
}

export function versionCosts(
  version: EstimatedVersion,
  row: EstimatedRow | null | undefined,
  partRows: Parameters<typeof partsAsked>[2]
): VersionCosts {
  if (version.mode !== 'segmented') {
    const whole = { characters: version.characters, credits: version.credits };
    return { ...whole, parts: null, regeneration: whole, requestsByVoice: null };
  }
  const { changed, fresh } = partsAsked(version.parts, row, partRows);
  return {
    characters: changed.characters,
    credits: changed.credits,
    parts: { total: version.parts.length, changed: changed.create.length + changed.retry.length },
    regeneration: { characters: fresh.characters, credits: fresh.credits },
    requestsByVoice: requestsByVoice(version, [...changed.create, ...changed.retry]),
  };
}

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
