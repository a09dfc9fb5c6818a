import { setTimeout as delay } from 'node:timers/promises';
import type { Core } from '@strapi/strapi';
import { LRUCache } from 'lru-cache';
import type { ListeningEvent } from '../../../shared/contracts/insights';
import type { ContentApiAuth } from '../access';
import type { NarrationRow } from '../queue';
import type { NarrationViews } from '../narration';
import type { InsightsConfig } from './config';
import { createSerialRunner } from '../utils';
import { isAutomated } from './domain/bots';
import { addDays, utcDay } from './domain/day';
import { mayCountAsDownload } from './domain/downloads';
import { listenerHash, networkHash } from './domain/listener-hash';
import { listenerNetwork } from './domain/network';
import { ListeningTally, batchesToWrite, type ListeningTarget, type WriteLimits } from './domain/tally';
import type { InsightsRepository } from './insights.repository';

/**
 * Listening insights, counted in memory and flushed as daily totals. Nothing identifies a listener:
 * the address and user agent only go into a hash with the day's salt, deleted the next day.
 */

/** The route says it in a header, for whoever debugs a player. */
export type CountOutcome = 'counted' | 'capped' | 'probe' | 'automated' | 'off';

export interface Caller {
  address: string;
  userAgent: string | undefined;
}

/** Anonymous callers are all the Public role. */
export interface ListenerAccess {
  anonymous: boolean;
  authenticate: () => Promise<ContentApiAuth | null>;
}

/** On SQLite, whose driver answers synchronously, a transaction holds every request while it runs: keep them small. */
const WRITE_LIMITS: WriteLimits = { days: 5, uniques: 200 };
/** Time for the requests held by one transaction to be answered before the next; a stop does not wait. */
const WRITE_SPACING_MS = 100;

/** Jittered per lookup so narrations published together are not looked up again together. */
const PUBLIC_VIEW_MS = 10_000;
const publicViewTtl = () => Math.round(PUBLIC_VIEW_MS * (0.75 + Math.random() * 0.5));

export interface InsightsDeps {
  strapi: Core.Strapi;
  repository: InsightsRepository;
  config: InsightsConfig;
  views: () => NarrationViews;
  now?: () => Date;
  /** Seconds a flush that wrote something took (the metrics). */
  onFlushed?: (seconds: number) => void;
}

const targetOf = (row: NarrationRow | null): ListeningTarget | null =>
  row?.audio
    ? {
        articleId: row.articleId,
        contentType: row.contentType,
        documentId: row.targetDocumentId,
        locale: row.targetLocale,
        durationSeconds: row.durationSeconds == null ? null : Number(row.durationSeconds),
      }
    : null;

/** The tally flushed as daily totals every `flushSeconds` in small spaced transactions; the day's salt; what a new day forgets. */
function createFlusher({
  strapi,
  repository,
  config,
  now,
  tally,
  onFlushed,
}: Pick<InsightsDeps, 'strapi' | 'repository' | 'config' | 'onFlushed'> & { now: () => Date; tally: ListeningTally }) {
  let salt: { day: string; value: Promise<string> } | null = null;
  let lastDay: string | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;

  function saltOf(day: string): Promise<string> {
    if (salt?.day !== day) {
      const value = repository.saltOf(day, now());
      salt = { day, value };
      // A failed read is asked again by the next event, not remembered.
      value.catch(() => (salt = salt?.value === value ? null : salt));
    }
    return salt.value;
  }

  async function turnOfDay(day: string) {
    if (lastDay === day) return;
    if (salt && salt.day !== day) salt = null;
    await repository.forget(day, addDays(day, -1));
    await repository.pruneDays(addDays(day, -config.retentionDays));
    tally.forgetBefore(addDays(day, -1));
    lastDay = day;
  }

  async function flushPass() {
    const today = utcDay(now());
    await turnOfDay(today);
    if (tally.empty) return;
    const started = performance.now();
    await saltOf(today);
    const batches = batchesToWrite(tally.drain(), WRITE_LIMITS);
    const spacing = Math.min(WRITE_SPACING_MS, (config.flushSeconds * 1000) / (2 * batches.length));
    for (let index = 0; index < batches.length; index += 1) {
      // Requests that came in meanwhile are answered between two transactions; a stop writes without pausing.
      if (index > 0 && timer) await delay(spacing);
      try {
        await repository.write(batches[index], now(), today);
      } catch (error) {
        // Nothing counted is lost: what is not written goes back, added to what came in meanwhile.
        for (const unwritten of batches.slice(index)) tally.restore(unwritten);
        throw error;
      }
    }
    onFlushed?.((performance.now() - started) / 1000);
  }

  const runner = createSerialRunner(flushPass, {
    onError: (error) => strapi.log.warn(`[speech] listening insights could not be written yet, kept for the next try: ${error.message}`),
    isStopped: () => stopped,
  });

  return {
    saltOf,
    start() {
      if (!config.enabled || timer) return;
      stopped = false;
      timer = setInterval(() => void runner.runSoon(), config.flushSeconds * 1000);
      timer.unref?.();
    },

    /** A graceful stop loses nothing. */
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await runner.runSoon();
      stopped = true;
    },
  };
}

