/** What the segmented bench prints at the end: a table per step, then each figure against its target. */
import { printTable } from '../figures.mjs';
import { EDITS, MB, SLOTS, TARGETS, thousands, verdict } from './settings.mjs';

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

function creditsTable({ whole, segmented }) {
  console.log(
    `\nCredits at the emulator, ${EDITS} one-paragraph edits of a ${thousands(whole.characters)}-character article (${whole.paragraphs} paragraphs):\n`
  );
  printTable(
    ['edit', 'paragraph', 'change', 'whole: credits', 'segmented: credits', 'segmented: parts submitted'],
    whole.edits.map((edit, i) => {
      const part = segmented.edits[i];
      return [
        `${edit.n}`,
        `${edit.at + 1}`,
        edit.kind,
        thousands(edit.balance),
        thousands(part.balance),
        `${part.accepted} of ${part.parts ?? '?'}`,
      ];
    })
  );
  console.log(
    `| first narration | | | ${thousands(whole.first.balance)} | ${thousands(segmented.first.balance)} | ${segmented.first.accepted} of ${segmented.first.parts} |`
  );
  console.log(`| **${EDITS} edits** | | | **${thousands(whole.balance)}** | **${thousands(segmented.balance)}** | ${segmented.accepted} |`);
}

function joinTable({ runs, added }) {
  console.log(
    "\nAn hour's last callback -> narration on the public route, times from sending the callback; whole: the same hour as one file (the control):\n"
  );
  const span = (from, to) => (from === null || to === null ? '-' : `${from}-${to} ms`);
  printTable(
    [
      'run',
      'mode',
      'audio',
      'callback answered',
      'MP3s fetched before the last callback',
      'downloads after it (MP3 + SRT)',
      'Media Library files written',
      'stored (log)',
      'public',
      'extra memory peak (sampled)',
      'RSS after GC',
    ],
    runs.map((run) => [
      `${run.run}`,
      run.mode === 'whole' ? 'whole' : `segmented, ${run.parts} x ${run.partSeconds} s`,
      `${(run.durationSeconds / 60).toFixed(1)} min, ${(run.audioBytes / MB).toFixed(1)} MB`,
      `${run.acknowledgedMs} ms`,
      `${run.downloads.mp3Before}`,
      `${run.downloads.mp3} + ${run.downloads.srt}, ${(run.downloads.bytes / MB).toFixed(1)} MB: ${span(run.downloads.firstStartMs, run.downloads.lastEndMs)}`,
      run.uploads ? span(run.uploads.firstMs, run.uploads.lastMs) : '-',
      run.storedLoggedMs === null ? '-' : `${run.storedLoggedMs} ms`,
      `**${run.totalMs} ms**`,
      `**${(run.memory.peakExtra / MB).toFixed(1)} MB** (${(run.memory.sampledExtra / MB).toFixed(1)} MB)`,
      `${(run.memory.rssBefore / MB).toFixed(0)} MB`,
    ])
  );
  console.log(`\nSegmented minus whole (medians): ${added.ms} ms, ${(added.bytes / MB).toFixed(1)} MB.`);
}

function drainTable({ drains, alone, mixed }) {
  console.log("\nShort articles published alone and with long ones (publish -> the emulator receiving the short article's first part):\n");
  const row = (label, figures, extra) => [
    label,
    `${figures.p50} ms`,
    `${figures.p95} ms`,
    `${figures.max} ms`,
    `${figures.placeP50}`,
    `${figures.paceMs} ms`,
    ...extra,
  ];
  printTable(
    [
      'drain',
      'short wait p50',
      'p95',
      'max',
      'generations before it, p50',
      'one accepted every (median)',
      'generations',
      'drained in',
      'most in flight (to callback answered)',
      'order accepted (L long, S short), s after the publish',
    ],
    [
      ...drains.map((drain) =>
        row(drain.long ? `${drain.label} (${drain.longParts.join(', ')} parts)` : drain.label, { ...drain, ...drain.waitMs }, [
          `${drain.generations}`,
          seconds(drain.drainedMs),
          `${drain.inFlight.sure} (${drain.inFlight.upper})`,
          drain.order,
        ])
      ),
      row(`**pooled: alone (${alone.n} waits)**`, alone, ['', '', '', '']),
      row(`**pooled: with long ones (${mixed.n} waits)**`, mixed, ['', '', '', '']),
    ]
  );
}

export function report({ credits, join, drain }) {
  const rows = [];
  if (credits) {
    creditsTable(credits);
    rows.push([
      `credits of ${EDITS} one-paragraph edits, segmented vs whole (emulator balance)`,
      `${thousands(credits.segmented.balance)} vs ${thousands(credits.whole.balance)} = ${(credits.ratio * 100).toFixed(1)} %`,
      `<= ${TARGETS.creditsRatio * 100} %`,
      verdict(credits.ok),
    ]);
  }
  if (join) {
    joinTable(join);
    for (const run of join.runs.filter((r) => r.mode === 'segmented')) {
      rows.push([
        `an hour in ${run.parts} parts (run ${run.run}): last callback -> public; Strapi's extra memory`,
        `${run.totalMs} ms; ${(run.memory.peakExtra / MB).toFixed(1)} MB`,
        `< ${TARGETS.joinMs} ms; < ${TARGETS.joinMB} MB`,
        verdict(run.ok),
      ]);
    }
  }
  if (drain) {
    drainTable(drain);
    rows.push([
      `short articles' p50 wait beside long ones vs alone; most generations in flight`,
      `${drain.mixed.p50} vs ${drain.alone.p50} ms = x${drain.ratio.toFixed(2)} (generations before it p50 ${drain.mixed.placeP50} vs ${drain.alone.placeP50}); ${drain.mostInFlight}`,
      `<= x${TARGETS.drainRatio}; <= ${SLOTS}`,
      verdict(drain.ok),
    ]);
  }
  console.log('');
  printTable(['figure', 'measured', 'target', 'verdict'], rows);
}
