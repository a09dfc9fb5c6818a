import { versionsView } from '../../../server/src/narration/domain/versions-view';

const revisions = [
  { at: '2026-12-03T10:00:00.000Z', cause: 'verification' as const, changed: [], passages: 0 },
  { at: '2026-12-02T10:00:00.000Z', cause: 'edit' as const, changed: [{ start: 4, end: 9 }], passages: 2 },
  { at: '2026-12-01T10:00:00.000Z', cause: 'first' as const, changed: [], passages: 0 },
];

describe("a narration's versions for the admin", () => {
  it('charges each version the requests accepted since the one before it, refunds taken off', () => {
    const spending = [
      { acceptedAt: '2026-12-01T09:59:00.000Z', credits: 900, outcome: 'generated' },
      // A part refunded, then asked again: only the paid take counts.
      { acceptedAt: '2026-12-02T09:00:00.000Z', credits: 120, outcome: 'refunded' },
      { acceptedAt: '2026-12-02T09:10:00.000Z', credits: 120, outcome: 'generated' },
      { acceptedAt: '2026-12-02T09:20:00.000Z', credits: 80, outcome: 'generated' },
      { acceptedAt: '2026-12-03T09:00:00.000Z', credits: 900, outcome: 'generated' },
      // Accepted after the latest store: the next version's, not shown yet.
      { acceptedAt: '2026-12-03T11:00:00.000Z', credits: 900, outcome: 'pending' },
    ];
    expect(versionsView(revisions, spending, null).map((version) => version.credits)).toEqual([900, 200, 900]);
  });

  it('gives each version the checks made of its audio: any mismatch, else any failure, else under way, else verified; the lowest share', () => {
    const checks = [
      { createdAt: '2026-12-01T10:00:05.000Z', status: 'verified', wordAccuracy: 0.99 },
      { createdAt: '2026-12-02T10:00:05.000Z', status: 'verified', wordAccuracy: 0.97 },
      { createdAt: '2026-12-02T10:00:06.000Z', status: 'mismatch', wordAccuracy: 0.71 },
      { createdAt: '2026-12-03T10:00:05.000Z', status: 'transcribing', wordAccuracy: null },
    ];
    expect(versionsView(revisions, [], checks).map((version) => version.verification)).toEqual([
      { status: 'pending', wordAccuracy: null },
      { status: 'mismatch', wordAccuracy: 0.71 },
      { status: 'verified', wordAccuracy: 0.99 },
    ]);
    // A type that verifies, a version whose checks are gone: none; a type that does not: none either.
    expect(versionsView(revisions, [], [])[0]!.verification).toBeNull();
    expect(versionsView(revisions, [], null)[0]!.verification).toBeNull();
  });

  it('keeps what the revision says', () => {
    expect(versionsView(revisions, [], null)[1]).toEqual({
      at: '2026-12-02T10:00:00.000Z',
      cause: 'edit',
      changed: [{ start: 4, end: 9 }],
      passages: 2,
      credits: 0,
      verification: null,
    });
  });
});
