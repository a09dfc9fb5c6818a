import { versionCosts, type EstimatedVersion } from '../../../server/src/narration/domain/estimate';
import type { PartToNarrate } from '../../../server/src/queue/domain/part-plan';
import { partRow, storedPart } from '../queue/fixtures';

/**
 * What the estimate says a version would pay (POST /speech/narrations/estimate, the panel, the
 * regenerate dialog): publishing pays for the changed parts only; "Regenerate" asks for every part
 * again (regenerate: true) and pays for them all.
 */

const part = (key: string, characters: number): PartToNarrate => ({ key, characters, credits: characters * 2, text: `text of ${key}` });

const segmented: EstimatedVersion = {
  mode: 'segmented',
  characters: 1_050,
  credits: 2_100,
  parts: [part('k1', 300), part('k2', 200), part('k3', 250), part('k2', 200), part('k4', 100)],
};
const narratedRow = { segments: [storedPart('k1'), storedPart('k2'), storedPart('k3')], submissions: 4, narratedFingerprint: 'fp-old' };

describe('the cost of a segmented version', () => {
  it('publishing pays the changed parts only ("1 of 5 parts changed"); regenerating pays every part, each key once', () => {
    const costs = versionCosts(segmented, narratedRow, []);
    expect(costs).toMatchObject({ characters: 100, credits: 200, parts: { total: 5, changed: 1 } });
    // k2 is read twice and generated once: 300 + 200 + 250 + 100 characters, x2 (AI preprocessing).
    expect(costs.regeneration).toEqual({ characters: 850, credits: 1_700 });
  });

  it('regenerating pays every part even when nothing changed, and parts already at the service are paid again', () => {
    const unchanged = { ...segmented, parts: segmented.parts.slice(0, 3) };
    const costs = versionCosts(unchanged, { ...narratedRow, segments: [storedPart('k1'), storedPart('k2')] }, [partRow('k3', 'storing')]);
    expect(costs).toMatchObject({ credits: 0, parts: { total: 3, changed: 0 } });
    expect(costs.regeneration).toEqual({ characters: 750, credits: 1_500 });
  });

  it('a narration never generated is asked for as a publish would be (not afresh): regenerating pays what publishing pays', () => {
    const never = versionCosts(segmented, { segments: null, submissions: 0, narratedFingerprint: null }, [partRow('k1', 'storing')]);
    expect(never.regeneration).toEqual({ characters: never.characters, credits: never.credits });
    expect(never.credits).toBe(1_100);
    const noRow = versionCosts(segmented, null, []);
    expect(noRow.regeneration).toEqual({ characters: 850, credits: 1_700 });
    expect(noRow).toMatchObject({ characters: 850, credits: 1_700 });
  });
});

describe('the cost of a whole version', () => {
  it('is the whole text, for a publish and a regenerate alike', () => {
    const whole: EstimatedVersion = { mode: 'whole', characters: 1_050, credits: 1_050, parts: [] };
    expect(versionCosts(whole, narratedRow, [])).toEqual({
      characters: 1_050,
      credits: 1_050,
      parts: null,
      regeneration: { characters: 1_050, credits: 1_050 },
      requestsByVoice: null,
    });
  });

  it('read in several voices, lists the requests a publish would send by voice, only those not at hand', () => {
    const part = (key: string, voiceId: string, characters: number) => ({ key, text: key, voiceId, characters, credits: characters });
    const version: EstimatedVersion = {
      mode: 'segmented',
      voiceId: 'ar-male-1',
      characters: 600,
      credits: 600,
      parts: [part('a1', 'ar-male-1', 200), part('e1', 'en-female-1', 100), part('a2', 'ar-male-1', 300)],
    };
    expect(versionCosts(version, null, []).requestsByVoice).toEqual([
      { voiceId: 'ar-male-1', requests: 2, characters: 500, credits: 500 },
      { voiceId: 'en-female-1', requests: 1, characters: 100, credits: 100 },
    ]);
    // The English part stored already: a publish sends the Arabic ones alone.
    const stored = { submissions: 1, narratedFingerprint: 'v1', segments: [storedPart('e1')] };
    expect(versionCosts(version, stored, []).requestsByVoice).toEqual([
      { voiceId: 'ar-male-1', requests: 2, characters: 500, credits: 500 },
    ]);
    // One voice: no list.
    expect(versionCosts({ ...version, parts: [part('a1', 'ar-male-1', 200)] }, null, []).requestsByVoice).toBeNull();
  });
});
