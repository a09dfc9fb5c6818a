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
 * Listening insights: counts what the player reports and what the feeds' enclosures
 * serve, in memory, and flushes it every `insights.flushSeconds` (and when Strapi stops) as daily
 * totals per narration. Nothing that identifies a listener is kept: the address and the user agent
 * only go into a hash with the day's salt (insights.repository.ts deletes the salt the next day).
 */

/** Why an event or a download was not counted (the route says it in a header, for whoever debugs a player). */
export type CountOutcome = 'counted' | 'capped' | 'probe' | 'automated' | 'off';

export interface Caller {
  address: string;
  userAgent: string | undefined;
}

/** Who the caller is to the content API: anonymous (no credentials: the Public role), or as its credentials say. */
export interface ListenerAccess {
  anonymous: boolean;
  authenticate: () => Promise<ContentApiAuth | null>;
}

/**
 * What one flush transaction writes at most. On SQLite, whose driver answers synchronously, a
 * transaction holds every request while it runs: the bench's twenty narrations at 1,000 events/s
 * (~500 hashes) held them 25-37 ms in one transaction, five narrations' worth 7-21 ms (the commit's
 * sync to disk is much of it).
 */
const WRITE_LIMITS: WriteLimits = { days: 5, uniques: 200 };
/**
 * The pause between two transactions of a flush: time for the requests held by one to be answered
 * before the next holds them again (at 1,000 events/s Strapi uses ~80 % of a core, so a queue
 * that built up in 15 ms takes ~60 ms to drain). Shorter when a flush has many transactions, so that
 * it takes at most half the flush interval; a stop does not wait.
 */
const WRITE_SPACING_MS = 100;

/**
 * How long the Public role's view of a narration (visible, its target) is used by the events route
 * before it is looked up again, give or take a quarter, drawn per lookup so that the narrations
 * published together are not looked up again together (the bench's twenty at once held the events
 * ~200 ms on SQLite). Until the new answer comes, the old one is used.
 */
const PUBLIC_VIEW_MS = 10_000;
const publicViewTtl = () => Math.round(PUBLIC_VIEW_MS * (0.75 + Math.random() * 0.5));

export function createInsightsService(deps: {
  strapi: Core.Strapi;
  repository: InsightsRepository;
  config: InsightsConfig;
  views: () => NarrationViews;
  now?: () => Date;
}) {
  const { strapi, repository, config } = deps;
  const now = deps.now ?? (() => new Date());
  const tally = new ListeningTally();
  // The caches age on the service's own clock, as its days do: a test's clock, or the wall clock.
  const perf = { now: () => now().getTime() };
  // The first anonymous caller's access answers for all: anonymous callers are all the Public role.
  const publicViews = new LRUCache<string, { target: ListeningTarget | null }, ListenerAccess>({
    max: 10_000,
    ttl: PUBLIC_VIEW_MS,
    perf,
    allowStale: true,
    allowStaleOnFetchRejection: true,
    fetchMethod: async (articleId, _stale, { context }) => ({
      target: targetOf(await deps.views().findVisible(articleId, await context.authenticate())),
    }),
  });
  /** Articles the Public role cannot listen to (unknown, not live, no audio, closed), remembered as long as a view. */
  const unlistenable = new LRUCache<string, true>({ max: 1_000, ttl: PUBLIC_VIEW_MS, perf });
  let salt: { day: string; value: Promise<string> } | null = null;
  let lastDay: string | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;

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

  function saltOf(day: string): Promise<string> {
    if (salt?.day !== day) {
      const value = repository.saltOf(day, now());
      salt = { day, value };
      // A failed read is asked again by the next event, not remembered.
      value.catch(() => (salt = salt?.value === value ? null : salt));
    }
    return salt.value;
  }

  /** A new day: the old salts and the day before yesterday's hashes go, and the totals past retention. */
  async function turnOfDay(day: string) {
    if (lastDay === day) return;
    // Not even this process keeps an old day's salt.
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
    // Today's salt row exists before the flush takes turns on it (it is also what an event hashes with).
    await saltOf(today);
    const batches = batchesToWrite(tally.drain(), WRITE_LIMITS);
    const spacing = Math.min(WRITE_SPACING_MS, (config.flushSeconds * 1000) / (2 * batches.length));
    for (let index = 0; index < batches.length; index += 1) {
      // The requests that came in meanwhile are answered between two transactions, none held open;
      // a stop (its timer cleared) writes without pausing.
      if (index > 0 && timer) await delay(spacing);
      try {
        await repository.write(batches[index], now(), today);
      } catch (error) {
        // Nothing counted is lost: what is not written goes back, added to what came in meanwhile.
        for (const unwritten of batches.slice(index)) tally.restore(unwritten);
        throw error;
      }
    }
  }

  const runner = createSerialRunner(flushPass, {
    onError: (error) => strapi.log.warn(`[speech] listening insights could not be written yet, kept for the next try: ${error.message}`),
    isStopped: () => stopped,
  });

  async function hashOf(kind: 'listener' | 'download', caller: Caller, articleId: string) {
    const day = utcDay(now());
    const salt = await saltOf(day);
    const network = listenerNetwork(caller.address);
    return {
      day,
      hash: listenerHash({ salt, kind, network, userAgent: caller.userAgent ?? '', articleId }),
      network: networkHash({ salt, network, articleId }),
    };
  }

  /**
   * The narration a listening event is for, as the caller may see it (the public routes' rule):
   * null when it is unknown, not live, has no audio, or is not readable by the caller. An anonymous
   * caller's answer is the Public role's, kept a few seconds and then looked up again while the kept
   * one still answers; a lookup is shared, so the events that arrive while it runs wait for the
   * same answer, in the order they came, rather than each reading the database.
   */
  async function listenedNarration(articleId: string, access: ListenerAccess): Promise<ListeningTarget | null> {
    if (!access.anonymous) {
      // Credentials Strapi does not accept get the public routes' 404 at once: nothing is looked up for them.
      const auth = await access.authenticate();
      return auth ? targetOf(await deps.views().findVisible(articleId, auth)) : null;
    }
    if (unlistenable.has(articleId)) return null;
    const view = await publicViews.fetch(articleId, { ttl: publicViewTtl(), context: access });
    if (view?.target) return view.target;
    // Kept apart from the narrations being listened to: made-up ids evict only their like.
    publicViews.delete(articleId);
    unlistenable.set(articleId, true);
    return null;
  }

  return {
    start() {
      if (!config.enabled || timer) return;
      stopped = false;
      timer = setInterval(() => void runner.runSoon(), config.flushSeconds * 1000);
      timer.unref?.();
    },

    /** Writes what is counted (a graceful stop loses nothing), then stops. */
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await runner.runSoon();
      stopped = true;
    },

    /**
     * Counts one event of the player; 'not-found' when the caller may not see the narration. Off
     * and bots are answered before anything is read: a crawler's events cost no lookup.
     */
    async listen(event: ListeningEvent, caller: Caller, access: ListenerAccess): Promise<CountOutcome | 'not-found'> {
      if (!config.enabled) return 'off';
      if (isAutomated(caller.userAgent)) return 'automated';
      const target = await listenedNarration(event.articleId, access);
      if (!target) return 'not-found';
      const { day, hash, network } = await hashOf('listener', caller, target.articleId);
      return tally.listen(day, target, hash, event, network) ? 'counted' : 'capped';
    },

    /**
     * Counts a request of a feed's enclosure (a narration the feed lists), by the IAB rules a
     * redirecting server can apply (domain/downloads.ts).
     */
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

export type InsightsService = ReturnType<typeof createInsightsService>;
