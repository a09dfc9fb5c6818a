import fs from 'node:fs';
import path from 'node:path';
import enMain from '../../../admin/src/translations/en.json';
import arMain from '../../../admin/src/translations/ar.json';
import enVerification from '../../../admin/src/translations/verification/en.json';
import arVerification from '../../../admin/src/translations/verification/ar.json';
import enPassages from '../../../admin/src/translations/passages/en.json';
import arPassages from '../../../admin/src/translations/passages/ar.json';
import enQueue from '../../../admin/src/translations/queue/en.json';
import arQueue from '../../../admin/src/translations/queue/ar.json';
import { STATUS_LABELS } from '../../../admin/src/pages/Queue/CountsCard';
import { BADGE_LABEL, KNOWN_ERROR_CODES } from '../../../admin/src/utils/status';
import { VALIDATION_MESSAGES } from '../../../admin/src/pages/Settings/form';
import { FAILURE_REASON_DEFAULTS } from '../../../admin/src/components/FailureReason';
import { PARTS_MESSAGES } from '../../../admin/src/utils/parts';
import { SERIES_MESSAGES } from '../../../admin/src/utils/usageFormat';

const SRC = path.resolve(__dirname, '../../../admin/src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/** Message ids used in the code: t('id', ...) and getTranslation('id'), plus the ids built from constants. */
function usedIds(): Set<string> {
  const ids = new Set<string>();
  for (const file of sources(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bt\(\s*'([^']+)'/g)) ids.add(match[1]);
    for (const match of text.matchAll(/getTranslation\('([^']+)'\)/g)) ids.add(match[1]);
  }
  Object.keys(BADGE_LABEL).forEach((kind) => ids.add(`badge.${kind}`));
  KNOWN_ERROR_CODES.forEach((code) => ids.add(`error.${code}`));
  Object.keys(VALIDATION_MESSAGES).forEach((id) => ids.add(id));
  Object.values(PARTS_MESSAGES).forEach((message) => ids.add(message.id));
  Object.values(SERIES_MESSAGES).forEach((message) => ids.add(message.id));
  Object.values(STATUS_LABELS).forEach(([id]) => ids.add(id));
  // Registered in index.ts under the plugin's prefix (the widgets' titles and links).
  ids.add('widget.title').add('widget.link').add('listeningWidget.title').add('listeningWidget.link');
  return ids;
}

/** ICU argument names ({count}, {count, plural, ...}); plural branches such as {# entries} are not arguments. */
const placeholders = (message: string) => [...new Set([...message.matchAll(/\{(\w+)\s*[,}]/g)].map((match) => match[1]))].sort();

/** The catalogues of a language, merged as the admin's registerTrads merges them (admin/src/index.ts). */
const en: Record<string, string> = { ...enMain, ...enVerification, ...enPassages, ...enQueue };
const ar: Record<string, string> = { ...arMain, ...arVerification, ...arPassages, ...arQueue };

describe('admin translations', () => {
  const english = en;
  const arabic = ar;

  it('gives each id to one catalogue only', () => {
    expect(Object.keys(enVerification).filter((id) => id in enMain)).toEqual([]);
    expect(Object.keys(arVerification).filter((id) => id in arMain)).toEqual([]);
    expect(Object.keys(enPassages).filter((id) => id in enMain || id in enVerification)).toEqual([]);
    expect(Object.keys(arPassages).filter((id) => id in arMain || id in arVerification)).toEqual([]);
    expect(Object.keys(enQueue).filter((id) => id in enMain || id in enVerification || id in enPassages)).toEqual([]);
    expect(Object.keys(arQueue).filter((id) => id in arMain || id in arVerification || id in arPassages)).toEqual([]);
  });

  it('has an English text for every id the code uses', () => {
    const missing = [...usedIds()].filter((id) => !(id in english));
    expect(missing).toEqual([]);
  });

  it('has the English defaults of the code in en.json (messages the code keeps in tables)', () => {
    const defaults = {
      ...Object.fromEntries(KNOWN_ERROR_CODES.map((code) => [`error.${code}`, FAILURE_REASON_DEFAULTS[code]])),
      ...VALIDATION_MESSAGES,
      ...Object.fromEntries(Object.values(PARTS_MESSAGES).map((message) => [message.id, message.defaultMessage])),
      ...Object.fromEntries(Object.values(SERIES_MESSAGES).map((message) => [message.id, message.defaultMessage])),
    };
    for (const [id, text] of Object.entries(defaults)) expect({ id, text: english[id] }).toEqual({ id, text });
  });

  it('has the same ids in Arabic as in English, with the same placeholders', () => {
    expect(Object.keys(arabic).sort()).toEqual(Object.keys(english).sort());
    for (const [id, message] of Object.entries(english)) {
      expect({ id, placeholders: placeholders(arabic[id]) }).toEqual({ id, placeholders: placeholders(message) });
    }
  });

  it('really is Arabic', () => {
    for (const [id, message] of Object.entries(arabic)) {
      expect({ id, arabic: /[\u0600-\u06FF]/.test(message) }).toEqual({ id, arabic: true });
    }
  });
});
