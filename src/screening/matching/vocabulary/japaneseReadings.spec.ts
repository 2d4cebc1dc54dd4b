import { describe, expect, it } from 'vitest';
import { japaneseReadings, shortVowels } from './japaneseReadings.js';

describe('japaneseReadings', () => {
  it('splits a kanji name written without a space into a surname and a given name ENAMDICT knows', () => {
    const [reading, ...others] = japaneseReadings('安倍晋三');
    expect(others).toEqual([]);
    expect(reading!.family.kanji).toBe('安倍');
    expect(reading!.family.readings).toContain('abe');
    expect(reading!.given).toEqual({ kanji: '晋三', readings: ['shinzo'] });
  });

  it('takes a name written with a space or a middle dot as family name then given name', () => {
    for (const name of ['岸田 文雄', '岸田・文雄']) {
      const [reading] = japaneseReadings(name);
      expect(reading!.family.readings).toContain('kishida');
      expect(reading!.given.readings).toContain('fumio');
    }
  });

  it('does not read Chinese or Korean names, or names with other letters, as Japanese', () => {
    // One-character family names written without a space are Chinese or Korean far more often.
    for (const name of ['王毅', '李明', '习近平', '温家宝', 'Abe 晋三', '安倍 晋三 x', '安倍 晋三 太郎'])
      expect(japaneseReadings(name), name).toEqual([]);
  });
});

describe('shortVowels', () => {
  it('writes the long vowels of kana and of passport spellings short', () => {
    expect(['shinzou', 'shinzoo', 'ohno', 'ryuu', 'kuruuzu'].map(shortVowels)).toEqual([
      'shinzo',
      'shinzo',
      'ono',
      'ryu',
      'kuruzu',
    ]);
    // An h before a vowel is a consonant.
    expect(shortVowels('ohara')).toBe('ohara');
  });
});
