import { RateLimitExceededError, type SpeechClient, type SttJob } from '../../../server/src/speech-client';
import { createPoller } from '../../../server/src/speech-to-text/poller';
import type { TranscriptionRows, TranscriptionRow } from '../../../server/src/speech-to-text/transcription-rows';

/** The poller against an in-memory repository with the same claim semantics (lease + active status). */

function row(id: number, overrides: Partial<TranscriptionRow> = {}): TranscriptionRow {
  return {
    id,
    documentId: `d${id}`,
    submittedById: 1,
    submittedByName: 'editor',
    fileName: 'a.mp3',
    fileSize: 10,
    mimeType: 'audio/mpeg',
    language: 'ar-JO',
    outputFormat: 'json',
    jobId: `job-${id}`,
    status: 'queued',
    serviceStatus: 'queued',
    result: null,
    error: null,
    errorCode: null,
    nextPollAt: null,
    pollLeaseOwner: null,
    leaseExpiresAt: null,
    pollErrors: 0,
    lastPollError: null,
    submittedAt: new Date(0).toISOString(),
    completedAt: null,
    createdAt: new Date(0).toISOString(),
    updatedAt: new Date(0).toISOString(),
    ...overrides,
  };
}

function memoryRepository(rows: TranscriptionRow[]) {
  const active = (r: TranscriptionRow) => r.status === 'queued' || r.status === 'processing';
  const free = (r: TranscriptionRow, now: Date) => !r.pollLeaseOwner || !r.leaseExpiresAt || new Date(r.leaseExpiresAt) < now;
  const repo: Partial<TranscriptionRows> = {
    async duePolls(now, limit) {
      return rows
        .filter((r) => active(r) && (!r.nextPollAt || new Date(r.nextPollAt) <= now) && free(r, now))
        .slice(0, limit)
        .map((r) => ({ ...r }));
    },
    async claimForPoll(id, owner, leaseMs, now) {
      const r = rows.find((x) => x.id === id)!;
      if (!active(r) || !free(r, now)) return false;
      Object.assign(r, { pollLeaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs).toISOString() });
      return true;
    },
    async finishPoll(id, owner, patch) {
      const r = rows.find((x) => x.id === id)!;
      if (r.pollLeaseOwner !== owner || !active(r)) return false;
      const serialised = Object.fromEntries(Object.entries(patch).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));
      Object.assign(r, serialised, { pollLeaseOwner: null, leaseExpiresAt: null });
      return true;
    },
    async interruptedUploads() {
      return [];
    },
    async markFailed() {
      return true;
    },
    async nextDueAt() {
      return null;
    },
    async releaseLeases() {},
  };
  return repo as TranscriptionRows;
}

const strapi = { log: { info: jest.fn(), warn: jest.fn(), error: jest.fn() } } as any;
const settings = { pollMs: 5000, maxWaitMs: 86_400_000, pollLeaseMs: 45_000, uploadLeaseMs: 120_000 };

function clientAnswering(answer: (jobId: string) => Promise<SttJob>) {
  const calls: string[] = [];
  const client = {
    async getTranscriptionStatus(jobId: string) {
      calls.push(jobId);
      return answer(jobId);
    },
  } as unknown as SpeechClient;
  return { client, calls };
}

it('stores a completed result, keeps polling running jobs and records failures', async () => {
  const rows = [row(1), row(2), row(3, { status: 'processing' })];
  const { client } = clientAnswering(async (jobId) =>
    jobId === 'job-1'
      ? { job_id: jobId, status: 'completed', result: { subtitles: [{ start: 0, end: 1, text: 'hi' }] } }
      : jobId === 'job-2'
        ? { job_id: jobId, status: 'processing' }
        : ({ job_id: jobId, status: 'failed', error: { message: 'bad audio' } } as SttJob)
  );
  const now = new Date(10_000);
  const poller = createPoller({ strapi, repository: memoryRepository(rows), client: () => client, settings, owner: 'me', now: () => now });
  await poller.runOnce();

  expect(rows[0]).toMatchObject({
    status: 'completed',
    result: { subtitles: [{ start: 0, end: 1, text: 'hi' }] },
    pollLeaseOwner: null,
    completedAt: now.toISOString(),
  });
  expect(rows[1]).toMatchObject({
    status: 'processing',
    serviceStatus: 'processing',
    nextPollAt: new Date(15_000).toISOString(),
    pollLeaseOwner: null,
  });
  expect(rows[2]).toMatchObject({
    status: 'failed',
    serviceStatus: 'failed',
    errorCode: 'TRANSCRIPTION_FAILED',
    error: expect.stringContaining('bad audio'),
  });
});

it('does not poll a row another instance holds', async () => {
  const rows = [row(1, { pollLeaseOwner: 'other', leaseExpiresAt: new Date(60_000).toISOString() })];
  const { client, calls } = clientAnswering(async (jobId) => ({ job_id: jobId, status: 'queued' }));
  await createPoller({
    strapi,
    repository: memoryRepository(rows),
    client: () => client,
    settings,
    owner: 'me',
    now: () => new Date(10_000),
  }).runOnce();
  expect(calls).toEqual([]);
  expect(rows[0].pollLeaseOwner).toBe('other');
});

it('after a 429 polls no other job until Retry-After has passed', async () => {
  const rows = Array.from({ length: 6 }, (_, i) => row(i + 1));
  let clock = 10_000;
  const { client, calls } = clientAnswering(async () => {
    throw new RateLimitExceededError({ retryAfterMs: 30_000 });
  });
  const poller = createPoller({
    strapi,
    repository: memoryRepository(rows),
    client: () => client,
    settings,
    owner: 'me',
    now: () => new Date(clock),
  });
  await poller.runOnce();
  // The first wave (up to four in flight) is answered 429; nothing after it is asked.
  expect(calls.length).toBeLessThanOrEqual(4);
  const limited = rows.filter((r) => r.pollErrors === 1);
  expect(limited.length).toBe(calls.length);
  expect(limited.every((r) => r.nextPollAt === new Date(40_000).toISOString() && r.status === 'queued')).toBe(true);

  const before = calls.length;
  clock = 20_000;
  await poller.runOnce();
  expect(calls.length).toBe(before);
});
