/**
 * The usage bench's ledger: N entries spread over the last D days (deterministic, from a seeded
 * generator), and the totals the plugin writes with each entry (server/src/credits/domain/totals.ts,
 * ledger.repository.ts), computed here from the same entries: per (day, source, locale, kind) and
 * per (month, content type, document, locale). The figures the bench checks the usage view against
 * (credits spent per month and per day) are summed from the entries directly, not from those totals.
 */

export const CONTENT_TYPES = ['api::article.article', 'api::page.page', 'api::note.note', 'api::homepage.homepage'];
export const LOCALES = ['en', 'ar'];
const DOCUMENTS_PER_TYPE = [12_000, 4_000, 3_000, 1];
const PEOPLE = ['Ada Lovelace (#1)', 'Grace Hopper (#2)', 'Ibn al-Haytham (#3)', 'API token "front"', 'user Reader (#7)'];
const DAY_MS = 86_400_000;

/** A small seeded generator (mulberry32): the same ledger on every run. */
export function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (random, list) => list[Math.floor(random() * list.length)];
const dayOf = (ms) => new Date(ms).toISOString().slice(0, 10);
const documentId = (type, n) => `bench${type}doc${String(n).padStart(6, '0')}`.slice(0, 24);

/** Kind, then outcome: what the plugin records, in proportions a busy site could have. */
function kindOf(r) {
  if (r < 0.55) return 'narration';
  if (r < 0.8) return 'part';
  if (r < 0.88) return 'voice-preview';
  if (r < 0.95) return 'paragraph-preview';
  return 'transcription';
}

function narrationOutcome(r) {
  if (r < 0.7) return 'generated';
  if (r < 0.8) return 'redelivered';
  if (r < 0.9) return 'refunded';
  if (r < 0.98) return 'pending';
  return 'refund-failed';
}

/**
 * Entry `i` of `count`, accepted between `start` and `end` (ms; in order of i, as ids grow with
 * time), in the plugin's row shape (camelCase; the seeding maps it to columns).
 */
export function ledgerEntries({ count, start, end, seed = 24 }) {
  const random = generator(seed);
  const span = end - start;
  return function* entries() {
    for (let i = 0; i < count; i += 1) {
      const acceptedMs = Math.floor(start + (span * (i + random())) / count);
      const kind = kindOf(random());
      const typeIndex = Math.floor(random() * CONTENT_TYPES.length);
      const locale = pick(random, LOCALES);
      const doc = documentId(typeIndex, Math.floor(random() * DOCUMENTS_PER_TYPE[typeIndex]));
      const characters = 200 + Math.floor(random() * 5800);
      const factor = random() < 0.2 ? 2 : 1;
      const narrated = kind === 'narration' || kind === 'part';
      const outcome = narrated ? narrationOutcome(random()) : 'generated';
      const regenerate = narrated && outcome !== 'redelivered' && random() < 0.3;
      let credits = characters * factor;
      if (outcome === 'redelivered' || kind === 'transcription') credits = 0;
      if (kind === 'voice-preview' || kind === 'paragraph-preview') credits = Math.min(characters, 400);
      const withTarget = narrated || kind === 'paragraph-preview';
      const title = kind === 'transcription' ? `interview-${i}.mp3` : i % 997 === 0 ? `=HYPERLINK("x") ${i}` : `Bench article ${doc}`;
      const articleId = narrated
        ? `${doc}-${locale}${kind === 'part' ? `~p${(i % 40).toString(36)}` : ''}`
        : kind === 'transcription'
          ? `transcription:job-${i}`
          : withTarget
            ? `${doc}-${locale}`
            : `preview:${locale}-female-1`;
      let cause;
      if (kind === 'voice-preview' || kind === 'paragraph-preview' || kind === 'transcription') cause = kind;
      else if (regenerate) cause = 'regenerate';
      else cause = pick(random, ['admin-publish', 'admin-publish', 'api-publish', 'bulk', 'narrate-now', 'automatic']);
      yield {
        id: i + 1,
        articleId,
        kind,
        cause,
        causedBy: cause === 'automatic' ? null : pick(random, PEOPLE),
        contentType: withTarget ? CONTENT_TYPES[typeIndex] : null,
        targetDocumentId: withTarget ? doc : null,
        targetLocale: withTarget ? locale : null,
        title: kind === 'voice-preview' ? null : title,
        narrationId: narrated ? 1 + (i % 50_000) : null,
        characters: kind === 'transcription' ? 0 : characters,
        factor,
        regenerate,
        credits,
        outcome,
        acceptedAt: acceptedMs,
        settledAt: outcome === 'pending' ? null : acceptedMs + 60_000 + Math.floor(random() * 600_000),
        day: dayOf(acceptedMs),
        creditsRemaining: random() < 0.1 ? 10_000_000 - i : null,
      };
    }
  };
}

