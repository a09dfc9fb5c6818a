import { narrationCost, type PreprocessType } from './cost';
import { narrationFingerprint } from './fingerprint';
import { compileLexicon, type LexiconRule } from '../../lexicon';
import { fillTemplate, templateFor } from './templates';
import { extractNarration, fieldToText, oneLine, paragraphsOf, type NarrationFields } from '../../text';
import type { LiveVersion } from '../../queue';
import { planSegments } from './segments';
import { passagesOf, voiceRuns, type DetectLanguage, type Passage, type PassageVoiceSettings } from '../../passages';

/** Strapi 5 gives a published row a new id on every publish; documentId is stable but shared by locales. */
export function articleKey(documentId: string, locale: string | null | undefined, localized: boolean): string {
  return localized && locale ? `${documentId}-${locale}` : documentId;
}

export interface ArticleFields extends NarrationFields {
  authorField?: string;
}

export interface ArticleSource {
  contentType: string;
  entry: Record<string, unknown> & { documentId: string; locale?: string | null };
  narration: ArticleFields;
  attributes?: Record<string, { type: string }>;
  localized: boolean;
  voiceId: string;
  preprocessType: PreprocessType;
  /** Pronunciation rules, applied before the cost and the fingerprint (so the estimate is what is paid). */
  lexicon?: readonly LexiconRule[];
  /** Narrated in parts of at most this many characters (docs/segmented-narration.md); absent: whole. */
  segmentCharacters?: number | null;
  /** Tells a publish recorded already (reconcile.ts); absent for types changed in place. */
  publishedAt?: unknown;
  siteName?: string;
  introTemplates?: Readonly<Record<string, string>>;
  outroTemplates?: Readonly<Record<string, string>>;
  passages?: { settings: Omit<PassageVoiceSettings, 'voiceId'>; detect: DetectLanguage } | null;
}

/** Parts of a whole-mode type whose passages take several voices: one per run of one voice, however long. */
const RUN_AS_ONE_PART = Number.MAX_SAFE_INTEGER;

function isoTime(value: unknown): string | null {
  if (!(value instanceof Date) && typeof value !== 'string' && typeof value !== 'number') return null;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

function fieldLine(source: ArticleSource, field: string | undefined): string {
  if (field === undefined || !Object.prototype.hasOwnProperty.call(source.entry, field)) return '';
  return oneLine(fieldToText(source.entry[field], source.attributes?.[field]?.type));
}

function withIntroAndOutro(
  body: string[],
  source: ArticleSource,
  locale: string | null
): { paragraphs: string[]; introParagraphs: number } {
  if (body.length === 0) return { paragraphs: body, introParagraphs: 0 };
  const values = {
    title: fieldLine(source, source.narration.titleField),
    author: fieldLine(source, source.narration.authorField),
    site: source.siteName ?? '',
  };
  const intro = fillTemplate(templateFor(source.introTemplates, locale), values);
  const outro = fillTemplate(templateFor(source.outroTemplates, locale), values);
  return { paragraphs: [...(intro ? [intro] : []), ...body, ...(outro ? [outro] : [])], introParagraphs: intro ? 1 : 0 };
}

const headingTitle = (paragraph: string) => paragraph.replace(/\n/g, ' ').replace(/(?<!\.)\.$/u, '');

/** Null when one voice reads it all: the version is then what it is without passage voices. */
function passageRunsOf(source: ArticleSource, text: string, quotes: ReadonlySet<string>) {
  if (!source.passages) return { passages: null, runs: null };
  const passages = passagesOf(text, quotes, { ...source.passages.settings, voiceId: source.voiceId }, source.passages.detect);
  const runs = voiceRuns(passages);
  return { passages, runs: runs.length > 1 || (runs.length === 1 && runs[0]!.voiceId !== source.voiceId) ? runs : null };
}

export type DescribedVersion = LiveVersion & { passages: Passage[] | null };

export function describeArticle(source: ArticleSource): DescribedVersion {
  const locale = source.localized ? (source.entry.locale ?? null) : null;
  const extracted = extractNarration(source.entry, source.narration, source.attributes);
  const written = withIntroAndOutro(paragraphsOf(extracted.text), source, locale);
  // Paragraph by paragraph (a rule never spans two), so each heading's position is known after it.
  const spoken = written.paragraphs.map(compileLexicon(source.lexicon ?? [], locale));
  const text = spoken.join('\n\n');
  const starts: number[] = [];
  let offset = 0;
  for (const paragraph of spoken) {
    starts.push(offset);
    offset += paragraph.length + 2;
  }
  const headings = extracted.headingParagraphs.map((index) => ({
    offset: starts[index + written.introParagraphs],
    title: headingTitle(written.paragraphs[index + written.introParagraphs]),
  }));
  const articleId = articleKey(source.entry.documentId, source.entry.locale, source.localized);
  const segmentCharacters = source.segmentCharacters ?? undefined;
  const { passages, runs } = passageRunsOf(
    source,
    text,
    new Set(extracted.quoteParagraphs.map((index) => spoken[index + written.introParagraphs]))
  );
  const parts = runs
    ? runs
        .flatMap((run) =>
          planSegments({
            articleId,
            text: text.slice(run.start, run.end),
            voiceId: run.voiceId,
            preprocessType: source.preprocessType,
            maxCharacters: segmentCharacters ?? RUN_AS_ONE_PART,
          })
        )
        .map((part, index) => ({ ...part, index }))
    : segmentCharacters === undefined
      ? []
      : planSegments({ articleId, text, voiceId: source.voiceId, preprocessType: source.preprocessType, maxCharacters: segmentCharacters });
  // Read in several voices, what is paid is the parts: the text between two runs is not sent.
  const { characters, credits } = runs
    ? parts.reduce((sum, part) => ({ characters: sum.characters + part.characters, credits: sum.credits + part.credits }), {
        characters: 0,
        credits: 0,
      })
    : narrationCost(text, source.preprocessType);
  const titleValue = source.narration.titleField ? source.entry[source.narration.titleField] : undefined;
  return {
    articleId,
    contentType: source.contentType,
    documentId: source.entry.documentId,
    locale,
    title: typeof titleValue === 'string' && titleValue.trim() ? titleValue.trim() : source.entry.documentId,
    text,
    headings,
    fingerprint: narrationFingerprint({
      text,
      voiceId: source.voiceId,
      preprocessType: source.preprocessType,
      segmentCharacters,
      ...(runs ? { voiceRuns: runs.map((run) => `${run.start}-${run.end}:${run.voiceId}`) } : {}),
    }),
    voiceId: source.voiceId,
    preprocessType: source.preprocessType,
    characters,
    credits,
    livePublishedAt: isoTime(source.publishedAt),
    mode: segmentCharacters === undefined && !runs ? 'whole' : 'segmented',
    parts,
    passages,
  };
}
