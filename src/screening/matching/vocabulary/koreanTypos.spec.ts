import { describe, expect, it } from 'vitest';
import { koreanSlips, slipScore } from './koreanTypos.js';

const words = (...texts: string[]) => texts.map((text) => ({ text, family: false }));

describe('koreanSlips', () => {
  it('marks the one word of a Korean name that is no syllable, in a given name or the family name', () => {
    expect(koreanSlips(words('kim', 'jomg', 'sik'))).toEqual(['', 'given', '']);
    expect(koreanSlips(words('ri', 'su', 'ypng'))).toEqual(['', '', 'given']);
    expect(koreanSlips(words('psk', 'han', 'se'))).toEqual(['family', '', '']);
    // "SURNAME, Given": the family name is the word the name marks, wherever it stands.
    expect(koreanSlips([...words('chpl', 'sam'), { text: 'kim', family: true }])).toEqual(['given', '', '']);
  });

  it("reads North Korea's aspirates and the South's conventional spellings as syllables", () => {
    expect(koreanSlips(words('ri', 'thae', 'chol'))).toBeUndefined();
    expect(koreanSlips(words('park', 'young', 'hoon'))).toBeUndefined();
    expect(koreanSlips(words('kang', 'phil', 'jomg'))).toEqual(['', '', 'given']);
  });

  it('leaves every other name alone', () => {
    // Every word a syllable: a slip to another syllable cannot be told from another name.
    expect(koreanSlips(words('kim', 'jong', 'sik'))).toBeUndefined();
    // Two words or two odd ones: too little of the name is Korean to tell.
    expect(koreanSlips(words('kim', 'jomg'))).toBeUndefined();
    expect(koreanSlips(words('kim', 'jomg', 'sikk'))).toBeUndefined();
    // The family name is no Korean one; a Chinese syllable; a Roman numeral; a long word.
    expect(koreanSlips(words('sik', 'jomg', 'kim'))).toBeUndefined();
    expect(koreanSlips(words('ma', 'xin', 'lan'))).toBeUndefined();
    expect(koreanSlips(words('kim', 'song', 'ii'))).toBeUndefined();
    expect(koreanSlips(words('kim', 'jongsik', 'su'))).toBeUndefined();
  });
});

describe('slipScore', () => {
  it('scores a slip against a syllable one edit away as a fuzzy match of that cost', () => {
    expect(slipScore('jomg', 'given', 'jong', 1)).toBe(0.75);
    expect(slipScore('psk', 'family', 'pak', 1)).toBeCloseTo(2 / 3);
    // Two letters swapped cost less than one changed.
    expect(slipScore('sko', 'given', 'sok', 1)).toBeCloseTo(1 - 0.8 / 3);
  });

  it('meets nothing further, nothing that is no syllable, and only family names in the family name', () => {
    expect(slipScore('jomg', 'given', 'jeong', 1)).toBe(0);
    expect(slipScore('jomg', 'given', 'jomgo', 1)).toBe(0);
    expect(slipScore('kamg', 'family', 'kang', 1)).toBe(0.75);
    expect(slipScore('kamg', 'family', 'kam', 1)).toBe(0);
    expect(slipScore('kamg', 'given', 'kam', 1)).toBe(0.75);
    expect(slipScore('jomg', '', 'jong', 1)).toBe(0);
  });

  it("spends the profile's fuzziness: a strict profile allows less than one key", () => {
    expect(slipScore('jomg', 'given', 'jong', 0.6)).toBe(0);
    expect(slipScore('sko', 'given', 'sok', 0.6)).toBe(0);
    expect(slipScore('sko', 'given', 'sok', 1.4)).toBeCloseTo(1 - 0.8 / 3);
  });
});
