/**
 * The settings form and passage voices (issue 38): a type's `passageVoices` and the quote voice of
 * each locale, read from the server's settings and sent back only where they changed.
 */
import { fromForm, toForm } from '../../../admin/src/pages/Settings/form';
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
  localeVoices: { ar: 'ar-male-1' },
  quoteVoices: { ar: 'ar-female-1' },
  preprocessType: '0',
  contentTypes: {
    [ARTICLE]: { titleField: 'title', textFields: ['body'], trigger: 'publish', narrationMode: 'whole', passageVoices: true },
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

describe('settings form: passage voices', () => {
  it('reads which types read passages in their own voices, and the quote voices', () => {
    const form = toForm(settings, described);
    expect(form.contentTypes[ARTICLE].passageVoices).toBe(true);
    expect(form.contentTypes[PAGE].passageVoices).toBe(false);
    expect(form.quoteVoices).toEqual({ ar: 'ar-female-1' });
  });

  it('sends a type with passage voices back with them, a type that never had them without the key, and the quote voices chosen', () => {
    const form = toForm(settings, described);
    const body = fromForm({ ...form, quoteVoices: { ar: 'ar-female-1', en: '' } });
    expect(body.contentTypes?.[ARTICLE]).toMatchObject({ passageVoices: true });
    expect(body.contentTypes?.[PAGE]).not.toHaveProperty('passageVoices');
    expect(body.quoteVoices).toEqual({ ar: 'ar-female-1' });
    const turnedOff = fromForm({
      ...form,
      contentTypes: { ...form.contentTypes, [ARTICLE]: { ...form.contentTypes[ARTICLE], passageVoices: false } },
    });
    expect(turnedOff.contentTypes?.[ARTICLE]).toMatchObject({ passageVoices: false });
  });

  it("sends passageVoices where it differs from the configuration file's, and leaves the file its own value", () => {
    const fromFile = toForm(settings, described, { [ARTICLE]: { passageVoices: true }, [PAGE]: {} });
    expect(fromForm(fromFile).contentTypes?.[ARTICLE]).not.toHaveProperty('passageVoices');
    const changed = {
      ...fromFile,
      contentTypes: { ...fromFile.contentTypes, [ARTICLE]: { ...fromFile.contentTypes[ARTICLE], passageVoices: false } },
    };
    expect(fromForm(changed).contentTypes?.[ARTICLE]).toMatchObject({ passageVoices: false });
  });

  it('offers no quote voices to a server without them', () => {
    const { quoteVoices: _none, ...older } = settings;
    const form = toForm(older as SpeechSettings, described);
    expect(form.quoteVoices).toBeUndefined();
    expect(fromForm(form)).not.toHaveProperty('quoteVoices');
  });
});
