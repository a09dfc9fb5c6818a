/**
 * The segmented bench's options (read from the command line, checked here), constants and targets,
 * shared by its steps in this folder and by scripts/bench-segmented.mjs.
 */
import { leave, numberOption, optionOf, sayAs } from '../../bench-support.mjs';

export const argv = process.argv.slice(2);
const number = (name, fallback) => numberOption(argv, name, fallback);

/** Step 1: edits of one article, its size in characters. */
export const EDITS = number('edits', 10);
export const EDIT_CHARACTERS = number('edit-characters', 20_000);
/** Step 2: the narrated text of the hour (about 15 characters a second of speech), the hour's length, joins measured. */
export const JOIN_CHARACTERS = number('join-characters', 54_000);
export const JOIN_SECONDS = number('join-seconds', 3_600);
export const JOIN_RUNS = number('join-runs', 2);
export const JOIN_KBPS = 128;
/** Step 2: how often the public route is asked (one request at a time), in ms. */
export const POLL_MS = number('poll-ms', 10);
/** Step 3: long and short articles, the long ones' size and part size, the emulator's wait per generation. */
export const LONG = number('long', 3);
export const SHORT = number('short', 30);
export const LONG_CHARACTERS = number('long-characters', 13_000);
export const LONG_SEGMENT = number('long-segment', 1_000);
export const DRAIN_GENERATION_MS = number('drain-generation-ms', 1_000);
/** Step 3: drains of each kind, alternated (alone, mixed, mixed, alone). */
export const DRAIN_ROUNDS = number('drain-rounds', 2);
/** Strapi run with --cpu-prof, its profile written to this folder when it stops. */
export const CPU_PROFILE_DIR = optionOf(argv, 'cpu-prof-dir');
/** Which steps run: credits, join, drain (all by default). */
export const STEPS = (optionOf(argv, 'steps') ?? 'credits,join,drain').split(',');

/** The part size of steps 1 and 2: the plugin's default (shared/contracts/settings.ts DEFAULT_SEGMENT_CHARACTERS). */
export const DEFAULT_SEGMENT = 2_000;
/** The plugin's default maxInFlight (server/src/settings/config-schema.ts), which the bench leaves as it is. */
export const SLOTS = 3;
/** Generations the emulator holds in step 2, so that the bench delivers the callbacks itself. */
export const HELD_MS = 3_600_000;
/** Step 1's wait per generation: short, only credits are measured there. */
export const EDIT_GENERATION_MS = 200;
export const API_KEY = 'bench-segmented-key';
export const UID = 'api::article.article';
export const ARTICLE_FIELDS = { titleField: 'title', textFields: ['summary', 'body'] };
export const credentials = { email: 'bench@example.com', password: 'Bench-Passw0rd!' };
export const TARGETS = { creditsRatio: 0.15, joinMs: 2_000, joinMB: 16, drainRatio: 1.2 };

export const say = sayAs('bench-segmented');
export const verdict = (ok) => (ok ? 'PASS' : 'MISS');
export const MB = 1024 * 1024;
export const thousands = (value) => Math.round(value).toLocaleString('en-US');

const wholeNumbers = {
  EDITS,
  EDIT_CHARACTERS,
  JOIN_CHARACTERS,
  JOIN_SECONDS,
  JOIN_RUNS,
  LONG,
  SHORT,
  LONG_CHARACTERS,
  DRAIN_GENERATION_MS,
};
if (
  !Object.values(wholeNumbers).every((n) => Number.isInteger(n) && n >= 0) ||
  EDITS < 1 ||
  DRAIN_ROUNDS < 1 ||
  JOIN_RUNS < 1 ||
  JOIN_SECONDS < 60 ||
  SHORT < 2 ||
  !Number.isInteger(LONG_SEGMENT) ||
  LONG_SEGMENT < 200 ||
  !STEPS.every((step) => ['credits', 'join', 'drain'].includes(step))
) {
  console.error(
    '--edits >= 1, --edit-characters, --join-characters, --long, --long-characters, --drain-generation-ms >= 0, --join-runs >= 1, ' +
      '--join-seconds >= 60, --short >= 2, --long-segment >= 200, --steps of credits,join,drain'
  );
  leave(2);
}