/** The narration an event is about, as its caller may see it. */
function createListenedLookup(views: InsightsDeps['views'], now: () => Date) {
  const perf = { now: () => now().getTime() };
  // The first anonymous caller's access answers for all: anonymous callers are all the Public role.
  const publicViews = new LRUCache<string, { target: ListeningTarget | null }, ListenerAccess>({
    max: 10_000,
    ttl: PUBLIC_VIEW_MS,
    perf,
    allowStale: true,
    allowStaleOnFetchRejection: true,
    fetchMethod: async (articleId, _stale, { context }) => ({
      target: targetOf(await views().findVisible(articleId, await context.authenticate())),
    }),
  });
  /** Kept apart from the narrations being listened to: made-up ids evict only their like. */
  const unlistenable = new LRUCache<string, true>({ max: 1_000, ttl: PUBLIC_VIEW_MS, perf });
  /**
   * As the caller may see it (the public routes' rule). An anonymous answer is the Public role's,
   * cached and shared by concurrent lookups, so a burst of events reads the database once.
   */
  async function listenedNarration(articleId: string, access: ListenerAccess): Promise<ListeningTarget | null> {
    if (!access.anonymous) {
      const auth = await access.authenticate();
      return auth ? targetOf(await views().findVisible(articleId, auth)) : null;
    }
    if (unlistenable.has(articleId)) return null;
    const view = await publicViews.fetch(articleId, { ttl: publicViewTtl(), context: access });
    if (view?.target) return view.target;
    publicViews.delete(articleId);
    unlistenable.set(articleId, true);
    return null;
  }

  return listenedNarration;
}

export function createInsightsService(deps: InsightsDeps) {
  const { config } = deps;
  const now = deps.now ?? (() => new Date());
  const tally = new ListeningTally();
  const flusher = createFlusher({ ...deps, now, tally });
  const listened = createListenedLookup(deps.views, now);

  async function hashOf(kind: 'listener' | 'download', caller: Caller, articleId: string) {
    const day = utcDay(now());
    const salt = await flusher.saltOf(day);
    const network = listenerNetwork(caller.address);
    return {
      day,
      hash: listenerHash({ salt, kind, network, userAgent: caller.userAgent ?? '', articleId }),
      network: networkHash({ salt, network, articleId }),
    };
  }

  return {
    start: flusher.start,
    stop: flusher.stop,

    /** Off and bots are answered before anything is read: a crawler's events cost no lookup. */
    async listen(event: ListeningEvent, caller: Caller, access: ListenerAccess): Promise<CountOutcome | 'not-found'> {
      if (!config.enabled) return 'off';
      if (isAutomated(caller.userAgent)) return 'automated';
      const target = await listened(event.articleId, access);
      if (!target) return 'not-found';
      const { day, hash, network } = await hashOf('listener', caller, target.articleId);
      return tally.listen(day, target, hash, event, network) ? 'counted' : 'capped';
    },

    /** A feed enclosure's request, by the IAB rules a redirecting server can apply (domain/downloads.ts). */
    async download(row: NarrationRow, request: { method: string; range: string | undefined }, caller: Caller): Promise<CountOutcome> {
      const target = targetOf(row);
      if (!config.enabled || !target) return 'off';
      if (!mayCountAsDownload(request.method, request.range)) return 'probe';
      if (isAutomated(caller.userAgent)) return 'automated';
      const { day, hash, network } = await hashOf('download', caller, target.articleId);
      return tally.download(day, target, hash, network) ? 'counted' : 'capped';
    },
  };
}
