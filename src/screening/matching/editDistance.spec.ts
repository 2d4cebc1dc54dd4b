import { describe, expect, it } from 'vitest';
import {
  COST,
  distanceLowerBound,
  doubledLetters,
  editBudget,
  letterMask,
  weightedDistance,
} from './editDistance.js';

describe('weightedDistance', () => {
  it('prices edits by what transliteration and typing do to names', () => {
    expect(weightedDistance('putin', 'putin')).toBe(0);
    expect(weightedDistance('putin', 'pudin')).toBeCloseTo(COST.similar);
    expect(weightedDistance('putin', 'pusin')).toBeCloseTo(COST.substitution);
    expect(weightedDistance('sechin', 'sech1n')).toBeCloseTo(COST.similar);
    expect(weightedDistance('fund 5', 'fund 6')).toBeCloseTo(COST.digit);
    expect(weightedDistance('donald', 'donlad')).toBeCloseTo(COST.transposition);
  });

  it('makes one letter of a double cheap, but not dropping both', () => {
    expect(weightedDistance('basharr', 'bashar')).toBeCloseTo(COST.doubledLetter);
    expect(weightedDistance('bashar', 'basharr')).toBeCloseTo(COST.doubledLetter);
    expect(weightedDistance('castillo', 'castilo')).toBeCloseTo(COST.doubledLetter);
    expect(weightedDistance('castillo', 'castio')).toBeCloseTo(COST.insertion + COST.doubledLetter);
  });

  it('gives up once every path exceeds the limit', () => {
    expect(weightedDistance('vladimir', 'mohammed', 2)).toBe(Number.POSITIVE_INFINITY);
    expect(weightedDistance('vladimir', 'vladimyr', 2)).toBeCloseTo(COST.similar);
  });

  it('handles empty strings', () => {
    expect(weightedDistance('', 'abc')).toBe(3);
    expect(weightedDistance('aab', '')).toBeCloseTo(2 + COST.doubledLetter);
  });
});

describe('distanceLowerBound', () => {
  const names = [
    'muhammad',
    'mohammed',
    'mhmd',
    'hannibal',
    'hanniball',
    'castillo',
    'castro',
    'smith',
    'jones',
    'vladimir',
    'volodymyr',
    'sech1n',
    'sechin',
    'ab',
    'abba',
    'zedong',
    'tsetung',
    'aleksandr',
    'alexander',
    'qaddafi',
    'gaddafi',
    'khadafy',
  ];

  it('never exceeds the distance, so skipping by it loses no match', () => {
    for (const a of names) {
      for (const b of names) {
        const bound = distanceLowerBound(letterMask(a), letterMask(b), a.length, b.length);
        expect(bound).toBeLessThanOrEqual(weightedDistance(a, b) + 1e-9);
      }
    }
  });

  it('with the doubled letters counted, still never exceeds the distance: glued and repeated spellings too', () => {
    const texts = [
      ...names,
      'jimmycherizier',
      'jimmy',
      'abdulrahman',
      'abdurrahman',
      'muhammadd',
      'hannibal',
      'hanniball',
      'lll',
      'aabbcc',
      'abc',
    ];
    for (const a of texts) {
      for (const b of texts) {
        const bound = distanceLowerBound(
          letterMask(a),
          letterMask(b),
          a.length,
          b.length,
          doubledLetters(a),
          doubledLetters(b),
        );
        expect(bound).toBeLessThanOrEqual(weightedDistance(a, b) + 1e-9);
      }
    }
  });

  it('counts a length difference at full cost beyond the letters that repeat the one before them', () => {
    // "jimmy" inside "jimmycherizier": nine letters to drop, one of them a repeat.
    const loose = distanceLowerBound(letterMask('jimmycherizier'), letterMask('jimmy'), 14, 5);
    const tight = distanceLowerBound(
      letterMask('jimmycherizier'),
      letterMask('jimmy'),
      14,
      5,
      doubledLetters('jimmycherizier'),
      doubledLetters('jimmy'),
    );
    expect(loose).toBeLessThan(editBudget(14, 1));
    expect(tight).toBeCloseTo(8.3, 6);
    expect(weightedDistance('jimmycherizier', 'jimmy')).toBeGreaterThanOrEqual(tight);
    expect(doubledLetters('hanniball')).toBe(2);
  });

  it('rejects unrelated names without running the distance', () => {
    expect(distanceLowerBound(letterMask('smith'), letterMask('jones'), 5, 5)).toBeGreaterThan(
      editBudget(5, 1.3),
    );
  });
});

describe('editBudget', () => {
  it('follows logic-v2: exact up to 3 characters, then slowly more', () => {
    expect(editBudget(3, 1)).toBe(0);
    expect(editBudget(4, 1)).toBeCloseTo(0.81, 2);
    expect(editBudget(5, 1)).toBeCloseTo(1.29, 2);
    expect(editBudget(8, 1)).toBeCloseTo(2.1, 2);
    expect(editBudget(8, 0.5)).toBeCloseTo(1.05, 2);
    expect(editBudget(100, 1)).toBeCloseTo(Math.log(98) / Math.log(2.35), 6);
  });
});
