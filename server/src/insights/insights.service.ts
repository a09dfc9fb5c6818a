import type { Core } from '@strapi/strapi';
import { LRUCache } from 'lru-cache';
import type { ListeningEvent } from '../../../shared/contracts/insights';
import type { ContentApiAuth } from '../access/content-api-access';
import type { NarrationRow } from '../narration/jobs.repository';
import type { PublicViewsService } from '../narration/public-views.service';
import type { InsightsConfig } from '../settings/config-schema';
import { createSerialRunner } from '../utils/serial-runner';
import { isAutomated } from './domain/bots';
import { addDays, utcDay } from './domain/day';
import { mayCountAsDownload } from './domain/downloads';
import { listenerHash } from './domain/listener-hash';
import { ListeningTally, type ListeningTarget } from './domain/tally';
import type { InsightsRepository } from './insights.repository';

/**
 * Listening insights (issue 25): counts what the player reports and what the feeds' enclosures
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

/** How long the Public role's view of a narration (visible, its target) is reused by the events route. */
const PUBLIC_VIEW_MS = 10_000;

export function createInsightsService(deps: {
  strapi: Core.Strapi;
  repository: InsightsRepository;
  config: InsightsConfig;
  views: () => PublicViewsService;
  now?: () => Date;
}) {
  const { strapi, repository, config } = deps;
  const now = deps.now ?? (() => new Date());
  const tally = new ListeningTally();
  const publicViews = new LRUCache<string, { target: Promise<ListeningTarget | null> }>({ max: 10_000, ttl: PUBLIC_VIEW_MS });
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
    const batch = tally.drain();
    try {
      await repository.write(batch, now(), today);
    } catch (error) {
      // Nothing counted is lost: the batch goes back, added to what came in meanwhile.
      tally.restore(batch);
      throw error;
    }
  }

  const runner = createSerialRunner(flushPass, {
    onError: (error) => strapi.log.warn(`[speech] listening insights could not be written yet, kept for the next try: ${error.message}`),
    isStopped: () => stopped,
  });

  async function hashOf(kind: 'listener' | 'download', caller: Caller, articleId: string) {
    const day = utcDay(now());
    return {
      day,
      hash: listenerHash({ salt: await saltOf(day), kind, address: caller.address, userAgent: caller.userAgent ?? '', articleId }),
    };
  }

  /**
   * The narration a listening event is for, as the caller may see it (the public routes' rule):
   * null when it is unknown, not live, has no audio, or is not readable by the caller. An anonymous
   * caller's answer is the Public role's, reused for a few seconds; the lookup itself is shared, so
   * the events of a listening that arrive while it runs wait for the same answer, in the order they
   * came, rather than each reading the database.
   */
  function listenedNarration(articleId: string, access: ListenerAccess): Promise<ListeningTarget | null> {
    const lookUp = async () => targetOf(await deps.views().findVisible(articleId, await access.authenticate()));
    if (!access.anonymous) return lookUp();
    let cached = publicViews.get(articleId);
    if (!cached) {
      cached = { target: lookUp() };
      publicViews.set(articleId, cached);
      cached.target.catch(() => publicViews.delete(articleId));
    }
    return cached.target;
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
      const { day, hash } = await hashOf('listener', caller, target.articleId);
      return tally.listen(day, target, hash, event) ? 'counted' : 'capped';
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
      const { day, hash } = await hashOf('download', caller, target.articleId);
      tally.download(day, target, hash);
      return 'counted';
    },
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
