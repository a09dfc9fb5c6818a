import { LISTENERS_PER_NETWORK, NetworkCaps, PLAYS_PER_NETWORK } from '../../../server/src/insights/domain/network-caps';
import { ListeningTally, type ListeningTarget } from '../../../server/src/insights/domain/tally';
import { createInsightsService } from '../../../server/src/insights/insights.service';
import type { InsightsRepository } from '../../../server/src/insights/insights.repository';
import { contentApiRoutes as feedsRoutes } from '../../../server/src/feeds/routes';
import { contentApiRoutes as insightsRoutes } from '../../../server/src/insights/routes';
import eventsController from '../../../server/src/insights/events.controller';
import { ENCLOSURE_PATH, EVENTS_PATH, guardedRoute } from '../../../server/src/insights/listening-guard';
import { listenedNarration } from './fixtures';

const DAY = '2026-11-28';
const narration: ListeningTarget = {
  articleId: 'doc-en',
  contentType: 'api::article.article',
  documentId: 'doc',
  locale: 'en',
  durationSeconds: 60,
};
const play = { articleId: 'doc-en', event: 'play' as const, heard: 0 };

describe('the caps of one network', () => {
  it('counts at most LISTENERS_PER_NETWORK listeners and PLAYS_PER_NETWORK plays of a narration a day, whatever the agents', () => {
    const tally = new ListeningTally();
    const counted = Array.from({ length: 1_000 }, (_, agent) => tally.listen(DAY, narration, `agent-${agent}`, play, 'net-1'));
    // Every admitted listener plays again: the plays stop at the network's cap.
    for (let round = 0; round < 10; round += 1)
      for (let agent = 0; agent < LISTENERS_PER_NETWORK; agent += 1) tally.listen(DAY, narration, `agent-${agent}`, play, 'net-1');
    const batch = tally.drain();
    expect(counted.filter(Boolean)).toHaveLength(LISTENERS_PER_NETWORK);
    expect(batch.uniques).toHaveLength(LISTENERS_PER_NETWORK);
    expect(batch.days[0].plays).toBe(PLAYS_PER_NETWORK);
  });

  it('leaves a capped listener out entirely: no milestone, no seconds, nothing to store', () => {
    const tally = new ListeningTally();
    for (let agent = 0; agent < LISTENERS_PER_NETWORK; agent += 1) tally.listen(DAY, narration, `agent-${agent}`, play, 'net-1');
    tally.drain();
    expect(tally.listen(DAY, narration, 'one-too-many', play, 'net-1')).toBe(false);
    expect(tally.listen(DAY, narration, 'one-too-many', { articleId: 'doc-en', event: 'end', heard: 60 }, 'net-1')).toBe(false);
    expect(tally.empty).toBe(true);
  });

  it('still counts every listener of other networks exactly, and each network on each narration and day apart', () => {
    const tally = new ListeningTally();
    for (let agent = 0; agent < 1_000; agent += 1) tally.listen(DAY, narration, `forged-${agent}`, play, 'net-1');
    for (let network = 0; network < 300; network += 1) {
      for (let agent = 0; agent < 3; agent += 1) {
        expect(tally.listen(DAY, narration, `real-${network}-${agent}`, play, `net-other-${network}`)).toBe(true);
      }
    }
    // The same network's room on another narration, and on the next day, is its own.
    const other = { ...narration, articleId: 'other-en' };
    expect(tally.listen(DAY, other, 'forged-999', { ...play, articleId: 'other-en' }, 'net-1-other')).toBe(true);
    expect(tally.listen('2026-11-29', narration, 'forged-999', play, 'net-1-next-day')).toBe(true);
    const days = tally.drain().days;
    expect(days.find((day) => day.day === DAY && day.target.articleId === 'doc-en')!.plays).toBe(LISTENERS_PER_NETWORK + 900);
  });

  it('counts at most LISTENERS_PER_NETWORK downloads of a network, once each', () => {
    const tally = new ListeningTally();
    const counted = Array.from({ length: 1_000 }, (_, agent) => tally.download(DAY, narration, `app-${agent}`, 'net-1'));
    expect(counted.filter(Boolean)).toHaveLength(LISTENERS_PER_NETWORK);
    expect(tally.download(DAY, narration, 'app-0', 'net-1')).toBe(true);
    expect(tally.download(DAY, narration, 'app-0-elsewhere', 'net-2')).toBe(true);
    expect(tally.drain().uniques).toHaveLength(LISTENERS_PER_NETWORK + 1);
  });
});

describe('NetworkCaps.forgetBefore', () => {
  it("forgets the caps of the days before the one given, and keeps that day's and later ones", () => {
    const caps = new NetworkCaps();
    const days = ['2026-11-27', '2026-11-28', '2026-11-29'];
    for (const day of days) {
      for (let play = 0; play < PLAYS_PER_NETWORK; play += 1) caps.takePlay(day, 'net-1');
      for (let agent = 0; agent < LISTENERS_PER_NETWORK; agent += 1) caps.admitListener(day, 'net-1', `agent-${agent}`);
    }
    caps.forgetBefore('2026-11-28');
    expect(days.map((day) => caps.takePlay(day, 'net-1'))).toEqual([true, false, false]);
    expect(days.map((day) => caps.admitListener(day, 'net-1', 'one-more'))).toEqual([true, false, false]);
  });
});

