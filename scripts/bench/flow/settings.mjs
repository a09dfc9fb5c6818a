/**
 * The flow bench's options (read from the command line, checked here) and constants, shared by its
 * steps in this folder and by scripts/bench-flow.mjs.
 */
import { benchArticle, leave, narrationStatuses, numberOption, sayAs } from '../../bench-support.mjs';

export const argv = process.argv.slice(2);
const number = (name, fallback) => numberOption(argv, name, fallback);
export const SAMPLES = number('samples', 40);
export const WARMUPS = number('warmups', 10);
export const BACKLOG = number('backlog', 30);
export const GENERATION_MS = number('generation-ms', 2000);
export const CALLBACKS = number('callbacks', 50);
export const CALLBACK_WARMUPS = 5;
export const STATUS_DOCUMENTS = 100;
export const STATUS_WARMUPS = 3;
export const STATUS_RUNS = 20;
export const SLOTS = 3; // the plugin's default maxInFlight, the contract's "about three articles in flight"
export const HELD_MS = 600_000;
export const API_KEY = 'bench-flow-key';
export const UID = 'api::article.article';
export const NARRATION_UID = 'plugin::speech.narration';
/**
 * --passage-voices: the article type reads each passage in its language's voice (docs/passage-voices.md),
 * so every publish tells the language of each paragraph; the articles stay in one language, so the
 * narrations, their requests and their callbacks are the same as without it.
 */
export const PASSAGE_VOICES = argv.includes('--passage-voices');
export const ARTICLE_NARRATION = {
  titleField: 'title',
  textFields: ['summary', 'body'],
  ...(PASSAGE_VOICES ? { passageVoices: true } : {}),
};
export const credentials = { email: 'bench@example.com', password: 'Bench-Passw0rd!' };
export const TARGETS = { publishRatio: 1.05, drainRatio: 1.05, callbackP95Ms: 20, statusesMs: 50 };

export const say = sayAs('bench-flow');
export const ms = (value) => `${value.toFixed(1)} ms`;
export const verdict = (ok) => (ok ? 'PASS' : 'MISS');

if (
  ![SAMPLES, WARMUPS, BACKLOG, GENERATION_MS, CALLBACKS].every((n) => Number.isInteger(n) && n >= 0) ||
  SAMPLES < 2 ||
  BACKLOG < 1 ||
  CALLBACKS < 1 ||
  CALLBACKS > 50
) {
  console.error(
    '--samples >= 2, --warmups >= 0, --backlog >= 1, --generation-ms >= 0, --callbacks 1 to 50 (the plugin allows at most 50 in flight)'
  );
  leave(2);
}

export const article = (label) =>
  benchArticle(label, {
    summary: 'A short summary.',
    firstParagraph: `Paragraph one of article ${label}. An editor wrote it and pressed Publish.`,
  });

export const articleIdOf = (entry) => `${entry.documentId}-${entry.locale ?? 'en'}`;

/** The narration rows of these documents, as the list view asks for them. */
export const statusesOf = (server, documentIds) => narrationStatuses(server, UID, documentIds);
