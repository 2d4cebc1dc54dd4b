import { describe, expect, it } from 'vitest';
import { koreanNameReadings, syllableReadings } from './hangulReadings.js';

describe('syllableReadings', () => {
  it('spells a syllable as both systems do, voiced and unvoiced', () => {
    expect(syllableReadings('룡')).toEqual(['ryong', 'lyong']);
    expect(syllableReadings('정').sort()).toEqual(['cheong', 'chong', 'jeong', 'jong']);
    expect(syllableReadings('은')).toEqual(['eun', 'un']);
    expect(syllableReadings('최')).toEqual(['choe']);
  });
});

describe('koreanNameReadings', () => {
  it('reads a name in Hangul syllable by syllable, family name first', () => {
    const syllables = koreanNameReadings('최룡해')!;
    expect(syllables.map((s) => s.word)).toEqual(['최', '룡', '해']);
    expect(syllables[2]!.readings).toEqual(['hae']);
    expect(koreanNameReadings('김 정은')!.map((s) => s.word)).toEqual(['김', '정', '은']);
  });

  it('reads a name in Hanja through its Korean readings, keeping the characters as written', () => {
    const syllables = koreanNameReadings('金正恩')!;
    expect(syllables.map((s) => s.word)).toEqual(['金', '正', '恩']);
    expect(syllables[0]!.readings).toContain('kim');
    expect(syllables[1]!.readings).toContain('jong');
  });

  it('reads nothing else: one syllable, Chinese names, mixed scripts', () => {
    for (const name of ['김', '张成泽', '习近平', 'Kim 정은', '최룡해최룡해'])
      expect(koreanNameReadings(name), name).toBeUndefined();
  });
});
