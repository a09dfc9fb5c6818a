import {
  MAX_SEGMENT_CHARACTERS,
  MIN_SEGMENT_CHARACTERS,
  type ContentTypeDescription,
  type TypeSettings,
  type FieldError,
  type FileTypeSettings,
  type LexiconRule,
  type PreprocessType,
  type SettingsChanges,
  type SkippableBlock,
  type SpeechSettings,
} from '../../api/types';
import type { TypeForm } from './type-sections/type-form';
import { BUDGET_VALIDATION_MESSAGES, budgetChanges, toBudgetForm, validateBudget, type BudgetForm } from './budgetForm';

/**
 * The settings form as the page edits it, and its conversion to the PUT body. Pure: unit-tested.
 */

export type { TypeForm };

export interface SettingsForm {
  defaultVoiceId: string;
  /** Voice per locale; undefined when the server does not offer the setting (older servers). */
  localeVoices?: Record<string, string>;
  /** Quote voice per locale (passage voices); undefined when the server does not offer the setting. */
  quoteVoices?: Record<string, string>;
  preprocessType: PreprocessType;
  contentTypes: Record<string, TypeForm>;
  /** Pronunciation rules; undefined when the server does not offer them (older servers). */
  lexicon?: LexiconRule[];
  /** Site name and templates; undefined when the server does not offer them (older servers). */
  spoken?: SpokenFrame;
  /**
   * The longest part of every type narrated in parts without its own size; null while the field
   * is empty (refused: the server keeps a saved size when none is sent). Undefined when the server
   * does not offer the setting (older servers).
   */
  segmentCharacters?: number | null;
  /**
   * The global size the server gave: the field is sent only when it differs (a runtime copy of a
   * size the editor did not touch would pin it against later changes of the configuration file).
   */
  serverSegmentCharacters?: number;
  /** The monthly budget (budgetForm.ts); undefined when the server does not offer it (older servers). */
  budget?: BudgetForm;
  /** The budget the server gave: only the keys that differ from it are sent. */
  serverBudget?: BudgetForm;
  /**
   * The share of words a check must hear, in per cent as the field shows it (null while empty);
   * undefined when the server does not offer verification (older servers).
   */
  minWordPercent?: number | null;
  /** The server's, in per cent: the field is sent only when it differs. */
  serverMinWordPercent?: number;
}

/** What is read around every article: `{site}`, and intro and outro templates by locale (`*`: every other). */
export interface SpokenFrame {
  siteName: string;
  introTemplates: Record<string, string>;
  outroTemplates: Record<string, string>;
}

/** `fileTypes`: GET /speech/settings' `fileContentTypes` (left out by older servers). */
export function toForm(
  settings: SpeechSettings,
  described: ContentTypeDescription[],
  fileTypes?: Record<string, FileTypeSettings>
): SettingsForm {
  const contentTypes: Record<string, TypeForm> = {};
  for (const type of described) {
    const config = settings.contentTypes[type.uid] ?? null;
    contentTypes[type.uid] = {
      enabled: Boolean(config && config.trigger !== 'off'),
      trigger: type.draftAndPublish ? 'publish' : 'save',
      titleField: config?.titleField ?? null,
      textFields: config?.textFields ? [...config.textFields] : [],
      skipBlocks: config?.skipBlocks ? [...config.skipBlocks] : [],
      authorField: config?.authorField ?? null,
      narrationMode: config?.narrationMode === 'segmented' ? 'segmented' : 'whole',
      segmentCharacters: config?.segmentCharacters ?? null,
      verify: config?.verify === true,
      onMismatch: config?.verification?.onMismatch === 'regenerate' ? 'regenerate' : 'flag',
      passageVoices: config?.passageVoices === true,
      original: config,
      ...(fileTypes ? { file: fileTypes[type.uid] ?? {} } : {}),
    };
  }
  const localeVoices = settings.localeVoices ? { localeVoices: { ...settings.localeVoices } } : {};
  const quoteVoices = settings.quoteVoices ? { quoteVoices: { ...settings.quoteVoices } } : {};
  return {
    defaultVoiceId: settings.defaultVoiceId ?? '',
    ...localeVoices,
    ...quoteVoices,
    preprocessType: settings.preprocessType === '2' ? '2' : '0',
    contentTypes,
    ...(settings.lexicon ? { lexicon: settings.lexicon.map((rule) => ({ ...rule })) } : {}),
    ...(settings.siteName !== undefined || settings.introTemplates || settings.outroTemplates
      ? {
          spoken: {
            siteName: settings.siteName ?? '',
            introTemplates: { ...settings.introTemplates },
            outroTemplates: { ...settings.outroTemplates },
          },
        }
      : {}),
    ...(settings.segmentCharacters !== undefined
      ? { segmentCharacters: settings.segmentCharacters, serverSegmentCharacters: settings.segmentCharacters }
      : {}),
    ...(settings.budget ? { budget: toBudgetForm(settings.budget), serverBudget: toBudgetForm(settings.budget) } : {}),
    ...(settings.verification
      ? {
          minWordPercent: percentOf(settings.verification.minWordAccuracy),
          serverMinWordPercent: percentOf(settings.verification.minWordAccuracy),
        }
      : {}),
  };
}

