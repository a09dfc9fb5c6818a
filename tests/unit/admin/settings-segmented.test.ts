/**
 * The settings form and segmented narration (issue 23): a type's mode and own part size, and the
 * global part size, read from the server's settings and sent back so that saving the page never
 * resets them.
 */
import { fromForm, isDirty, segmentCharactersValid, toForm, validateForm } from '../../../admin/src/pages/Settings/form';
import type { ContentTypeDescription, SpeechSettings } from '../../../admin/src/api/types';
import { describedType } from './fixtures';

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';
const NOTE = 'api::note.note';

const described: ContentTypeDescription[] = [
  describedType(ARTICLE, 'Article', { title: 'string', body: 'blocks' }, { draftAndPublish: true, localized: true }),
  describedType(PAGE, 'Page', { title: 'string', content: 'richtext' }, { draftAndPublish: false, localized: false }),
  describedType(NOTE, 'Note', { text: 'text' }, { draftAndPublish: false, localized: false }),
];

/** The settings as GET /speech/settings gives them: every type with its mode, a size only where the type has its own. */
const settings: SpeechSettings = {
  defaultVoiceId: 'en-female-1',
  localeVoices: {},
  preprocessType: '0',
  contentTypes: {
    [ARTICLE]: { titleField: 'title', textFields: ['body'], trigger: 'publish', narrationMode: 'segmented', segmentCharacters: 1_500 },
    [PAGE]: { titleField: 'title', textFields: ['content'], trigger: 'save', narrationMode: 'segmented' },
    [NOTE]: { textFields: ['text'], trigger: 'off', narrationMode: 'whole' },
  },
  lexicon: [],
  siteName: '',
  introTemplates: {},
  outroTemplates: {},
  segmentCharacters: 2_000,
};

