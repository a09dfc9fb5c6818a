/** A narration's stored versions for the admin, newest first: each revision with what its requests spent and its check. Pure. */
import type { NarrationVersion } from '../../../../shared/contracts/narrations';
import type { NarrationRow } from '../../queue';

type StoredRevision = NonNullable<NarrationRow['revisions']>[number];

interface Spending {
  acceptedAt: string | Date;
  credits: number;
  outcome: string;
}

interface Check {
  createdAt: string | Date;
  status: string;
  wordAccuracy: number | null;
}

const time = (value: string | Date) => new Date(value).getTime();

/** The check of a version's audio: any mismatch, else any failure, else any still under way, else verified; the lowest share of words heard. */
function verdict(checks: readonly Check[]): NarrationVersion['verification'] {
  if (checks.length === 0) return null;
  const has = (status: string) => checks.some((check) => check.status === status);
  const status = has('mismatch')
    ? 'mismatch'
    : has('failed')
      ? 'failed'
      : checks.every((check) => check.status === 'verified')
        ? 'verified'
        : 'pending';
  const accuracies = checks.map((check) => check.wordAccuracy).filter((value): value is number => value !== null);
  return { status, wordAccuracy: accuracies.length ? Math.min(...accuracies) : null };
}

/**
 * A request belongs to the version stored after it was accepted; a check to the version stored
 * before it was made. `checks` null: the type does not verify.
 */
export function versionsView(
  revisions: readonly StoredRevision[],
  spending: readonly Spending[],
  checks: readonly Check[] | null
): NarrationVersion[] {
  return revisions.map((revision, index) => {
    const storedAt = time(revision.at);
    const previous = revisions[index + 1] ? time(revisions[index + 1]!.at) : -Infinity;
    const next = index > 0 ? time(revisions[index - 1]!.at) : Infinity;
    const credits = spending
      .filter((entry) => time(entry.acceptedAt) > previous && time(entry.acceptedAt) <= storedAt && entry.outcome !== 'refunded')
      .reduce((sum, entry) => sum + entry.credits, 0);
    const own = checks?.filter((check) => time(check.createdAt) >= storedAt && time(check.createdAt) < next) ?? null;
    return {
      at: revision.at,
      cause: revision.cause,
      changed: revision.changed,
      passages: revision.passages,
      credits,
      verification: own ? verdict(own) : null,
    };
  });
}
