/**
 * The settings form and segmented narration (issue 23): a type's mode and own part size, and the
 * global part size, read from the server's settings and sent back so that saving the page never
 * resets them.
 */
import { fromForm, isDirty, segmentCharactersValid, toForm, validateForm } from '../../admin/src/pages/Settings/form';
import type { ContentTypeDescription, SpeechSettings } from '../../admin/src/api/types';
import { describedType } from './admin-fixtures';

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
