import { etagMatches, etagOf } from '../../../server/src/http/etag';

describe('entity tags', () => {
  it('are the same for the same content and differ otherwise; weak ones say so', () => {
    expect(etagOf('a')).toBe(etagOf(Buffer.from('a')));
    expect(etagOf('a')).not.toBe(etagOf('b'));
    expect(etagOf('a')).toMatch(/^"[\w-]{27}"$/);
    expect(etagOf('a', { weak: true })).toBe(`W/${etagOf('a')}`);
  });

  it.each([
    [undefined, false],
    ['', false],
    ['"other"', false],
    ['"x"', true],
    ['W/"x"', true],
    ['"a", "x" , "b"', true],
    ['*', true],
  ])('If-None-Match %j against "x": %s', (header, expected) => {
    expect(etagMatches(header, '"x"')).toBe(expected);
    expect(etagMatches(header, 'W/"x"')).toBe(expected);
  });
});
