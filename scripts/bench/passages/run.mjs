/**
 * One process of the passage voices bench (scripts/bench-passages.mjs): an Arabic article of
 * `--words` words, one paragraph in five English and one in nine a short line, read `--runs`
 * times; one JSON line per run.
 *
 *   node scripts/bench/passages/run.mjs --bundle <dir> --words 10000 --runs 5
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { numberOption, optionOf } from '../../bench-support.mjs';

const argv = process.argv.slice(2);
const bundle = optionOf(argv, 'bundle');
const WORDS = numberOption(argv, 'words', 10_000);
const RUNS = numberOption(argv, 'runs', 5);

const require = createRequire(import.meta.url);
const { passagesOf, voiceRuns, detectLanguage } = require(path.join(bundle, 'passages.js'));

const ARABIC =
  'قال الوزير في مؤتمر صحفي إن الحكومة ستعمل على تحسين الخدمات العامة خلال العام المقبل وإن الميزانية الجديدة تركز على التعليم والصحة.';
const ENGLISH =
  'The minister said at a press conference that the government will work to improve public services next year and focus on schools.';
const SHORT = 'iPhone 17';

const paragraphs = [];
let words = 0;
for (let index = 0; words < WORDS; index += 1) {
  const paragraph = index % 9 === 8 ? SHORT : index % 5 === 2 ? ENGLISH : ARABIC;
  paragraphs.push(`${paragraph} (${index + 1})`);
  words += paragraph.split(' ').length + 1;
}
const text = paragraphs.join('\n\n');
const settings = {
  language: 'ar',
  voiceId: 'ar-male-1',
  languageVoices: { ar: 'ar-male-1', en: 'en-female-1' },
  languages: ['ar', 'en', 'fr'],
  quoteVoiceId: null,
  overrides: {},
};

for (let run = 1; run <= RUNS; run += 1) {
  const started = performance.now();
  const passages = passagesOf(text, new Set(), settings, detectLanguage);
  const runs = voiceRuns(passages);
  const ms = performance.now() - started;
  const english = passages.filter((passage) => passage.language === 'en').length;
  console.log(JSON.stringify({ run, ms, words, paragraphs: passages.length, english, runs: runs.length }));
}