/** A share (0 to 1) as the per cent the field shows, to a tenth. */
const percentOf = (share: number) => Math.round(share * 1000) / 10;

export function fromForm(form: SettingsForm): SettingsChanges {
  const contentTypes: Record<string, TypeSettings> = {};
  for (const [uid, type] of Object.entries(form.contentTypes)) {
    if (type.enabled) {
      // No trigger: the server narrates the type when it is published, or saved if it has no draft & publish.
      contentTypes[uid] = {
        textFields: type.textFields,
        ...(type.titleField ? { titleField: type.titleField } : {}),
        ...readingOf(type),
        ...modeOf(type),
        ...verifyOf(type),
        ...passageVoicesOf(type),
      };
    } else if (type.original) {
      const textFields = type.textFields.length ? type.textFields : type.original.textFields;
      const titleField = type.titleField ?? undefined;
      contentTypes[uid] = {
        trigger: 'off',
        textFields,
        ...(titleField ? { titleField } : {}),
        ...readingOf(type),
        ...modeOf(type),
        ...verifyOf(type),
        ...passageVoicesOf(type),
      };
    }
  }
  const body: SettingsChanges = { preprocessType: form.preprocessType, contentTypes };
  if (form.defaultVoiceId) body.defaultVoiceId = form.defaultVoiceId;
  // The server replaces the whole map: a locale left without a voice is read in the default one.
  if (form.lexicon) body.lexicon = form.lexicon;
  if (form.spoken) {
    body.siteName = form.spoken.siteName.trim();
    body.introTemplates = withoutEmpty(form.spoken.introTemplates);
    body.outroTemplates = withoutEmpty(form.spoken.outroTemplates);
  }
  // Only when the editor changed it: the size as shown stays the file's (or the saved one) unpinned.
  if (form.segmentCharacters !== undefined && form.segmentCharacters !== null && form.segmentCharacters !== form.serverSegmentCharacters)
    body.segmentCharacters = form.segmentCharacters;
  const budget = form.budget && form.serverBudget ? budgetChanges(form.budget, form.serverBudget) : undefined;
  if (budget) body.budget = budget;
  if (form.minWordPercent !== undefined && form.minWordPercent !== null && form.minWordPercent !== form.serverMinWordPercent)
    body.verification = { minWordAccuracy: form.minWordPercent / 100 };
  if (form.localeVoices) body.localeVoices = Object.fromEntries(Object.entries(form.localeVoices).filter(([, voiceId]) => voiceId));
  if (form.quoteVoices) body.quoteVoices = Object.fromEntries(Object.entries(form.quoteVoices).filter(([, voiceId]) => voiceId));
  return body;
}

