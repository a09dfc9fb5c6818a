import {
  frontEndUrl,
  matchFrontEndUrl,
  placeholdersOf,
  urlFieldProblem,
  urlTemplateProblem,
} from '../../../server/src/narration/domain/front-end-url';

const attributes = {
  slug: { type: 'uid' },
  title: { type: 'string' },
  body: { type: 'blocks' },
  secret: { type: 'string', private: true },
  views: { type: 'integer' },
};

describe("a type's front-end URL", () => {
  it('fills {locale} and the entry’s fields, each encoded as one segment', () => {
    const template = 'https://example.com/{locale}/news/{slug}?n={views}';
    expect(placeholdersOf(template)).toEqual(['locale', 'slug', 'views']);
    expect(frontEndUrl(template, { slug: 'rain & sun/2026', views: 3 }, 'ar')).toBe(
      'https://example.com/ar/news/rain%20%26%20sun%2F2026?n=3'
    );
    expect(frontEndUrl(template, { slug: 'الطقس', views: 0 }, 'ar')).toBe('https://example.com/ar/news/%D8%A7%D9%84%D8%B7%D9%82%D8%B3?n=0');
  });

  it('is left out, never guessed, without a template or when a field it names is empty', () => {
    expect(frontEndUrl(undefined, { slug: 'x' }, 'en')).toBeNull();
    expect(frontEndUrl('https://example.com/news/{slug}', { slug: '' }, 'en')).toBeNull();
    expect(frontEndUrl('https://example.com/news/{slug}', {}, 'en')).toBeNull();
    expect(frontEndUrl('https://example.com/{locale}/{slug}', { slug: 'x' }, null)).toBeNull();
  });

  it('must be an http(s) URL with {field} placeholders', () => {
    expect(urlTemplateProblem('https://example.com/news/{slug}')).toBeNull();
    expect(urlTemplateProblem('https://{locale}.example.com/{slug}')).toBeNull();
    expect(urlTemplateProblem('javascript:alert({slug})')).toMatch(/http\(s\)/);
    expect(urlTemplateProblem('/news/{slug}')).toMatch(/http\(s\)/);
    expect(urlTemplateProblem('https://example.com/{slug-name}')).toMatch(/\{field\}/);
    expect(urlTemplateProblem('https://example.com/{slug')).toMatch(/\{field\}/);
  });

  it('may read scalar, non-private fields, {locale} and {documentId} only', () => {
    const isPrivate = (field: string) => field === 'title';
    expect(urlFieldProblem(attributes, 'slug', () => false)).toBeNull();
    expect(urlFieldProblem(attributes, 'views', () => false)).toBeNull();
    expect(urlFieldProblem(attributes, 'documentId', () => false)).toBeNull();
    expect(urlFieldProblem(attributes, 'locale', () => false)).toBeNull();
    expect(urlFieldProblem(attributes, 'secret', () => false)).toMatch(/private/);
    expect(urlFieldProblem(attributes, 'title', isPrivate)).toMatch(/private/);
    expect(urlFieldProblem(attributes, 'body', () => false)).toMatch(/blocks field/);
    expect(urlFieldProblem(attributes, 'constructor', () => false)).toMatch(/has no field/);
  });
});

describe('an oEmbed URL against the template', () => {
  it('gives back the fields that made it', () => {
    const template = 'https://example.com/{locale}/news/{slug}';
    expect(matchFrontEndUrl(template, 'https://example.com/ar/news/%D8%A7%D9%84%D8%B7%D9%82%D8%B3')).toEqual({
      locale: 'ar',
      slug: 'الطقس',
    });
    expect(matchFrontEndUrl(template, 'https://example.com/en/news/rain?utm=x#top')).toEqual({ locale: 'en', slug: 'rain' });
    expect(matchFrontEndUrl(template, frontEndUrl(template, { slug: 'a b/c' }, 'en')!)).toEqual({ locale: 'en', slug: 'a b/c' });
  });

  it('matches nothing else: another host, a longer path, an empty field, a bad escape', () => {
    const template = 'https://example.com/news/{slug}';
    expect(matchFrontEndUrl(template, 'https://evil.example/news/rain')).toBeNull();
    expect(matchFrontEndUrl(template, 'https://example.com/news/rain/more')).toBeNull();
    expect(matchFrontEndUrl(template, 'https://example.com/news/')).toBeNull();
    expect(matchFrontEndUrl(template, 'https://example.com/news/%E0%A4%A')).toBeNull();
    expect(matchFrontEndUrl('https://example.com/a.b/{slug}', 'https://example.com/aXb/rain')).toBeNull();
  });
});
