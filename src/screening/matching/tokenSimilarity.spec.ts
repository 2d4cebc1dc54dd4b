import { describe, expect, it } from 'vitest';
import type { EntityKind } from '../model/listedEntity.js';
import { nameTokens } from './nameTokens.js';
import {
  compareTokens,
  comparisonIdentity,
  type Fuzziness,
  TOKEN_SCORES,
  type TokenComparison,
} from './tokenSimilarity.js';

const FUZZ: Fuzziness = { budgetFactor: 1, phonetic: true };

/** Compares the last token of two names (the names give the token its context). */
function compare(a: string, b: string, fuzz: Fuzziness = FUZZ, kind: EntityKind = 'person'): TokenComparison {
  const left = nameTokens(a, kind).at(-1)!;
  const right = nameTokens(b, kind).at(-1)!;
  const out: TokenComparison = { score: 0, kind: 'exact' };
  compareTokens(left, right, fuzz, out);
  return out;
}

describe('compareTokens', () => {
  it('scores a typo within the budget by its distance', () => {
    expect(compare('Merkl', 'Merkel')).toEqual({ score: expect.closeTo(1 - 1 / 6, 6), kind: 'fuzzy' });
    expect(compare('Hanniball', 'Hannibal')).toEqual({
      score: expect.closeTo(1 - 0.3 / 9, 6),
      kind: 'fuzzy',
    });
  });

  it('gives a near miss just past the budget a score that fades to nothing', () => {
    const near = compare('Merkur', 'Merkel');
    expect(near.kind).toBe('fuzzy');
    expect(near.score).toBeGreaterThan(0.3);
    expect(near.score).toBeLessThan(1 - 1.62 / 6);
    expect(compare('Mercaz', 'Merkel').score).toBe(0);
  });

  it('scales the near-miss zone with the fuzziness', () => {
    expect(compare('Merkur', 'Merkel', { budgetFactor: 0.6, phonetic: true }).score).toBe(0);
  });

  it('uses only the primary phonetic code', () => {
    expect(compare('Tom', 'Tim')).toEqual({ score: TOKEN_SCORES.phonetic, kind: 'phonetic' });
    expect(compare('Emil', 'Jumul').score).toBe(0);
    expect(compare('On', 'Un')).toEqual({ score: TOKEN_SCORES.phonetic, kind: 'phonetic' });
  });

  it('finds diminutives through the canonical spelling', () => {
    expect(compare('Bibi', 'Binyamin')).toEqual({ score: TOKEN_SCORES.nickname, kind: 'nickname' });
    expect(compare('Bibi', 'Benjamin')).toEqual({ score: TOKEN_SCORES.nickname, kind: 'nickname' });
    expect(compare('Misha', 'Mikhail')).toEqual({ score: TOKEN_SCORES.nickname, kind: 'nickname' });
  });

  it('meets Wade-Giles and pinyin syllables of a Chinese name', () => {
    expect(compare('Teng Hsiao', 'Deng Xiao')).toEqual({
      score: TOKEN_SCORES.romanisation,
      kind: 'spelling',
    });
    expect(compare('John Teng', 'John Deng').score).toBeLessThan(TOKEN_SCORES.romanisation);
  });

  it('hears a pinyin x as the sh an English writer spells it with', () => {
    const heard = { score: TOKEN_SCORES.phonetic, kind: 'phonetic' };
    expect(compare('Jinping Shi', 'Jinping Xi')).toEqual(heard);
    expect(compare('Ping Shiao', 'Ping Xiao')).toEqual(heard);
    expect(compare('Ming Shu', 'Ming Xu')).toEqual(heard);
    // Only in a name read as Chinese syllables: elsewhere an x is not an sh.
    expect(compare('Robert Xu', 'Robert Shu').score).toBe(0);
  });

  it('keeps an Iberian patronymic surname apart from the given name it was made from', () => {
    expect(compare('Pedro Sancho', 'Pedro Sánchez').score).toBe(0);
    expect(compare('Pedro Martin', 'Pedro Martínez').score).toBe(0);
    expect(compare('Ana Fernandes', 'Ana Fernando').score).toBe(0);
    // Spellings of one patronymic still meet, and a single letter stays a typo.
    expect(compare('Pedro Sanches', 'Pedro Sánchez').kind).not.toBe('exact');
    expect(compare('Pedro Sanches', 'Pedro Sánchez').score).toBeGreaterThan(0.8);
    expect(compare('Juan Lope', 'Juan López').kind).toBe('fuzzy');
  });
});

describe('comparisonIdentity', () => {
  it('tells apart tokens of one text that compare differently: a Hangul name and a Latin one', () => {
    // "bag" from 박 and "Bag" in Latin letters share text and key, not their Korean origin.
    const [fromHangul] = nameTokens('박봉주', 'person');
    const [fromLatin] = nameTokens('Bag Bongju', 'person');
    expect(fromHangul!.text).toBe(fromLatin!.text);
    expect(comparisonIdentity(fromHangul!)).not.toBe(comparisonIdentity(fromLatin!));
  });
});
