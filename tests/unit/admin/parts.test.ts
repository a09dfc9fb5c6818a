/**
 * What the admin says of a narration in parts (issue 23): the panel's progress ("7 of 18 parts
 * ready", "Narrated in 18 parts"), the cost of the changed parts ("2 of 18 parts changed: 640
 * credits"), and which part a failure is about; formatted as the admin formats them, in English
 * and in Arabic, from the plugin's translation files.
 */
import { createIntl, type IntlShape } from 'react-intl';
import en from '../../../admin/src/translations/en.json';
import ar from '../../../admin/src/translations/ar.json';
import { explainFailure } from '../../../admin/src/components/FailureReason';
import { getTranslation } from '../../../admin/src/utils/getTranslation';
import {
  failedPart,
  partsChangedMessage,
  partsProgressMessage,
  regenerateCostMessage,
  PARTS_MESSAGES,
  REGENERATE_MESSAGES,
  type MessageDescriptor,
} from '../../../admin/src/utils/parts';
import type { NarrationStatus } from '../../../admin/src/api/types';

/** What react-intl reported (a missing message, a bad pattern): nothing is expected. */
const intlErrors: string[] = [];

/** The admin's intl for a language: the plugin's messages under its prefix, as Strapi registers them. */
function intlFor(locale: 'en' | 'ar'): IntlShape {
  const messages = Object.fromEntries(Object.entries(locale === 'en' ? en : ar).map(([id, text]) => [getTranslation(id), text]));
  return createIntl({ locale, messages, onError: (error) => intlErrors.push(`${locale}: ${error.message}`) });
}

afterAll(() => {
  expect(intlErrors).toEqual([]);
});

const english = intlFor('en');
const arabic = intlFor('ar');

/** A descriptor as the components render it (t(id, defaultMessage, values)). */
const say = (intl: IntlShape, message: MessageDescriptor | null) =>
  message && intl.formatMessage({ id: getTranslation(message.id), defaultMessage: message.defaultMessage }, message.values);

const progress = (intl: IntlShape, status: NarrationStatus, parts: { total: number; ready: number } | null) =>
  say(intl, partsProgressMessage({ status, parts }, intl.formatNumber));

describe('the panel on a narration in parts', () => {
  it('shows how many parts are ready while they are generated, and after a failure', () => {
    expect(progress(english, 'awaiting_parts', { total: 18, ready: 7 })).toBe('7 of 18 parts ready');
    expect(progress(english, 'awaiting_parts', { total: 1, ready: 0 })).toBe('0 of 1 part ready');
    expect(progress(english, 'failed', { total: 18, ready: 17 })).toBe('17 of 18 parts ready');
    expect(progress(arabic, 'awaiting_parts', { total: 18, ready: 7 })).toBe('الأجزاء الجاهزة: 7 من 18');
  });

  it('says the parts are joined while stored, and how many parts the stored narration has', () => {
    expect(progress(english, 'storing', { total: 18, ready: 18 })).toBe('All 18 parts ready: joining them into one file');
    expect(progress(english, 'completed', { total: 18, ready: 18 })).toBe('Narrated in 18 parts');
    expect(progress(english, 'completed', { total: 1, ready: 1 })).toBe('Narrated in 1 part');
    expect(progress(arabic, 'completed', { total: 18, ready: 18 })).toBe('سُرد على 18 جزءًا');
    expect(progress(arabic, 'completed', { total: 2, ready: 2 })).toBe('سُرد على جزأين');
    expect(progress(arabic, 'completed', { total: 5, ready: 5 })).toBe('سُرد على 5 أجزاء');
  });

  it('says nothing in whole mode, for a queued version (no plan yet) or a cancelled one', () => {
    expect(progress(english, 'awaiting_callback', null)).toBeNull();
    expect(progress(english, 'completed', null)).toBeNull();
    expect(progress(english, 'queued', { total: 18, ready: 18 })).toBeNull();
    expect(progress(english, 'cancelled', { total: 18, ready: 3 })).toBeNull();
    expect(progress(english, 'awaiting_parts', { total: 0, ready: 0 })).toBeNull();
    expect(partsProgressMessage(null, String)).toBeNull();
  });
});

describe('the cost of the changed parts', () => {
  const estimate = { parts: { total: 18, changed: 2 }, credits: 1_640 };

  it('is what narrating pays: the changed parts only, with the credits in the panel', () => {
    expect(say(english, partsChangedMessage(estimate, english.formatNumber, { withCredits: true }))).toBe(
      '2 of 18 parts changed: 1,640 credits'
    );
    expect(say(english, partsChangedMessage(estimate, english.formatNumber, { withCredits: false }))).toBe('2 of 18 parts changed');
    expect(say(arabic, partsChangedMessage(estimate, arabic.formatNumber, { withCredits: true }))).toBe(
      `الأجزاء المتغيّرة: 2 من 18، بتكلفة ${arabic.formatNumber(1_640)} رصيد`
    );
    expect(say(english, partsChangedMessage({ parts: { total: 1, changed: 1 }, credits: 90 }, String, { withCredits: true }))).toBe(
      '1 of 1 part changed: 90 credits'
    );
  });

  it('is not said of a type narrated whole', () => {
    expect(partsChangedMessage({ parts: null, credits: 120 }, String, { withCredits: true })).toBeNull();
  });

  it('has its messages in both languages', () => {
    for (const message of Object.values(PARTS_MESSAGES)) {
      expect({ id: message.id, en: (en as Record<string, string>)[message.id] }).toEqual({ id: message.id, en: message.defaultMessage });
      expect((ar as Record<string, string>)[message.id]).toMatch(/[\u0600-\u06FF]/);
    }
  });
});

