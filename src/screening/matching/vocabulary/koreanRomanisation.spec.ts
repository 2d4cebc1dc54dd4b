import { describe, expect, it } from 'vitest';
import { koreanKey } from './koreanRomanisation.js';

describe('koreanKey', () => {
  it('spells McCune-Reischauer and Revised Romanization of the same syllables alike', () => {
    // 박봉주: Pak Pong-ju (MR) / bag bongju (RR, as a Hangul name transliterates).
    expect(koreanKey('pak')).toBe(koreanKey('bag'));
    expect(koreanKey('bongju')).toBe(`${koreanKey('pong')}${koreanKey('ju')}`);
    // 황병서: Pyong-so / byeongseo (eo is the o of MR); 강석주: Sok / seog.
    expect(koreanKey('byeongseo')).toBe(`${koreanKey('pyong')}${koreanKey('so')}`);
    expect(koreanKey('seog')).toBe(koreanKey('sok'));
  });

  it('reads only what is made of Korean syllables, at most four', () => {
    expect(koreanKey('bongju')).toBe('PONG.CU.');
    expect(koreanKey('xavier')).toBeUndefined();
    expect(koreanKey('strength')).toBeUndefined();
    expect(koreanKey('hanamadaka')).toBeUndefined();
  });
});
