import {
  LISTENING_MILESTONES,
  type ListenedArticle,
  type ListenedLocale,
  type ListeningDay,
  type ListeningTotals,
} from '../../../shared/contracts/insights';

/**
 * How the listening figures read (the edit view's card, the listening page, its widget): shares
 * of plays, the drop-off curve and its drawing, time heard, the tables' order. Pure (no React, no
 * DOM), so what editors are told is unit-tested without a browser.
 */

/** A share (0..1) as the admin formats it: `formatNumber(share, PERCENT)` is `100%`, `١٠٠٪`. */
export const PERCENT = { style: 'percent', maximumFractionDigits: 0 } as const;

type Reach = Pick<ListeningTotals, 'plays' | 'reached'>;

/** A share of the plays, 0..1: the server counts milestones per listening, so more can only be a miscount. */
const shareOf = (count: number, plays: number) => Math.min(1, Math.max(0, count / plays));

/** The share of plays that reached the end (`reached` at 100 %); null without a play. */
export function completionShare({ plays, reached }: Reach): number | null {
  if (!(plays > 0)) return null;
  return shareOf(reached[LISTENING_MILESTONES.length - 1] ?? 0, plays);
}

export interface CurvePoint {
  /** 0, 10, 20, ... 100: how far into the audio. */
  milestone: number;
  /** The share of plays that got that far (0..1); every play is at 0. */
  share: number;
}

/** Where the plays stop: the share still listening at the start and at each milestone. Empty without a play. */
export function dropOffCurve({ plays, reached }: Reach): CurvePoint[] {
  if (!(plays > 0)) return [];
  return [
    { milestone: 0, share: 1 },
    ...LISTENING_MILESTONES.map((milestone, index) => ({ milestone, share: shareOf(reached[index] ?? 0, plays) })),
  ];
}

export interface CurveBox {
  width: number;
  height: number;
  /** Room around the plot, for the stroke and the labels. */
  padding: number;
}

/**
 * The curve in SVG coordinates: the start of the audio at the start of the reading direction (left
 * in English, right in Arabic), 100 % of the plays at the top. `path` is the line, `area` the
 * same closed down to the axis.
 */
export function curveGeometry(curve: readonly CurvePoint[], box: CurveBox, rtl: boolean) {
  const plotWidth = box.width - 2 * box.padding;
  const plotHeight = box.height - 2 * box.padding;
  const points = curve.map(({ milestone, share }) => {
    const along = (milestone / 100) * plotWidth;
    return {
      x: round(rtl ? box.padding + plotWidth - along : box.padding + along),
      y: round(box.padding + (1 - share) * plotHeight),
    };
  });
  const path = points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x} ${point.y}`).join(' ');
  const baseline = round(box.padding + plotHeight);
  const area = points.length ? `${path} L${points[points.length - 1].x} ${baseline} L${points[0].x} ${baseline} Z` : '';
  return { points, path, area, baseline };
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Seconds heard as the page says them: whole hours and minutes from an hour on, minutes from a
 * minute on, else seconds (a short test article is heard for seconds).
 */
export type HeardTime =
  | { unit: 'hours'; hours: number; minutes: number }
  | { unit: 'minutes'; minutes: number }
  | { unit: 'seconds'; seconds: number };

export function heardTime(totalSeconds: number): HeardTime {
  const seconds = Math.max(0, Math.round(totalSeconds));
  if (seconds >= 3600) return { unit: 'hours', hours: Math.floor(seconds / 3600), minutes: Math.floor((seconds % 3600) / 60) };
  if (seconds >= 60) return { unit: 'minutes', minutes: Math.floor(seconds / 60) };
  return { unit: 'seconds', seconds };
}

/** The figures of a row of the listening tables, in their columns' order. */
export function rowFigures(totals: ListeningTotals) {
  return {
    plays: totals.plays,
    listeners: totals.listeners,
    completion: completionShare(totals),
    secondsHeard: totals.secondsHeard,
    downloads: totals.downloads,
  };
}

/** Locales with the most plays first, then the most downloads; ties by code, so rows keep their place. */
export function localeRows(locales: readonly ListenedLocale[]): ListenedLocale[] {
  return [...locales].sort((a, b) => b.plays - a.plays || b.downloads - a.downloads || a.locale.localeCompare(b.locale));
}

/** The home page widget's articles: the most played, played at least once, at most `count`. */
export function mostListened(articles: readonly ListenedArticle[], count = 5): ListenedArticle[] {
  return articles
    .filter((article) => article.plays > 0)
    .sort((a, b) => b.plays - a.plays)
    .slice(0, count);
}

/** The plays of every day, for the day chart. */
export const playsPerDay = (days: readonly ListeningDay[]) => days.map(({ day, plays }) => ({ day, value: plays }));

/** A period with nothing to show: no play and no feed download. */
export const isSilent = (totals: Pick<ListeningTotals, 'plays' | 'downloads'>) => totals.plays === 0 && totals.downloads === 0;

/** An article's key in lists (one row per document and locale). */
export const articleKey = (article: Pick<ListenedArticle, 'contentType' | 'documentId' | 'locale'>) =>
  `${article.contentType}|${article.documentId}|${article.locale ?? ''}`;

/** The file name of the listening CSV when the server gives none: `speech-listening-30d-2026-11-27.csv`. */
export const listeningFileName = (today: string, days: number) => `speech-listening-${days}d-${today}.csv`;
