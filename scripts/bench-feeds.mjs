#!/usr/bin/env node
/**
 * What a podcast feed of 1,000 items costs. The playground Strapi is loaded in this process on a
 * fresh SQLite database with the article type narrated (trigger 'off': nothing is submitted, the
 * feed is open; a front-end `url` and a byline, so each item has a link, a description from its
 * text and a person), --items articles published in English and Arabic (Document Service) and a
 * completed narration of each locale linked to one stored MP3, VTT and SRT (Media Library), with
 * chapters and two revisions. The English feed is built: each of its items carries chapters, both
 * transcripts, the change note and the Arabic alternate enclosure. Then:
 *
 *  - cold: the first `feed('articles')` of the feeds service, which builds the whole feed (rows,
 *    files, live documents, RSS); timed, with the SQL queries it sent (knex's `query` event);
 *  - warm: the same call 20 times after 3 warm-ups, answered from the cache after its change check;
 *  - rebuilt: after one narration row is written (as a store writes it), the next call builds again.
 *
 * Checked: --items items in the feed, the cold build's queries do not grow with the items (fewer
 * than 25), cold < 1,000 ms, warm p50 < 25 ms.
 *
 *   node scripts/bench-feeds.mjs [--items 1000] [--build]
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  ensureBuilt,
  freePort,
  leave,
  loadStrapiHere,
  numberOption,
  playgroundEnv,
  playgroundWorkDir,
  runBench,
} from './bench-support.mjs';
import { quantile } from './bench/figures.mjs';
import { encodeMp3 } from '../emulator/src/speech/mp3.mjs';

const argv = process.argv.slice(2);
const ITEMS = numberOption(argv, 'items', 1000);
const WARMUPS = 3;
const RUNS = 20;
const UID = 'api::article.article';
const NARRATION_UID = 'plugin::speech.narration';
const TARGETS = { coldMs: 1000, warmP50Ms: 25, coldQueries: 25 };

const say = (message) => console.log(`[bench-feeds] ${message}`);
const ms = (value) => `${value.toFixed(1)} ms`;

if (!Number.isInteger(ITEMS) || ITEMS < 1 || ITEMS > 1000) {
  console.error('--items 1 to 1000 (the feeds limit)');
  leave(2);
}

async function upload(app, workDir, name, mimetype, content) {
  const filepath = path.join(workDir, 'tmp', name);
  writeFileSync(filepath, content);
  const [file] = await app
    .plugin('upload')
    .service('upload')
    .upload({
      data: { fileInfo: { name } },
      files: { filepath, originalFilename: name, mimetype, size: content.length },
    });
  return file;
}

async function seed(app, workDir) {
  const samples = new Int16Array(22050 * 3).map((_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 22050)));
  const mp3 = await encodeMp3(samples, 22050);
  const audio = await upload(app, workDir, 'bench-narration.mp3', 'audio/mpeg', mp3);
  const srt = await upload(
    app,
    workDir,
    'bench-narration.srt',
    'application/x-subrip',
    Buffer.from('1\n00:00:00,000 --> 00:00:03,000\nA tone.\n')
  );
  const vtt = await upload(
    app,
    workDir,
    'bench-narration.vtt',
    'text/vtt',
    Buffer.from('WEBVTT\n\n00:00:00.000 --> 00:00:03.000\nA tone.\n')
  );
  const started = Date.now();
  const chapters = [
    { startMs: 0, endMs: 1000, title: 'Opening' },
    { startMs: 1000, endMs: 2000, title: 'The middle' },
    { startMs: 2000, endMs: 3100, title: 'The end' },
  ];
  const body = (text) => [{ type: 'paragraph', children: [{ type: 'text', text }] }];
  for (let i = 0; i < ITEMS; i += 1) {
    const title = { en: `Bench article ${i} & <friends>`, ar: `مقال القياس ${i}` };
    const entry = await app.documents(UID).create({
      data: { title: title.en, byline: 'Sara Haddad', body: body(`The first paragraph of article ${i}, read aloud. `.repeat(8)) },
      locale: 'en',
      status: 'published',
    });
    await app.documents(UID).update({
      documentId: entry.documentId,
      locale: 'ar',
      data: { title: title.ar, byline: 'سارة حداد', body: body(`الفقرة الأولى من المقال ${i}، مقروءة بصوت عالٍ. `.repeat(8)) },
      status: 'published',
    });
    const first = new Date(started + i * 1000);
    const edited = new Date(first.getTime() + 86_400_000);
    for (const locale of ['en', 'ar']) {
      await app.db.query(NARRATION_UID).create({
        data: {
          articleId: `${entry.documentId}-${locale}`,
          contentType: UID,
          targetDocumentId: entry.documentId,
          targetLocale: locale,
          title: title[locale],
          status: 'completed',
          completedAt: edited,
          firstCompletedAt: first,
          // As every row has once a feed listed it (older rows get theirs at their first listing, one write each).
          feedGuid: `${entry.documentId}-${locale}/${audio.hash}`,
          stores: 2,
          revisions: [
            { at: edited.toISOString(), cause: 'edit', changed: [{ start: 1, end: 2 }], passages: 1 },
            { at: first.toISOString(), cause: 'first', changed: [], passages: 0 },
          ],
          chapters,
          durationSeconds: 3.1,
          audioBytes: mp3.length,
          characters: 40,
          credits: 40,
          audio: audio.id,
          subtitles: srt.id,
          subtitlesVtt: vtt.id,
        },
      });
    }
  }
  say(`seeded ${ITEMS} articles in two locales and their completed narrations in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function main() {
  ensureBuilt(argv, say);
  const { workDir } = playgroundWorkDir('speech-bench-feeds-');
  const port = await freePort();
  const nowhere = { info: { url: 'http://127.0.0.1:9', webUrl: 'http://127.0.0.1:9' } };
  const env = playgroundEnv({
    workDir,
    port,
    apiKey: 'bench-feeds',
    emulator: nowhere,
    extra: {
      SPEECH_CONTENT_TYPES: JSON.stringify({
        [UID]: {
          titleField: 'title',
          textFields: ['summary', 'body'],
          trigger: 'off',
          url: 'https://site.example/{locale}/news/{documentId}',
          authorField: 'byline',
        },
      }),
      SPEECH_FEEDS: JSON.stringify({ limit: ITEMS }),
    },
  });
  const { app } = await loadStrapiHere(env);
  app.log.level = 'warn';
  await seed(app, workDir);

  let queries = 0;
  app.db.connection.on('query', () => {
    queries += 1;
  });
  const feeds = app.plugin('speech').service('feeds');
  const timed = async () => {
    const before = queries;
    const started = performance.now();
    const answer = await feeds.feed('articles', 'en');
    if (answer.kind !== 'feed') throw new Error(`no feed: ${answer.reason}`);
    const feed = answer.feed;
    return { feed, ms: performance.now() - started, queries: queries - before };
  };

  const cold = await timed();
  const items = cold.feed.body.split('<item>').length - 1;
  // Every item as rich as the feed makes them: nothing left out of the measure.
  for (const tag of [
    '<podcast:chapters ',
    '<podcast:alternateEnclosure ',
    'type="application/srt"',
    '<podcast:person ',
    '<link>',
    'Updated ',
  ]) {
    const count = cold.feed.body.slice(cold.feed.body.indexOf('<item>')).split(tag).length - 1;
    if (count !== items) throw new Error(`${count} of ${items} items carry ${tag}`);
  }
  const warm = [];
  let warmQueries = 0;
  for (let run = 0; run < WARMUPS + RUNS; run += 1) {
    const answer = await timed();
    if (answer.feed.etag !== cold.feed.etag) throw new Error('the warm feed differs from the cold one');
    if (run >= WARMUPS) warm.push(answer.ms);
    warmQueries = answer.queries;
  }
  // A single-row update, as the worker's store writes the new files' links: it moves the row's updatedAt.
  await app.db.query(NARRATION_UID).update({ where: { id: 1 }, data: { title: 'Changed' } });
  const rebuilt = await timed();

  const figures = {
    items,
    bodyBytes: Buffer.byteLength(cold.feed.body),
    coldMs: cold.ms,
    coldQueries: cold.queries,
    warmP50Ms: quantile(warm, 0.5),
    warmP95Ms: quantile(warm, 0.95),
    warmQueries,
    rebuiltMs: rebuilt.ms,
    rebuiltQueries: rebuilt.queries,
  };
  figures.ok =
    items === ITEMS &&
    figures.coldQueries < TARGETS.coldQueries &&
    figures.coldMs < TARGETS.coldMs &&
    figures.warmP50Ms < TARGETS.warmP50Ms;
  say(
    `feed of ${items} items (${(figures.bodyBytes / 1024).toFixed(0)} KB): cold ${ms(figures.coldMs)} in ${figures.coldQueries} queries; ` +
      `warm p50 ${ms(figures.warmP50Ms)}, p95 ${ms(figures.warmP95Ms)} in ${warmQueries} queries; rebuilt after a change ${ms(figures.rebuiltMs)}`
  );
  console.log('');
  console.log(JSON.stringify({ event: 'bench-feeds', ...figures }));
  console.log('');
  console.log('| figure | measured | target | verdict |');
  console.log('|---|---|---|---|');
  console.log(
    `| podcast feed of ${ITEMS} items, cold build | ${ms(figures.coldMs)}, ${figures.coldQueries} SQL queries, ${items} items | < ${TARGETS.coldMs} ms, < ${TARGETS.coldQueries} queries | ${figures.coldMs < TARGETS.coldMs && figures.coldQueries < TARGETS.coldQueries && items === ITEMS ? 'PASS' : 'MISS'} |`
  );
  console.log(
    `| podcast feed, warm (cached, change check) | p50 ${ms(figures.warmP50Ms)}, p95 ${ms(figures.warmP95Ms)}, ${warmQueries} SQL queries | p50 < ${TARGETS.warmP50Ms} ms | ${figures.warmP50Ms < TARGETS.warmP50Ms ? 'PASS' : 'MISS'} |`
  );
  if (!figures.ok) process.exitCode = 1;
}

runBench('bench-feeds', main, say);
