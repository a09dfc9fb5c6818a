import { countCharacters, isPreprocessType, narrationCost } from '../../../server/src/narration/domain/cost';

describe('countCharacters', () => {
  it('counts Unicode code points, not UTF-16 code units', () => {
    expect(countCharacters('hello')).toBe(5);
    expect(countCharacters('')).toBe(0);
    // One astral emoji is two UTF-16 code units but one character.
    expect('😀'.length).toBe(2);
    expect(countCharacters('😀')).toBe(1);
    // A ZWJ family emoji is several code points, each charged.
    expect(countCharacters('👨‍👩‍👧')).toBe(5);
  });

  it('counts Arabic letters and their marks', () => {
    expect(countCharacters('مرحبا')).toBe(5);
    expect(countCharacters('مرحبا بالعالم')).toBe(13);
    // Harakat are combining code points of their own: بَ is two.
    expect(countCharacters('بَ')).toBe(2);
  });
});

describe('narrationCost', () => {
  it('charges characters x1 for preprocessType "0"', () => {
    expect(narrationCost('hello', '0')).toEqual({ characters: 5, multiplier: 1, credits: 5 });
  });

  it('charges characters x2 for preprocessType "2"', () => {
    expect(narrationCost('hello', '2')).toEqual({ characters: 5, multiplier: 2, credits: 10 });
  });

  it('handles emoji, Arabic and empty text', () => {
    expect(narrationCost('Hi 😀', '2')).toEqual({ characters: 4, multiplier: 2, credits: 8 });
    expect(narrationCost('مرحبا بالعالم', '0')).toEqual({ characters: 13, multiplier: 1, credits: 13 });
    expect(narrationCost('', '2')).toEqual({ characters: 0, multiplier: 2, credits: 0 });
  });

  it('rejects a preprocessType that is not "0" or "2" at run time', () => {
    expect(() => narrationCost('x', 2 as unknown as '2')).toThrow(TypeError);
    expect(() => narrationCost('x', '1' as unknown as '2')).toThrow(TypeError);
  });
});

describe('isPreprocessType', () => {
  it('accepts only the strings "0" and "2"', () => {
    expect(isPreprocessType('0')).toBe(true);
    expect(isPreprocessType('2')).toBe(true);
  });

  it.each([0, 2, '1', '', ' 0', '02', null, undefined, {}, ['0']])('rejects %j (numbers are refused by the service)', (value) => {
    expect(isPreprocessType(value)).toBe(false);
  });
});