/** The plugin's day-total source of an entry (totals.ts sourceOf). */
function sourceOf(entry) {
  if (entry.kind === 'transcription') return 'transcription';
  if (entry.kind === 'voice-preview' || entry.kind === 'paragraph-preview') return 'preview';
  return entry.contentType ?? 'preview';
}

/**
 * What the plugin's totals hold after these entries (recorded, then settled to their outcome:
 * the same as recording them with it, totals.ts deltaOnRecord), and the bench's own sums.
 */
export function totalsCollector() {
  const days = new Map();
  const articles = new Map();
  const spentByDay = new Map();
  return {
    add(entry) {
      const refunded = entry.outcome === 'refunded' ? entry.credits : 0;
      const dayKey = `${entry.day}\u0000${sourceOf(entry)}\u0000${entry.targetLocale ?? ''}\u0000${entry.kind}`;
      let day = days.get(dayKey);
      if (!day) {
        day = {
          day: entry.day,
          source: sourceOf(entry),
          targetLocale: entry.targetLocale ?? '',
          kind: entry.kind,
          charged: 0,
          refunded: 0,
          pending: 0,
          entries: 0,
          refunds: 0,
          redeliveries: 0,
          at: entry.acceptedAt,
        };
        days.set(dayKey, day);
      }
      day.charged += entry.credits;
      day.refunded += refunded;
      day.pending += entry.outcome === 'pending' ? entry.credits : 0;
      day.entries += 1;
      day.refunds += entry.outcome === 'refunded' ? 1 : 0;
      day.redeliveries += entry.outcome === 'redelivered' ? 1 : 0;
      if (entry.contentType && entry.targetDocumentId) {
        const month = entry.day.slice(0, 7);
        const articleKey = `${month}\u0000${entry.contentType}\u0000${entry.targetDocumentId}\u0000${entry.targetLocale ?? ''}`;
        let article = articles.get(articleKey);
        if (!article) {
          article = {
            month,
            contentType: entry.contentType,
            targetDocumentId: entry.targetDocumentId,
            targetLocale: entry.targetLocale ?? '',
            title: null,
            spent: 0,
            entries: 0,
            at: entry.acceptedAt,
          };
          articles.set(articleKey, article);
        }
        article.spent += entry.credits - refunded;
        article.entries += 1;
        if (entry.title) article.title = entry.title;
      }
      spentByDay.set(entry.day, (spentByDay.get(entry.day) ?? 0) + entry.credits - refunded);
    },
    days: () => [...days.values()],
    articles: () => [...articles.values()],
    /** Credits spent (charged less refunded) by the entries of a month (YYYY-MM), summed from the entries. */
    spentInMonth: (month) => [...spentByDay].filter(([day]) => day.startsWith(month)).reduce((sum, [, credits]) => sum + credits, 0),
    /** The same for a list of days. */
    spentOnDays: (list) => list.reduce((sum, day) => sum + (spentByDay.get(day) ?? 0), 0),
  };
}

/** The window the entries are spread over: `days` days up to `now` (ms). */
export const windowOf = (now, days) => ({ start: now - days * DAY_MS, end: now });
