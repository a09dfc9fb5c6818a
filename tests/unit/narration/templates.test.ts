import { fillTemplate, templateFor, templateProblem } from '../../../server/src/narration/domain/templates';
import { parsePluginConfig } from '../../../server/src/config/schema';

const values = { title: 'Databases', author: 'Layla Haddad', site: 'The Daily' };

describe('intro and outro templates', () => {
  it('fills {title}, {author} and {site} as one spoken line ending in punctuation', () => {
    expect(fillTemplate('You are listening to {title}, by {author}, on {site}', values)).toBe(
      'You are listening to Databases, by Layla Haddad, on The Daily.'
    );
    expect(fillTemplate('  Thanks\n for   listening!  ', values)).toBe('Thanks for listening!');
    expect(fillTemplate('تستمعون إلى {title} على {site}', { ...values, title: 'قواعد البيانات' })).toBe(
      'تستمعون إلى قواعد البيانات على The Daily.'
    );
    expect(fillTemplate('{title}{title}', values)).toBe('DatabasesDatabases.');
  });

  it('is not read when it names a value the article does not have, or is empty', () => {
    expect(fillTemplate('By {author}.', { ...values, author: '  ' })).toBeNull();
    expect(fillTemplate('On {site}.', { ...values, site: '' })).toBeNull();
    expect(fillTemplate('   ', values)).toBeNull();
    expect(fillTemplate(null, values)).toBeNull();
  });

  it("chooses the locale's template, its language's, else the one for every locale", () => {
    const templates = { '*': 'All.', ar: 'عربي.', 'en-GB': 'British.' };
    expect(templateFor(templates, 'ar-JO')).toBe('عربي.');
    expect(templateFor(templates, 'en-GB')).toBe('British.');
    expect(templateFor(templates, 'en')).toBe('All.');
    expect(templateFor(templates, null)).toBe('All.');
    expect(templateFor({ ar: 'عربي.' }, 'en')).toBeNull();
    expect(templateFor({ en: ' ' }, 'en')).toBeNull();
    expect(templateFor(undefined, 'en')).toBeNull();
  });

  it('names an unknown placeholder; the configuration refuses it with the key', () => {
    expect(templateProblem('By {writer}')).toBe('{writer} is not a placeholder; use {title}, {author}, {site}');
    expect(templateProblem('{title} {author} {site}, {braces with spaces} stay text')).toBeNull();
    const minimal = { baseUrl: 'https://api.speech.example', webUrl: 'https://web.speech.example' };
    expect(() => parsePluginConfig({ ...minimal, introTemplates: { en: 'By {writer}' } })).toThrow(
      /speech\.config\.introTemplates\.en: \{writer\} is not a placeholder/
    );
    expect(() => parsePluginConfig({ ...minimal, outroTemplates: { English: 'Bye.' } })).toThrow(/speech\.config\.outroTemplates\.English/);
    expect(parsePluginConfig({ ...minimal, siteName: ' The Daily ', introTemplates: { '*': 'On {site}.' } })).toMatchObject({
      siteName: 'The Daily',
      introTemplates: { '*': 'On {site}.' },
      outroTemplates: {},
    });
  });
});