describe('the events route: who is looked up', () => {
  const row = (articleId: string) => (articleId.startsWith('real') ? listenedNarration(articleId) : null);

  function service() {
    const lookups: string[] = [];
    const insights = createInsightsService({
      strapi: { log: { warn: () => undefined } } as never,
      repository: { saltOf: async () => 'salt', forget: async () => undefined, pruneDays: async () => 0 } as unknown as InsightsRepository,
      config: { enabled: true, flushSeconds: 3600, retentionDays: 400 },
      views: () =>
        ({
          findVisible: async (articleId: string) => {
            lookups.push(articleId);
            return row(articleId);
          },
        }) as never,
      now: () => new Date(`${DAY}T12:00:00Z`),
    });
    return { insights, lookups };
  }
  const browser = (address: string) => ({ address, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' });
  const anonymous = { anonymous: true, authenticate: async () => null };

  it('keeps the narrations being listened to through a flood of made-up article ids', async () => {
    const { insights, lookups } = service();
    expect(await insights.listen({ ...play, articleId: 'real-1' }, browser('203.0.113.1'), anonymous)).toBe('counted');
    for (let index = 0; index < 12_000; index += 1) {
      expect(await insights.listen({ ...play, articleId: `made-up-${index}` }, browser('198.51.100.7'), anonymous)).toBe('not-found');
    }
    lookups.length = 0;
    expect(await insights.listen({ ...play, articleId: 'real-1' }, browser('203.0.113.2'), anonymous)).toBe('counted');
    expect(lookups).toEqual([]);
  });

  it('looks nothing up for credentials Strapi refuses', async () => {
    const { insights, lookups } = service();
    const junk = { anonymous: false, authenticate: async () => null };
    expect(await insights.listen({ ...play, articleId: 'real-1' }, browser('203.0.113.1'), junk)).toBe('not-found');
    expect(lookups).toEqual([]);
  });
});

describe('the routes the listening guard watches', () => {
  it('is the events POST and the enclosures GET and HEAD, under the REST prefix, and nothing else', () => {
    expect(guardedRoute('POST', '/api/speech/insights/events')).toBe('events');
    expect(guardedRoute('GET', '/api/speech/feeds/articles/abc-en/audio.mp3')).toBe('enclosure');
    expect(guardedRoute('HEAD', '/api/speech/feeds/articles/abc-en/audio.mp3')).toBe('enclosure');
    expect(guardedRoute('POST', '/v2/speech/insights/events', '/v2')).toBe('events');
    expect(guardedRoute('GET', '/api/speech/insights/events')).toBeNull();
    expect(guardedRoute('GET', '/api/speech/feeds/articles.xml')).toBeNull();
    expect(guardedRoute('POST', '/speech/insights/events')).toBeNull();
    expect(guardedRoute('GET', '/api/speech/narrations/abc-en/audio.mp3')).toBeNull();
  });

  it('knows every spelling the router routes: a trailing slash, any letter case, the prefix as configured', () => {
    expect(guardedRoute('POST', '/api/speech/insights/events/')).toBe('events');
    expect(guardedRoute('POST', '/API/Speech/Insights/Events')).toBe('events');
    expect(guardedRoute('HEAD', '/api/speech/feeds/articles/abc-en/audio.mp3/')).toBe('enclosure');
    expect(guardedRoute('GET', '/Api/SPEECH/feeds/articles/abc-en/Audio.MP3')).toBe('enclosure');
    for (const prefix of ['/v2', 'v2', '/v2/', '/V2']) expect(guardedRoute('POST', '/v2/speech/insights/events/', prefix)).toBe('events');
    expect(guardedRoute('POST', '/speech/insights/events', '')).toBe('events');
    expect(guardedRoute('POST', '/api/speech/insights/events', '/v2')).toBeNull();
    // What the router would not route either.
    expect(guardedRoute('POST', '/api/speech/insights/events//')).toBeNull();
    expect(guardedRoute('POST', '/api/speech/insights/eventsx')).toBeNull();
    expect(guardedRoute('GET', '/api/speech/feeds/articles/a/b/audio.mp3')).toBeNull();
  });

  it('is the path each route declares', () => {
    expect(insightsRoutes.map((route) => `/speech${route.path}`)).toContain(EVENTS_PATH);
    expect(feedsRoutes.map((route) => `/speech${route.path}`)).toContain(ENCLOSURE_PATH);
  });
});

describe('the events controller', () => {
  it('refuses an event whose body the listening guard did not read, before anything is looked up', async () => {
    const ctx = { req: {}, request: { body: { articleId: 'abc-en', event: 'play', heard: 0 } }, get: () => '' };
    await expect(eventsController.create(ctx as never)).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringContaining('guard'),
    });
  });
});
