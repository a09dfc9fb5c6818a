import { emptyLexiconRule, fromForm, isDirty, offersArabicOptions, toForm, validateForm } from '../../../admin/src/pages/Settings/form';
import type { ContentTypeDescription, SpeechSettings } from '../../../admin/src/api/types';
import { describedType } from './fixtures';

const described: ContentTypeDescription[] = [
  describedType(
    'api::article.article',
    'Article',
    { title: 'string', author: 'string', body: 'blocks' },
    { draftAndPublish: true, localized: true }
  ),
];

const settings: SpeechSettings = {
  defaultVoiceId: 'en-female-1',
  preprocessType: '0',
  contentTypes: { 'api::article.article': { titleField: 'title', textFields: ['body'], trigger: 'publish' } },
  siteName: 'The Daily',
  introTemplates: { '*': '{title}, by {author}.' },
  outroTemplates: {},
};

describe('settings form: what is read and around it', () => {
  it('sends skipped blocks and the author field of a narrated type once chosen', () => {
    const form = toForm(settings, described);
    expect(fromForm(form).contentTypes?.['api::article.article']).toEqual({ titleField: 'title', textFields: ['body'] });
    const type = form.contentTypes['api::article.article'];
    const edited = { ...form, contentTypes: { 'api::article.article': { ...type, skipBlocks: ['code' as const], authorField: 'author' } } };
    expect(fromForm(edited).contentTypes?.['api::article.article']).toEqual({
      titleField: 'title',
      textFields: ['body'],
      skipBlocks: ['code'],
      authorField: 'author',
    });
    expect(isDirty(edited, form)).toBe(true);
  });

  it('sends an empty list of skipped blocks when the server had one, so it overrides the configuration file', () => {
    const withSkips: SpeechSettings = {
      ...settings,
      contentTypes: { 'api::article.article': { textFields: ['body'], skipBlocks: ['table'], authorField: 'author' } },
    };
    const form = toForm(withSkips, described);
    expect(form.contentTypes['api::article.article'].skipBlocks).toEqual(['table']);
    const type = form.contentTypes['api::article.article'];
    const cleared = { ...form, contentTypes: { 'api::article.article': { ...type, skipBlocks: [] } } };
    expect(fromForm(cleared).contentTypes?.['api::article.article']?.skipBlocks).toEqual([]);
  });

  it('sends skipped blocks and the author field only where they differ from the configuration file', () => {
    const ARTICLE = 'api::article.article';
    const shown: SpeechSettings = {
      ...settings,
      contentTypes: { [ARTICLE]: { textFields: ['body'], skipBlocks: ['table', 'code'], authorField: 'author' } },
    };
    const form = toForm(shown, described, { [ARTICLE]: { skipBlocks: ['code', 'table'], authorField: 'author' } });
    // As the file says (in any order): left out, so a later change of the file applies.
    expect(fromForm(form).contentTypes?.[ARTICLE]).toEqual({ textFields: ['body'] });
    const type = form.contentTypes[ARTICLE];
    const edited = (changes: Partial<typeof type>) => fromForm({ ...form, contentTypes: { [ARTICLE]: { ...type, ...changes } } });
    // An empty list over the file's overrides it; another author is sent.
    expect(edited({ skipBlocks: [], authorField: 'title' }).contentTypes?.[ARTICLE]).toEqual({
      textFields: ['body'],
      skipBlocks: [],
      authorField: 'title',
    });
    // Saved over a file that says nothing: sent as shown (left out, it would be lost); none chosen: nothing to send.
    const bare = toForm(shown, described, {});
    expect(fromForm(bare).contentTypes?.[ARTICLE]).toEqual({ textFields: ['body'], skipBlocks: ['table', 'code'], authorField: 'author' });
    const cleared = { ...bare.contentTypes[ARTICLE], skipBlocks: [], authorField: null };
    expect(fromForm({ ...bare, contentTypes: { [ARTICLE]: cleared } }).contentTypes?.[ARTICLE]).toEqual({ textFields: ['body'] });
  });

  it('sends the site name trimmed and the templates without blank locales', () => {
    const form = toForm(settings, described);
    expect(form.spoken).toEqual({ siteName: 'The Daily', introTemplates: { '*': '{title}, by {author}.' }, outroTemplates: {} });
    expect(fromForm(form)).toMatchObject({ siteName: 'The Daily', introTemplates: { '*': '{title}, by {author}.' }, outroTemplates: {} });
    const edited = {
      ...form,
      spoken: { siteName: '  Al Yawm ', introTemplates: { '*': '{title}.', ar: '  ' }, outroTemplates: { ar: 'من {site}' } },
    };
    const body = fromForm(edited);
    expect(body.siteName).toBe('Al Yawm');
    expect(body.introTemplates).toEqual({ '*': '{title}.' });
    expect(body.outroTemplates).toEqual({ ar: 'من {site}' });
  });

  it('sends no site name or templates to a server that does not offer them', () => {
    const { siteName: _s, introTemplates: _i, outroTemplates: _o, ...older } = settings;
    const body = fromForm(toForm(older, described));
    expect(body).not.toHaveProperty('siteName');
    expect(body).not.toHaveProperty('introTemplates');
  });
});

describe('settings form: pronunciation lexicon', () => {
  const rule = { term: 'WHO', spoken: 'World Health Organization', locale: 'en', wholeWord: true, caseSensitive: true };

  it('sends the rules as edited, and is dirty once one changes', () => {
    const form = toForm({ ...settings, lexicon: [rule] }, described);
    expect(fromForm(form).lexicon).toEqual([rule]);
    const edited = { ...form, lexicon: [{ ...rule, spoken: 'the W H O' }] };
    expect(fromForm(edited).lexicon).toEqual([{ ...rule, spoken: 'the W H O' }]);
    expect(isDirty(edited, form)).toBe(true);
  });

  it('refuses a rule without a term or a spoken form, at the path the server uses', () => {
    const form = toForm({ ...settings, lexicon: [] }, described);
    const errors = validateForm({ ...form, lexicon: [rule, { ...emptyLexiconRule(), term: 'x ' }] });
    expect(errors).toEqual([{ path: ['lexicon', '1', 'spoken'], message: 'validation.spokenRequired' }]);
  });

  it('offers the Arabic options to rules of every locale and of Arabic ones only', () => {
    expect(offersArabicOptions({ locale: null })).toBe(true);
    expect(offersArabicOptions({ locale: 'ar' })).toBe(true);
    expect(offersArabicOptions({ locale: 'ar-JO' })).toBe(true);
    expect(offersArabicOptions({ locale: 'en' })).toBe(false);
    expect(offersArabicOptions({ locale: 'arn' })).toBe(false);
  });
});
