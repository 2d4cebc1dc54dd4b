import { describe, expect, it } from 'vitest';
import { sinoKey } from './vocabulary/chineseRomanisation.js';
import { areNicknames, canonicalSpelling } from './vocabulary/personNames.js';

describe('sinoKey', () => {
  it('spells Wade-Giles and pinyin syllables alike', () => {
    const pairs = [
      ['tsetung', 'zedong'],
      ['hsiaoping', 'xiaoping'],
      ['chou', 'zhou'],
      ['chin', 'jin'],
      ['shih', 'shi'],
      ['tzu', 'zi'],
      ['kuo', 'guo'],
      ['ko', 'ge'],
      ['hsien', 'xian'],
      ['chieh', 'jie'],
    ];
    for (const [wadeGiles, pinyin] of pairs) expect(sinoKey(wadeGiles!)).toBe(sinoKey(pinyin!));
  });

  it('keeps different syllables apart', () => {
    expect(sinoKey('shi')).not.toBe(sinoKey('xi'));
    expect(sinoKey('zhou')).not.toBe(sinoKey('zhao'));
  });

  it('refuses what is not made of syllables', () => {
    for (const word of ['smith', 'john', 'kim', 'chol', 'x1', '']) expect(sinoKey(word)).toBeUndefined();
  });
});

describe('person-name vocabulary', () => {
  it('maps spellings of one name to one key', () => {
    expect(canonicalSpelling('benjamin')).toBe(canonicalSpelling('binyamin'));
    expect(canonicalSpelling('yaakov')).toBe(canonicalSpelling('yakov'));
  });

  it('knows diminutives in both directions and across spellings, and not unrelated names', () => {
    expect(areNicknames(canonicalSpelling('bibi'), canonicalSpelling('benjamin'))).toBe(true);
    expect(areNicknames(canonicalSpelling('benjamin'), canonicalSpelling('bibi'))).toBe(true);
    expect(areNicknames(canonicalSpelling('sasha'), canonicalSpelling('alexander'))).toBe(true);
    expect(areNicknames(canonicalSpelling('sasha'), canonicalSpelling('alexandra'))).toBe(true);
    expect(areNicknames(canonicalSpelling('pepe'), canonicalSpelling('jose'))).toBe(true);
    expect(areNicknames(canonicalSpelling('bibi'), canonicalSpelling('david'))).toBe(false);
  });
});
