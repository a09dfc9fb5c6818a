/**
 * The settings form and verified narration (issue 37): a type's `verify` and the share of words a
 * check must hear, read from the server's settings and sent back only where they changed.
 */
import { fromForm, toForm, validateForm } from '../../../admin/src/pages/Settings/form';
import type { ContentTypeDescription, SpeechSettings } from '../../../admin/src/api/types';
import { describedType } from './fixtures';

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';

const described: ContentTypeDescription[] = [
  describedType(ARTICLE, 'Article', { title: 'string', body: 'blocks' }, { draftAndPublish: true, localized: true }),
  describedType(PAGE, 'Page', { title: 'string', content: 'richtext' }, { draftAndPublish: false, localized: false }),
];

const settings: SpeechSettings = {
  defaultVoiceId: 'en-female-1',
  localeVoices: {},
  preprocessType: '0',
  contentTypes: {
    [ARTICLE]: { titleField: 'title', textFields: ['body'], trigger: 'publish', narrationMode: 'whole', verify: true },
    [PAGE]: { titleField: 'title', textFields: ['content'], trigger: 'save', narrationMode: 'whole' },
  },
  lexicon: [],
  siteName: '',
  introTemplates: {},
  outroTemplates: {},
  segmentCharacters: 2_000,
  budget: { monthlyCredits: null, timeZone: 'UTC', contentTypes: {} },
  verification: { minWordAccuracy: 0.95 },
};

describe('settings form: verification', () => {
  it('reads which types verify and the share of words in per cent', () => {
    const form = toForm(settings, described);
    expect(form.contentTypes[ARTICLE].verify).toBe(true);
    expect(form.contentTypes[PAGE].verify).toBe(false);
    expect(form.minWordPercent).toBe(95);
  });

  it('sends a type that verifies back as verifying, and a type that never did without the key', () => {
    const body = fromForm(toForm(settings, described));
    expect(body.contentTypes?.[ARTICLE]).toMatchObject({ verify: true });
    expect(body.contentTypes?.[PAGE]).not.toHaveProperty('verify');
    expect(body).not.toHaveProperty('verification');
  });

  it('sends verify where it differs from the configuration file, and leaves the file its own value', () => {
    const fromFile = toForm(settings, described, { [ARTICLE]: { verify: true }, [PAGE]: {} });
    expect(fromForm(fromFile).contentTypes?.[ARTICLE]).not.toHaveProperty('verify');
    const switchedOff = {
      ...fromFile,
      contentTypes: { ...fromFile.contentTypes, [ARTICLE]: { ...fromFile.contentTypes[ARTICLE], verify: false } },
    };
    expect(fromForm(switchedOff).contentTypes?.[ARTICLE]).toMatchObject({ verify: false });
    const switchedOn = {
      ...fromFile,
      contentTypes: { ...fromFile.contentTypes, [PAGE]: { ...fromFile.contentTypes[PAGE], verify: true } },
    };
    expect(fromForm(switchedOn).contentTypes?.[PAGE]).toMatchObject({ verify: true });
  });

  it('sends what a mismatch does once it is not the default, or once the server had it', () => {
    const form = toForm(settings, described);
    expect(form.contentTypes[ARTICLE].onMismatch).toBe('flag');
    expect(fromForm(form).contentTypes?.[ARTICLE]).not.toHaveProperty('verification');
    const regenerating = {
      ...form,
      contentTypes: { ...form.contentTypes, [ARTICLE]: { ...form.contentTypes[ARTICLE], onMismatch: 'regenerate' as const } },
    };
    expect(fromForm(regenerating).contentTypes?.[ARTICLE]).toMatchObject({ verify: true, verification: { onMismatch: 'regenerate' } });
    // Read back from the server, and set back to flag: sent, so the saved choice is replaced.
    const saved = {
      ...settings,
      contentTypes: {
        ...settings.contentTypes,
        [ARTICLE]: { ...settings.contentTypes[ARTICLE], verification: { onMismatch: 'regenerate' as const } },
      },
    };
    const back = toForm(saved, described);
    expect(back.contentTypes[ARTICLE].onMismatch).toBe('regenerate');
    const flagged = {
      ...back,
      contentTypes: { ...back.contentTypes, [ARTICLE]: { ...back.contentTypes[ARTICLE], onMismatch: 'flag' as const } },
    };
    expect(fromForm(flagged).contentTypes?.[ARTICLE]).toMatchObject({ verification: { onMismatch: 'flag' } });
    // The file's choice stays the file's.
    const fromFile = toForm(saved, described, { [ARTICLE]: { verify: true, verification: { onMismatch: 'regenerate' } }, [PAGE]: {} });
    expect(fromForm(fromFile).contentTypes?.[ARTICLE]).not.toHaveProperty('verification');
  });

  it('sends the share of words only when the editor changed it, as a share from 0 to 1', () => {
    const form = toForm(settings, described);
    expect(fromForm({ ...form, minWordPercent: 90 }).verification).toEqual({ minWordAccuracy: 0.9 });
    expect(fromForm({ ...form, minWordPercent: 95 })).not.toHaveProperty('verification');
  });

  it('refuses an empty share or one outside 0 to 100, on the key the server names', () => {
    const form = toForm(settings, described);
    const problem = [{ path: ['verification', 'minWordAccuracy'], message: 'validation.minWordPercent' }];
    expect(validateForm({ ...form, minWordPercent: null })).toEqual(problem);
    expect(validateForm({ ...form, minWordPercent: 101 })).toEqual(problem);
    expect(validateForm({ ...form, minWordPercent: 0 })).toEqual([]);
  });

  it('offers no share of words to a server without verification', () => {
    const { verification: _absent, ...older } = settings;
    expect(toForm(older as SpeechSettings, described)).not.toHaveProperty('minWordPercent');
  });
});
