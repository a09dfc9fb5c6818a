import { creditsFor, fromForm, isDirty, toForm, validateForm, VALIDATION_MESSAGES } from '../../../admin/src/pages/Settings/form';
import type { ContentTypeDescription, SpeechSettings } from '../../../admin/src/api/types';
import { describedType } from './fixtures';
import { fieldError, toProblem } from '../../../admin/src/api/errors';

const described: ContentTypeDescription[] = [
  describedType(
    'api::article.article',
    'Article',
    { title: 'string', summary: 'text', body: 'blocks' },
    { draftAndPublish: true, localized: true }
  ),
  describedType('api::page.page', 'Page', { title: 'string', content: 'richtext' }, { draftAndPublish: false, localized: false }),
  describedType('api::note.note', 'Note', { text: 'text' }, { draftAndPublish: true, localized: false }),
];

const settings: SpeechSettings = {
  defaultVoiceId: 'en-female-1',
  preprocessType: '0',
  contentTypes: {
    'api::article.article': { titleField: 'title', textFields: ['summary', 'body'], trigger: 'publish' },
    'api::page.page': { titleField: 'title', textFields: ['content'], trigger: 'off' },
  },
};

describe('admin settings form', () => {
  it('round-trips the server settings unchanged', () => {
    const form = toForm(settings, described);
    expect(form.contentTypes['api::article.article']).toMatchObject({
      enabled: true,
      trigger: 'publish',
      titleField: 'title',
      textFields: ['summary', 'body'],
    });
    expect(form.contentTypes['api::page.page'].enabled).toBe(false);
    expect(form.contentTypes['api::note.note']).toMatchObject({ enabled: false, original: null, textFields: [] });
    // An enabled type is sent without a trigger: the server narrates it when the type allows.
    const { trigger: _articleTrigger, ...article } = settings.contentTypes['api::article.article'];
    expect(fromForm(form)).toEqual({ ...settings, contentTypes: { ...settings.contentTypes, 'api::article.article': article } });
    expect(isDirty(form, toForm(settings, described))).toBe(false);
  });

  it('shows the trigger of the type: published with draft & publish, saved without, whatever the server stored', () => {
    const stored: SpeechSettings = { ...settings, contentTypes: { 'api::page.page': { textFields: ['content'], trigger: 'publish' } } };
    const form = toForm(stored, described);
    expect(form.contentTypes['api::page.page']).toMatchObject({ enabled: true, trigger: 'save' });
    expect(form.contentTypes['api::note.note'].trigger).toBe('publish');
    expect(fromForm(form).contentTypes?.['api::page.page']).toEqual({ textFields: ['content'] });
  });

  it('switching a type off keeps its valid fields; a never-configured type that stays off is not sent', () => {
    const form = toForm(settings, described);
    form.contentTypes['api::article.article'] = { ...form.contentTypes['api::article.article'], enabled: false, textFields: [] };
    const body = fromForm(form);
    expect(body.contentTypes?.['api::article.article']).toEqual({ trigger: 'off', textFields: ['summary', 'body'], titleField: 'title' });
    expect(body.contentTypes).not.toHaveProperty('api::note.note');
    expect(isDirty(form, toForm(settings, described))).toBe(true);
  });

  it('validates enabled types and the voice with the server paths', () => {
    const form = toForm({ ...settings, defaultVoiceId: '' }, described);
    form.contentTypes['api::note.note'] = { ...form.contentTypes['api::note.note'], enabled: true, trigger: 'save' };
    const errors = validateForm(form);
    expect(errors).toEqual([
      { path: ['defaultVoiceId'], message: 'validation.voiceRequired' },
      { path: ['contentTypes', 'api::note.note', 'textFields'], message: 'validation.textFieldsRequired' },
    ]);
    expect(Object.keys(VALIDATION_MESSAGES)).toEqual(expect.arrayContaining(errors.map((error) => error.message)));
    expect(fieldError(errors, 'contentTypes', 'api::note.note', 'textFields')).toBe('validation.textFieldsRequired');
    expect(fieldError(errors, 'contentTypes', 'api::article.article', 'textFields')).toBeUndefined();
    // A new voice is only sent when one is chosen.
    expect(fromForm(form)).not.toHaveProperty('defaultVoiceId');
  });

  it('counts credits x1 for "0" and x2 for "2"', () => {
    expect(creditsFor(1234, '0')).toBe(1234);
    expect(creditsFor(1234, '2')).toBe(2468);
  });

  it('reads validation errors out of a 400 from the admin fetch client', () => {
    const error = Object.assign(new Error('Invalid'), {
      name: 'FetchError',
      status: 400,
      response: {
        data: {
          error: {
            status: 400,
            message: 'contentTypes.api::page.page.textFields: name at least one text field',
            details: { errors: [{ path: ['contentTypes', 'api::page.page', 'textFields'], message: 'name at least one text field' }] },
          },
        },
      },
    });
    const problem = toProblem(error);
    expect(problem.status).toBe(400);
    expect(fieldError(problem.fieldErrors, 'contentTypes', 'api::page.page', 'textFields')).toBe('name at least one text field');
    const service = toProblem({
      response: {
        data: { error: { status: 402, message: 'Not enough credits', details: { code: 'INSUFFICIENT_CREDITS', creditsRemaining: 3 } } },
      },
    });
    expect(service.code).toBe('INSUFFICIENT_CREDITS');
    expect(toProblem(new Error('boom')).message).toBe('boom');
  });
});
