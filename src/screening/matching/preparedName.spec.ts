import { describe, expect, it } from 'vitest';
import {
  lettersForLookalikes,
  splitGluedWords,
  typedBackwards,
  withoutInsertedMarks,
} from './preparedName.js';

describe('the marks of a disguised name', () => {
  it('turns words typed backwards, told by their capital, and leaves names alone', () => {
    expect(typedBackwards('nituP rimidalV')).toBe('Putin Vladimir');
    expect(typedBackwards('Kim li-gnawK')).toBe('Kim Kwang-il');
    expect(typedBackwards('Vladimir nitPu')).toBe('Vladimir uPtin');
    for (const name of [
      'Bashar al-Assad',
      'Vladimir Putin',
      'VLADIMIR PUTIN',
      'nitup rimidalv',
      'McDonald',
    ]) {
      expect(typedBackwards(name)).toBeUndefined();
    }
  });

  it('splits words glued with their capitals, keeping prefixes of two letters', () => {
    expect(splitGluedWords('Ali BenTaher HajiMuhammad HamdAl-Fawaz')).toBe(
      'Ali Ben Taher Haji Muhammad Hamd Al-Fawaz',
    );
    for (const name of ['Ronald McDonald', 'Ron DeSantis', 'Darin LaHood', 'IBRAHIM ALI']) {
      expect(splitGluedWords(name)).toBe(name);
    }
  });

  it('passes over marks put inside a word, not the full stops of initials', () => {
    expect(withoutInsertedMarks('K*im M_an K.im')).toBe('Kim Man Kim');
    for (const name of ['U.S. Department', 'J.R. Smith', 'Agroplast, a.s.', 'Al-Assad']) {
      expect(withoutInsertedMarks(name)).toBe(name);
    }
  });

  it('reads digits and symbols beside letters as the letters they look like, both readings of 1 and !', () => {
    expect(lettersForLookalikes('Ig0r Sech1n')).toEqual(['Igor Sechin', 'Igor Sechln']);
    expect(lettersForLookalikes('P4k Il Kyu')).toEqual(['Pak Il Kyu']);
    expect(lettersForLookalikes('R@mzan Kadyrov')).toEqual(['Ramzan Kadyrov']);
    expect(lettersForLookalikes('$ergei Lavrov')).toEqual(['sergei Lavrov']);
    expect(lettersForLookalikes('Yevgeny Pr!gozh!n')).toEqual(['Yevgeny Prigozhin', 'Yevgeny Prlgozhln']);
    // A digit alone, or a code of one letter, is not a disguise.
    expect(lettersForLookalikes('Kim Jong Un 2')).toEqual([]);
    expect(lettersForLookalikes('M1')).toEqual([]);
  });
});