describe('the cost of regenerating', () => {
  // A publish of this version would pay its 2 changed parts; "Regenerate" asks for all 18 again.
  const estimate = {
    parts: { total: 18, changed: 2 },
    characters: 640,
    credits: 1_280,
    preprocessType: '2' as const,
    regeneration: { characters: 5_760, credits: 11_520 },
  };

  it('in parts is every part, unchanged ones included: not the changed parts the publish estimate counts', () => {
    expect(say(english, regenerateCostMessage(estimate, english.formatNumber))).toBe(
      'All 18 parts are generated again and paid, unchanged ones included: 11,520 credits (5,760 characters × 2).'
    );
    expect(say(arabic, regenerateCostMessage(estimate, arabic.formatNumber))).toBe(
      `تُولَّد الأجزاء كلها (18) من جديد ويُدفع ثمنها، ومنها التي لم تتغيّر: ${arabic.formatNumber(11_520)} رصيد (${arabic.formatNumber(5_760)} حرفًا × 2).`
    );
  });

  it('whole is the whole text; unknown without an estimate', () => {
    const whole = {
      parts: null,
      characters: 900,
      credits: 900,
      preprocessType: '0' as const,
      regeneration: { characters: 900, credits: 900 },
    };
    expect(say(english, regenerateCostMessage(whole, english.formatNumber))).toBe('Cost: 900 credits (900 characters × 1).');
    expect(say(english, regenerateCostMessage(undefined, english.formatNumber))).toBe('The cost could not be estimated.');
  });

  it('has its messages in both languages', () => {
    for (const message of Object.values(REGENERATE_MESSAGES)) {
      expect({ id: message.id, en: (en as Record<string, string>)[message.id] }).toEqual({ id: message.id, en: message.defaultMessage });
      expect((ar as Record<string, string>)[message.id]).toMatch(/[\u0600-\u06FF]/);
    }
  });
});

describe('a failure of one part', () => {
  it('reads the part out of the server text', () => {
    expect(failedPart('Part 3 of 18: The speech service failed.')).toEqual({ part: 3, total: 18, reason: 'The speech service failed.' });
    expect(failedPart('The speech service failed.')).toBeNull();
    expect(failedPart('Part three of 18: no')).toBeNull();
    expect(failedPart(null)).toBeNull();
  });

  it('names the part in the editor language, with the reason of a known code', () => {
    const row = { lastError: 'Part 3 of 18: Processing failed at the service.', lastErrorCode: 'PROCESSING_ERROR' };
    expect(explainFailure(row, english)).toBe('Part 3 of 18: The speech service failed while generating the audio.');
    expect(explainFailure(row, arabic)).toBe('الجزء 3 من 18: فشلت خدمة الكلام أثناء توليد الصوت.');
    // An unknown code keeps the server's words after the part.
    expect(explainFailure({ lastError: 'Part 2 of 4: Something new.', lastErrorCode: 'SOMETHING_NEW' }, arabic)).toBe(
      'الجزء 2 من 4: Something new.'
    );
  });

  it('advises the segmented mode for a whole article over the limit, and smaller parts for a part over it', () => {
    const whole = { lastError: 'This article (12,000 characters) is more than ...', lastErrorCode: 'TEXT_TOO_LONG' };
    expect(explainFailure(whole, english)).toBe(
      'The article is longer than the speech service takes in one request; nothing was charged. Choose “In parts” as the narration mode of this content type in the Speech settings.'
    );
    const part = { lastError: 'Part 3 of 18: This part (2,400 characters) is more than ...', lastErrorCode: 'TEXT_TOO_LONG' };
    expect(explainFailure(part, english)).toBe(
      'Part 3 of 18: This part is longer than the speech service takes in one request; nothing was charged. Lower the longest part of this content type in the Speech settings.'
    );
    expect(explainFailure(part, arabic)).toMatch(/^الجزء 3 من 18: هذا الجزء أطول/);
    expect(explainFailure({ lastError: 'Lost', lastErrorCode: 'PART_LOST' }, arabic)).toBe(
      'تعذّر جلب صوت أحد الأجزاء من خدمة الكلام؛ يُطلب من جديد دون أن يُدفع ثمنه مرتين.'
    );
  });

  it('leaves an article without a failure text without a reason', () => {
    expect(explainFailure({ lastError: null, lastErrorCode: null }, english)).toBeNull();
    expect(explainFailure({ lastError: 'Plain words.', lastErrorCode: null }, english)).toBe('Plain words.');
  });
});