/**
 * Skipped blocks and the author field of a type. Where the server gives the file's values, each is
 * sent only when it differs from the file's (an empty list over the file's list overrides it), so
 * the file's stays the file's. Otherwise skipped blocks are sent once the server had a list or one
 * is chosen (an empty list then overrides the configuration file's). No author field is sent as
 * none, so the file's (if any) applies.
 */
function readingOf(type: TypeForm): Pick<TypeSettings, 'skipBlocks' | 'authorField'> {
  const { file } = type;
  const sendBlocks = file ? !sameBlocks(type.skipBlocks, file.skipBlocks ?? []) : type.skipBlocks.length || type.original?.skipBlocks;
  const author = type.authorField !== file?.authorField ? type.authorField : null;
  return { ...(sendBlocks ? { skipBlocks: type.skipBlocks } : {}), ...(author ? { authorField: author } : {}) };
}

/** The same kinds of block, in any order. */
function sameBlocks(shown: readonly SkippableBlock[], file: readonly SkippableBlock[]): boolean {
  return shown.length === file.length && shown.every((block) => file.includes(block));
}

/**
 * The narration mode and the type's own part size. The server replaces a saved type whole, so a
 * value saved before is sent back, never reset by saving the page. Where the server gives the
 * file's values, a value equal to the file's is left out: the file's applies, and stays the file's
 * when the file changes (a copy sent back would pin it). Otherwise both are sent as the server had
 * them; the mode is left out only where the server said nothing of it (older servers, which refuse
 * the key) and it stays whole. The size field is shown for a narrated type in parts, and checked
 * there before saving; an unchecked edit left in a hidden field is not sent, the server's size
 * stays. An empty field over a size of the file's is sent as null: cleared (left out, the file's
 * size would apply again); so is one where the server had a size, or had it cleared, when it does
 * not give the file's. No size anywhere: none is sent, the global applies.
 */
function modeOf(type: TypeForm): Pick<TypeSettings, 'narrationMode' | 'segmentCharacters'> {
  const shown = type.enabled && type.narrationMode === 'segmented';
  const size =
    shown || type.segmentCharacters === null || segmentCharactersValid(type.segmentCharacters)
      ? type.segmentCharacters
      : (type.original?.segmentCharacters ?? null);
  if (type.file) {
    return {
      ...(type.narrationMode !== (type.file.narrationMode ?? 'whole') ? { narrationMode: type.narrationMode } : {}),
      ...(size !== (type.file.segmentCharacters ?? null) ? { segmentCharacters: size } : {}),
    };
  }
  const mode = type.original?.narrationMode !== undefined || type.narrationMode !== 'whole' ? { narrationMode: type.narrationMode } : {};
  if (size !== null) return { ...mode, segmentCharacters: size };
  return type.original?.segmentCharacters !== undefined ? { ...mode, segmentCharacters: null } : mode;
}

/**
 * Whether the type verifies, and what a mismatch does. Where the server gives the file's values,
 * each is sent only when it differs (the file's stays the file's); otherwise once set, or once the
 * server had one.
 */
function verifyOf(type: TypeForm): Pick<TypeSettings, 'verify' | 'verification'> {
  const onMismatch = type.file
    ? type.onMismatch !== (type.file.verification?.onMismatch ?? 'flag')
    : type.onMismatch !== 'flag' || type.original?.verification?.onMismatch !== undefined;
  const verification = onMismatch ? { verification: { onMismatch: type.onMismatch } } : {};
  if (type.file) return { ...(type.verify !== (type.file.verify ?? false) ? { verify: type.verify } : {}), ...verification };
  return { ...(type.verify || type.original?.verify !== undefined ? { verify: type.verify } : {}), ...verification };
}

/**
 * Whether the type reads passages in their own voices: where the server gives the file's value,
 * sent only when it differs; otherwise once on, or once the server had it.
 */
function passageVoicesOf(type: TypeForm): Pick<TypeSettings, 'passageVoices'> {
  if (type.file) return type.passageVoices !== (type.file.passageVoices ?? false) ? { passageVoices: type.passageVoices } : {};
  return type.passageVoices || type.original?.passageVoices !== undefined ? { passageVoices: type.passageVoices } : {};
}