describe('settings form: narration mode and part size', () => {
  it('reads each type mode and own size, and the global size', () => {
    const form = toForm(settings, described);
    expect(form.segmentCharacters).toBe(2_000);
    expect(form.contentTypes[ARTICLE]).toMatchObject({ narrationMode: 'segmented', segmentCharacters: 1_500 });
    // No size of its own: the field is empty and the global size applies.
    expect(form.contentTypes[PAGE]).toMatchObject({ narrationMode: 'segmented', segmentCharacters: null });
    expect(form.contentTypes[NOTE]).toMatchObject({ narrationMode: 'whole', segmentCharacters: null });
  });

  it('sends the mode and the own size back, so saving the page keeps a mode set at run time (the server replaces a saved type whole)', () => {
    const body = fromForm(toForm(settings, described));
    expect(body.contentTypes).toEqual({
      [ARTICLE]: { titleField: 'title', textFields: ['body'], narrationMode: 'segmented', segmentCharacters: 1_500 },
      // No own size is sent as none: the global one keeps applying, it is not pinned to the type.
      [PAGE]: { titleField: 'title', textFields: ['content'], narrationMode: 'segmented' },
      // A type switched off keeps its mode too.
      [NOTE]: { trigger: 'off', textFields: ['text'], narrationMode: 'whole' },
    });
    // The global size as shown is not sent: a runtime copy of it would pin it against later changes of the file.
    expect(body).not.toHaveProperty('segmentCharacters');
  });

  it('sends the global size only when the editor changed it', () => {
    const form = toForm(settings, described);
    expect(fromForm({ ...form, segmentCharacters: 1_200 }).segmentCharacters).toBe(1_200);
    expect(isDirty({ ...form, segmentCharacters: 1_200 }, form)).toBe(true);
    // Changed and changed back: nothing to send, nothing to save.
    expect(fromForm({ ...form, segmentCharacters: 2_000 })).not.toHaveProperty('segmentCharacters');
    expect(isDirty({ ...form, segmentCharacters: 2_000 }, form)).toBe(false);
  });

  it('sends a size emptied where the server had one as null (cleared, over the file), and sends a cleared size back cleared', () => {
    const form = toForm(settings, described);
    form.contentTypes[ARTICLE] = { ...form.contentTypes[ARTICLE], segmentCharacters: null };
    expect(fromForm(form).contentTypes?.[ARTICLE]).toEqual({
      titleField: 'title',
      textFields: ['body'],
      narrationMode: 'segmented',
      segmentCharacters: null,
    });
    // The server says a cleared size is null: saving the page again keeps it cleared (left out, the file's size would return).
    const cleared: SpeechSettings = {
      ...settings,
      contentTypes: { ...settings.contentTypes, [ARTICLE]: { ...settings.contentTypes[ARTICLE], segmentCharacters: null } },
    };
    const again = toForm(cleared, described);
    expect(again.contentTypes[ARTICLE].segmentCharacters).toBeNull();
    expect(fromForm(again).contentTypes?.[ARTICLE]).toMatchObject({ segmentCharacters: null });
    expect(validateForm(again)).toEqual([]);
  });

  it('sends a type put in parts with its size, and a size emptied as cleared (the global one)', () => {
    const form = toForm(settings, described);
    form.contentTypes[NOTE] = { ...form.contentTypes[NOTE], enabled: true, narrationMode: 'segmented', segmentCharacters: 800 };
    form.contentTypes[ARTICLE] = { ...form.contentTypes[ARTICLE], segmentCharacters: null };
    const body = fromForm(form);
    expect(body.contentTypes?.[NOTE]).toEqual({ textFields: ['text'], narrationMode: 'segmented', segmentCharacters: 800 });
    expect(body.contentTypes?.[ARTICLE]).toEqual({
      titleField: 'title',
      textFields: ['body'],
      narrationMode: 'segmented',
      segmentCharacters: null,
    });
    expect(isDirty(form, toForm(settings, described))).toBe(true);
    expect(validateForm(form)).toEqual([]);
  });

  it('sends no mode to a server that gives none (older servers refuse the key), unless a type is put in parts', () => {
    const older: SpeechSettings = { ...settings, contentTypes: { [PAGE]: { textFields: ['content'], trigger: 'save' } } };
    delete (older as Partial<SpeechSettings>).segmentCharacters;
    const form = toForm(older, described);
    expect(form.segmentCharacters).toBeUndefined();
    expect(form.contentTypes[PAGE].narrationMode).toBe('whole');
    const body = fromForm(form);
    expect(body.contentTypes?.[PAGE]).toEqual({ textFields: ['content'] });
    expect(body).not.toHaveProperty('segmentCharacters');
  });

  it('keeps the server size when a size outside the bounds is left in a hidden field (the type back to whole)', () => {
    const form = toForm(settings, described);
    form.contentTypes[ARTICLE] = { ...form.contentTypes[ARTICLE], segmentCharacters: 50, narrationMode: 'whole' };
    expect(fromForm(form).contentTypes?.[ARTICLE]).toEqual({
      titleField: 'title',
      textFields: ['body'],
      narrationMode: 'whole',
      segmentCharacters: 1_500,
    });
    // Hidden, so not checked: nothing the editor cannot see blocks the save.
    expect(validateForm(form)).toEqual([]);
  });

  it('checks the sizes against the contract bounds, with the server paths', () => {
    const form = toForm(settings, described);
    form.contentTypes[ARTICLE] = { ...form.contentTypes[ARTICLE], segmentCharacters: 199 };
    form.contentTypes[PAGE] = { ...form.contentTypes[PAGE], segmentCharacters: 1_000.5 };
    expect(validateForm({ ...form, segmentCharacters: null })).toEqual([
      { path: ['contentTypes', ARTICLE, 'segmentCharacters'], message: 'validation.segmentCharacters' },
      { path: ['contentTypes', PAGE, 'segmentCharacters'], message: 'validation.segmentCharacters' },
      // The global size is required: the server keeps a saved one when none is sent.
      { path: ['segmentCharacters'], message: 'validation.segmentCharacters' },
    ]);
    expect(validateForm({ ...form, contentTypes: {}, segmentCharacters: 100_001 })).toEqual([
      { path: ['segmentCharacters'], message: 'validation.segmentCharacters' },
    ]);
    expect([199, 200, 2_000, 100_000, 100_001, 250.5, Number.NaN].map(segmentCharactersValid)).toEqual([
      false,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

describe('settings form: a mode and part size the configuration file gives', () => {
  /**
   * GET /speech/settings' `fileContentTypes`: the file puts articles in parts of 1,500 (as in
   * effect: nothing saved over them), pages whole (saved in parts since), notes not at all.
   */
  const fileTypes = {
    [ARTICLE]: { narrationMode: 'segmented' as const, segmentCharacters: 1_500 },
    [PAGE]: { narrationMode: 'whole' as const },
  };

  it('sends a type mode and size only where they differ from the file, so a later change of the file applies', () => {
    const form = toForm(settings, described, fileTypes);
    expect(form.contentTypes[NOTE].file).toEqual({});
    expect(fromForm(form).contentTypes).toEqual({
      // As the file says: left out, the file's keep applying (and follow the file when it changes).
      [ARTICLE]: { titleField: 'title', textFields: ['body'] },
      // Saved in parts over the file's whole: sent, or saving the page would lose it (a saved type is replaced whole).
      [PAGE]: { titleField: 'title', textFields: ['content'], narrationMode: 'segmented' },
      [NOTE]: { trigger: 'off', textFields: ['text'] },
    });
    expect(isDirty(toForm(settings, described, fileTypes), form)).toBe(false);
  });

  it('sends a mode or size changed from the file, and a size emptied over the file one as null', () => {
    const form = toForm(settings, described, fileTypes);
    const article = form.contentTypes[ARTICLE];
    const body = (changes: Partial<typeof article>) =>
      fromForm({ ...form, contentTypes: { ...form.contentTypes, [ARTICLE]: { ...article, ...changes } } }).contentTypes?.[ARTICLE];
    expect(body({ segmentCharacters: 1_200 })).toEqual({ titleField: 'title', textFields: ['body'], segmentCharacters: 1_200 });
    // Left out, the file's 1,500 would apply again.
    expect(body({ segmentCharacters: null })).toEqual({ titleField: 'title', textFields: ['body'], segmentCharacters: null });
    // Back to whole: the file's size stays the file's; an unchecked edit left in the hidden field is not sent.
    expect(body({ narrationMode: 'whole', segmentCharacters: 50 })).toEqual({
      titleField: 'title',
      textFields: ['body'],
      narrationMode: 'whole',
    });
    // A size the file does not give, emptied: left out, the global one applies as it would with null.
    const page = { ...form.contentTypes[PAGE], segmentCharacters: null };
    expect(fromForm({ ...form, contentTypes: { [PAGE]: page } }).contentTypes?.[PAGE]).not.toHaveProperty('segmentCharacters');
  });

  it('sends a saved size as shown where the file gives another one (the saved one stays)', () => {
    const form = toForm(settings, described, { ...fileTypes, [ARTICLE]: { narrationMode: 'segmented', segmentCharacters: 900 } });
    expect(fromForm(form).contentTypes?.[ARTICLE]).toEqual({ titleField: 'title', textFields: ['body'], segmentCharacters: 1_500 });
  });
});
