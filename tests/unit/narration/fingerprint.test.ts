import { createHash } from 'node:crypto';

import { narrationFingerprint } from '../../../server/src/narration/domain/fingerprint';

const base = { text: 'Title.\n\nBody text.', voiceId: 'voice-1', preprocessType: '0' as const };

describe('narrationFingerprint', () => {
  it('is a lowercase SHA-256 hex digest', () => {
    expect(narrationFingerprint(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is stable for the same input', () => {
    expect(narrationFingerprint({ ...base })).toBe(narrationFingerprint(base));
  });

  it('matches its documented encoding (a JSON array with a scheme tag)', () => {
    const expected = createHash('sha256')
      .update(JSON.stringify(['narration-fingerprint/v1', base.text, base.voiceId, base.preprocessType]))
      .digest('hex');
    expect(narrationFingerprint(base)).toBe(expected);
  });

  it('changes when the text changes, even by whitespace', () => {
    expect(narrationFingerprint({ ...base, text: 'Title.\n\nBody text!' })).not.toBe(narrationFingerprint(base));
    expect(narrationFingerprint({ ...base, text: `${base.text} ` })).not.toBe(narrationFingerprint(base));
  });

  it('changes when the voice changes', () => {
    expect(narrationFingerprint({ ...base, voiceId: 'voice-2' })).not.toBe(narrationFingerprint(base));
  });

  it('changes when the preprocess type changes', () => {
    expect(narrationFingerprint({ ...base, preprocessType: '2' })).not.toBe(narrationFingerprint(base));
  });

  it('is unambiguous about where one part ends and the next begins', () => {
    const a = narrationFingerprint({ text: 'a|b', voiceId: 'c', preprocessType: '0' });
    const b = narrationFingerprint({ text: 'a', voiceId: 'b|c', preprocessType: '0' });
    const c = narrationFingerprint({ text: 'a","b', voiceId: 'c', preprocessType: '0' });
    const d = narrationFingerprint({ text: 'a', voiceId: 'b","c', preprocessType: '0' });
    expect(new Set([a, b, c, d]).size).toBe(4);
  });

  it('handles Arabic and emoji text', () => {
    const arabic = narrationFingerprint({ ...base, text: 'مرحبا 👋' });
    expect(arabic).toMatch(/^[0-9a-f]{64}$/);
    expect(arabic).not.toBe(narrationFingerprint({ ...base, text: 'مرحبا' }));
  });

  it('rejects an invalid preprocess type instead of hashing it', () => {
    expect(() => narrationFingerprint({ ...base, preprocessType: 0 as unknown as '0' })).toThrow(TypeError);
  });
});