/** A part size the server takes: a whole number of characters within the contract's bounds. */
export function segmentCharactersValid(size: number): boolean {
  return Number.isInteger(size) && size >= MIN_SEGMENT_CHARACTERS && size <= MAX_SEGMENT_CHARACTERS;
}

/** Templates without the locales left blank (the server replaces the whole map). */
function withoutEmpty(templates: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(templates).filter(([, template]) => template.trim()));
}

/** Messages of the checks below; their ids are translation keys. */
export const VALIDATION_MESSAGES: Record<string, string> = {
  'validation.voiceRequired': 'Choose a voice.',
  'validation.textFieldsRequired': 'Choose at least one text field.',
  'validation.termRequired': 'Write the term to replace.',
  'validation.spokenRequired': 'Write how the term is spoken.',
  'validation.segmentCharacters': 'Write a whole number of characters from {min} to {max}.',
  'validation.minWordPercent': 'Write a share of words from 0 to 100 %.',
  ...BUDGET_VALIDATION_MESSAGES,
};

/** A new, empty pronunciation rule (every locale, whole words, any case). */
export const emptyLexiconRule = (): LexiconRule => ({
  term: '',
  spoken: '',
  locale: null,
  wholeWord: true,
  caseSensitive: false,
  ignoreDiacritics: false,
  letterVariants: false,
});

/** The Arabic-only options apply to rules of every locale or of an Arabic one. */
export function offersArabicOptions(rule: Pick<LexiconRule, 'locale'>): boolean {
  return rule.locale === null || /^ar(?:$|[-_])/i.test(rule.locale);
}

/**
 * Checks made before saving, with the same paths as the server's validation errors. Messages are
 * keys of VALIDATION_MESSAGES (translated by the page); the server's own messages are shown as sent.
 */
export function validateForm(form: SettingsForm): FieldError[] {
  const errors: FieldError[] = [];
  const anyEnabled = Object.values(form.contentTypes).some((type) => type.enabled);
  if (anyEnabled && !form.defaultVoiceId) errors.push({ path: ['defaultVoiceId'], message: 'validation.voiceRequired' });
  for (const [uid, type] of Object.entries(form.contentTypes)) {
    if (type.enabled && type.textFields.length === 0)
      errors.push({ path: ['contentTypes', uid, 'textFields'], message: 'validation.textFieldsRequired' });
    // Checked where the field is shown: a narrated type in parts with a size of its own.
    if (
      type.enabled &&
      type.narrationMode === 'segmented' &&
      type.segmentCharacters !== null &&
      !segmentCharactersValid(type.segmentCharacters)
    )
      errors.push({ path: ['contentTypes', uid, 'segmentCharacters'], message: 'validation.segmentCharacters' });
  }
  if (form.segmentCharacters === null || (form.segmentCharacters !== undefined && !segmentCharactersValid(form.segmentCharacters)))
    errors.push({ path: ['segmentCharacters'], message: 'validation.segmentCharacters' });
  errors.push(...validateBudget(form.budget));
  if (form.minWordPercent === null || (form.minWordPercent !== undefined && !(form.minWordPercent >= 0 && form.minWordPercent <= 100)))
    errors.push({ path: ['verification', 'minWordAccuracy'], message: 'validation.minWordPercent' });
  form.lexicon?.forEach((rule, index) => {
    if (!rule.term.trim()) errors.push({ path: ['lexicon', String(index), 'term'], message: 'validation.termRequired' });
    if (!rule.spoken.trim()) errors.push({ path: ['lexicon', String(index), 'spoken'], message: 'validation.spokenRequired' });
  });
  return errors;
}

export function isDirty(form: SettingsForm, baseline: SettingsForm): boolean {
  return JSON.stringify(fromForm(form)) !== JSON.stringify(fromForm(baseline));
}

/** Credits for a number of characters in a mode (spec: x1 for "0", x2 for "2"). */
export function creditsFor(characters: number, preprocessType: PreprocessType): number {
  return characters * (preprocessType === '2' ? 2 : 1);
}
