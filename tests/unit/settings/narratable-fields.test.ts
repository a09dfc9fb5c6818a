import { describeConfigProblems, invalidConfigError } from '../../../server/src/settings/problems';
import { fieldProblem, narratableFields, narrationConfigProblems } from '../../../server/src/narration/domain/narratable-fields';

const model = {
  attributes: {
    title: { type: 'string' },
    body: { type: 'blocks' },
    notes: { type: 'text', private: true },
    secret: { type: 'string' },
    password: { type: 'password' },
    author: { type: 'relation' },
    email: { type: 'email' },
  },
};
/** Strapi's rule also counts `api.responses.privateAttributes`: here, `secret`. */
const isPrivate = (field: string) => field === 'secret';

describe('narratable fields', () => {
  it('accepts text fields and refuses private, password, non-text and unknown ones, saying why', () => {
    expect(fieldProblem(model, 'title', isPrivate)).toBeNull();
    expect(fieldProblem(model, 'body', isPrivate)).toBeNull();
    expect(fieldProblem(model, 'notes', isPrivate)).toMatch(/private/);
    expect(fieldProblem(model, 'secret', isPrivate)).toMatch(/private/);
    expect(fieldProblem(model, 'password', isPrivate)).toMatch(/password/);
    expect(fieldProblem(model, 'author', isPrivate)).toMatch(/relation field/);
    expect(fieldProblem(model, 'email', isPrivate)).toMatch(/email field/);
    expect(fieldProblem(model, 'nope', isPrivate)).toMatch(/no field "nope"/);
    expect(fieldProblem(model, 'constructor', isPrivate)).toMatch(/no field/);
  });

  it('names the type and the field of every problem, and refuses types that are not the site’s own', () => {
    expect(narrationConfigProblems('plugin::users-permissions.user', model, { textFields: ['title'] }, isPrivate)).toEqual([
      { path: ['contentTypes', 'plugin::users-permissions.user'], message: expect.stringContaining('only content types of the site') },
    ]);
    expect(narrationConfigProblems('api::ghost.ghost', undefined, { textFields: ['title'] }, isPrivate)[0].message).toMatch(
      /unknown content type/
    );
    const problems = narrationConfigProblems('api::a.a', model, { titleField: 'secret', textFields: ['body', 'notes'] }, isPrivate);
    expect(problems.map((problem) => problem.path)).toEqual([
      ['contentTypes', 'api::a.a', 'titleField'],
      ['contentTypes', 'api::a.a', 'textFields', '1'],
    ]);
    expect(problems[1].message).toContain('api::a.a "notes" is a private field');
    expect(narrationConfigProblems('api::a.a', model, { titleField: 'title', textFields: ['body'] }, isPrivate)).toEqual([]);
  });

  it('names every titleField, authorField and textFields entry the type does not have, by its key (a typo is never ignored)', () => {
    const problems = narrationConfigProblems(
      'api::a.a',
      model,
      { titleField: 'titel', authorField: 'writer', textFields: ['body', 'bdy'] },
      isPrivate
    );
    expect(problems).toEqual([
      { path: ['contentTypes', 'api::a.a', 'titleField'], message: 'api::a.a has no field "titel"' },
      { path: ['contentTypes', 'api::a.a', 'authorField'], message: 'api::a.a has no field "writer"' },
      { path: ['contentTypes', 'api::a.a', 'textFields', '1'], message: 'api::a.a has no field "bdy"' },
    ]);
    expect(describeConfigProblems(problems)).toBe(
      [
        'speech.config.contentTypes.api::a.a.titleField: api::a.a has no field "titel"',
        'speech.config.contentTypes.api::a.a.authorField: api::a.a has no field "writer"',
        'speech.config.contentTypes.api::a.a.textFields.1: api::a.a has no field "bdy"',
      ].join('\n')
    );
    // The settings route's 400 names the same keys, without the config file's prefix.
    expect(describeConfigProblems(problems, '').split('\n')[2]).toBe('contentTypes.api::a.a.textFields.1: api::a.a has no field "bdy"');
  });

  it('names a type that does not exist by its key, and stops there (it has no fields to check)', () => {
    const problems = narrationConfigProblems('api::artcle.artcle', undefined, { titleField: 'title', textFields: ['body'] }, isPrivate);
    expect(describeConfigProblems(problems)).toBe(
      'speech.config.contentTypes.api::artcle.artcle: api::artcle.artcle: unknown content type'
    );
    expect(invalidConfigError(problems).message).toBe(
      'Invalid configuration of the speech plugin:\nspeech.config.contentTypes.api::artcle.artcle: api::artcle.artcle: unknown content type'
    );
  });

  it('drops what may not be narrated from a stored setting', () => {
    expect(
      narratableFields(model, { titleField: 'secret', textFields: ['notes', 'body', 'password'], trigger: 'publish' }, isPrivate)
    ).toEqual({
      titleField: undefined,
      textFields: ['body'],
      trigger: 'publish',
    });
  });
});
