/**
 * Step 1 of the segmented bench: what ten successive one-paragraph edits of a 20,000-character
 * article cost at the emulator, in whole mode and in segmented mode. The same article (the
 * segmenting tests' generator, seed 1, English) and the same edits (one word changed or one
 * sentence added in one paragraph, drawn from the same seed) are published in each mode as a new
 * document: first publish, then for each edit a Content Manager update and publish, each narration
 * completed (the admin's row completed with a new completedAt) before the next edit. Paid = the
 * emulator's balance before minus after (GET /__control/credits), checked against its CREDITS_CHARGED
 * minus CREDITS_REFUNDED events for the article and its parts.
 */
import { contentManager } from '../../bench-support.mjs';
import { blocks, emulatorControl, narrateArticlesIn, ofArticle, waitForNewNarration } from './plugin.mjs';
import { DEFAULT_SEGMENT, EDITS, EDIT_CHARACTERS, EDIT_GENERATION_MS, TARGETS, UID, say, thousands } from './settings.mjs';

const SEED = 1;

/** Which paragraph an edit touched, and how: a sentence added, or a word changed. */
function describeEdit(before, after) {
  const at = after.findIndex((text, index) => text !== before[index]);
  if (at < 0) return { at: -1, kind: 'none', paragraphCharacters: 0 };
  const kind = after[at].startsWith(`${before[at]} `) ? 'sentence added' : 'word changed';
  return { at, kind, paragraphCharacters: after[at].length };
}

/** The emulator's view of one narration: what it was paid, from its balance and from its events. */
async function paidFor(emulator, articleId, action) {
  const mine = ofArticle(articleId);
  const balanceBefore = await emulator.credits();
  const eventsBefore = (await emulator.events()).length;
  const requestsBefore = await emulator.lastRequestId();
  const row = await action();
  const events = (await emulator.events()).slice(eventsBefore).filter((event) => mine(event.articleId));
  const sum = (type) => events.filter((event) => event.type === type).reduce((total, event) => total + event.credits, 0);
  const submissions = (await emulator.submissions(requestsBefore)).filter((request) => mine(request.body?.postData?.articleId));
  return {
    row,
    balance: balanceBefore - (await emulator.credits()),
    charged: sum('CREDITS_CHARGED'),
    refunded: sum('CREDITS_REFUNDED'),
    submissions: submissions.length,
    accepted: submissions.filter((request) => request.status === 202).length,
  };
}

async function editsIn(mode, { server, emulator, fixtures }) {
  await narrateArticlesIn(server, mode, DEFAULT_SEGMENT);
  const cm = contentManager(server.url, server.token, UID);
  let paragraphs = fixtures.article(SEED, 'en', EDIT_CHARACTERS);
  const random = fixtures.seededRandom(SEED * 7_919);
  const draft = await cm.create({ title: 'Bench article: ten edits', summary: 'What ten edits cost.', body: blocks(paragraphs) });
  const articleId = `${draft.documentId}-en`;
  let completedAt = null;
  const narrate = async (change) => {
    const paid = await paidFor(emulator, articleId, async () => {
      await change();
      await cm.publish(draft.documentId);
      return waitForNewNarration(server, draft.documentId, completedAt, 180_000);
    });
    completedAt = paid.row.completedAt;
    const { row, ...figures } = paid;
    return { ...figures, characters: row.characters, parts: row.parts?.total ?? null };
  };

  const first = await narrate(async () => {});
  const edits = [];
  for (let n = 1; n <= EDITS; n += 1) {
    const before = paragraphs;
    paragraphs = fixtures.editOneParagraph(paragraphs, random, 'en');
    const edit = describeEdit(before, paragraphs);
    const paid = await narrate(() => cm.update(draft.documentId, { body: blocks(paragraphs) }));
    edits.push({ n, ...edit, ...paid });
  }
  const total = (key) => edits.reduce((sum, edit) => sum + edit[key], 0);
  const result = {
    mode,
    articleId,
    paragraphs: paragraphs.length,
    characters: first.characters,
    first,
    edits,
    balance: total('balance'),
    charged: total('charged'),
    refunded: total('refunded'),
    accepted: total('accepted'),
  };
  result.ledgerAgrees = [first, ...edits].every((paid) => paid.balance === paid.charged - paid.refunded);
  say(
    `credits, ${mode}: first narration ${thousands(first.balance)} credits (${first.accepted} submissions${result.first.parts ? `, ${result.first.parts} parts` : ''}); ` +
      `${EDITS} edits ${thousands(result.balance)} credits in ${result.accepted} submissions; ` +
      `balance deltas ${result.ledgerAgrees ? 'equal' : 'DIFFER FROM'} the CREDITS_CHARGED - CREDITS_REFUNDED events`
  );
  return result;
}

export async function creditsOverEdits({ server, emulatorUrl, fixtures }) {
  const emulator = emulatorControl(emulatorUrl);
  await emulator.configure({ generationDelayMs: EDIT_GENERATION_MS });
  const whole = await editsIn('whole', { server, emulator, fixtures });
  const segmented = await editsIn('segmented', { server, emulator, fixtures });
  const ratio = segmented.balance / whole.balance;
  const result = { whole, segmented, ratio, ok: ratio <= TARGETS.creditsRatio && whole.ledgerAgrees && segmented.ledgerAgrees };
  say(
    `credits: ${EDITS} edits paid ${thousands(segmented.balance)} in segmented mode against ${thousands(whole.balance)} in whole mode: ` +
      `${(ratio * 100).toFixed(1)} % (target <= ${TARGETS.creditsRatio * 100} %)`
  );
  return result;
}
