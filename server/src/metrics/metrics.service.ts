import { timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CommittedChange, Queue } from '../queue';
import type { MetricsConfig } from './config';
import { observationOf } from './domain/observations';
import { NARRATION_STATUSES } from '../../../shared/contracts/narrations';

/** Credits and checks as the ledger and the verifier keep them, read at each scrape. */
export interface MetricsDeps {
  config: MetricsConfig;
  queue: Pick<Queue, 'reads'>;
  /** Credits spent ever, by the ledger (refunds taken off). */
  creditsSpent: () => Promise<number>;
  /** Checks by speech to text the plugin keeps (92 days), by outcome, and those under way. */
  checks: () => Promise<{ verified: number; mismatches: number; failed: number; underWay: number }>;
}

/** Read from the database at each scrape (the queue's counts once for both of its gauges), so every instance reports the same figures. */
function databaseGauges(registry: Registry, { queue, creditsSpent, checks }: Omit<MetricsDeps, 'config'>) {
  const gauge = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });
  const depth = gauge('speech_queue_depth', 'Narrations by queue status', ['status']);
  const inFlight = gauge(
    'speech_generations_in_flight',
    'Narrations submitted and awaiting the service (submitting or awaiting its callback)'
  );
  const credits = gauge('speech_credits_spent', 'Credits the ledger records as spent, ever (refunds taken off)');
  const verifications = gauge('speech_verification_checks', 'Checks by speech to text kept (92 days) by outcome, and those under way', [
    'outcome',
  ]);

  return async function refresh(): Promise<void> {
    const [counts, spent, checked] = await Promise.all([queue.reads.countByStatus(), creditsSpent(), checks()]);
    for (const status of NARRATION_STATUSES) depth.set({ status }, counts[status] ?? 0);
    inFlight.set((counts.submitting ?? 0) + (counts.awaiting_callback ?? 0));
    credits.set(spent);
    verifications.set({ outcome: 'verified' }, checked.verified);
    verifications.set({ outcome: 'mismatch' }, checked.mismatches);
    verifications.set({ outcome: 'failed' }, checked.failed);
    verifications.set({ outcome: 'under_way' }, checked.underWay);
  };
}

/**
 * The plugin's Prometheus metrics, in a registry of its own (never prom-client's global one, which
 * the host's app may use). Counters are this instance's; the database's figures are read at each scrape.
 */
export function createMetrics({ config, queue, creditsSpent, checks }: MetricsDeps) {
  const registry = new Registry();
  const refreshDatabaseGauges = databaseGauges(registry, { queue, creditsSpent, checks });
  const submissions = new Counter({
    name: 'speech_submissions_total',
    help: 'Submissions to the speech service by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const callbacks = new Histogram({
    name: 'speech_callback_latency_seconds',
    help: "From a submission's acceptance to its signed callback",
    labelNames: ['with_files'],
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800],
    registers: [registry],
  });
  const stores = new Counter({
    name: 'speech_stores_total',
    help: 'Results stored into the Media Library, deferred or failed',
    labelNames: ['outcome'],
    registers: [registry],
  });

  const insightsEvents = new Counter({
    name: 'speech_insights_events_total',
    help: "The player's listening events by outcome (counted, capped, automated, off, not-found, refused)",
    labelNames: ['outcome'],
    registers: [registry],
  });
  const flushes = new Histogram({
    name: 'speech_insights_flush_seconds',
    help: 'How long a flush of listening totals took',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  return {
    enabled: config.enabled,

    insightsEvent(outcome: string): void {
      if (config.enabled) insightsEvents.inc({ outcome });
    },

    insightsFlushed(seconds: number): void {
      if (config.enabled) flushes.observe(seconds);
    },
    contentType: registry.contentType,

    /** Called for each committed change of a narration row; never throws into the queue. */
    changeCommitted(change: CommittedChange): void {
      if (!config.enabled) return;
      const observation = observationOf(change);
      if (observation?.kind === 'submission') submissions.inc({ outcome: observation.outcome });
      else if (observation?.kind === 'callback' && observation.latencySeconds !== null)
        callbacks.observe({ with_files: String(observation.withFiles) }, observation.latencySeconds);
      else if (observation?.kind === 'store') stores.inc({ outcome: observation.outcome });
    },

    /** The bearer token, compared in constant time. */
    authorized(header: string | undefined): boolean {
      const token = config.token;
      const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1];
      if (!token || !given) return false;
      const [a, b] = [Buffer.from(given), Buffer.from(token)];
      return a.length === b.length && timingSafeEqual(a, b);
    },

    async render(): Promise<string> {
      await refreshDatabaseGauges();
      return registry.metrics();
    },
  };
}

export type MetricsService = ReturnType<typeof createMetrics>;
