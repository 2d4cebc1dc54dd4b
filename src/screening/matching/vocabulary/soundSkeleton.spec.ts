import { describe, expect, it } from 'vitest';
import { latinSkeleton, latinSoundReadings, latinSoundsOf, soundReading } from './soundSkeleton.js';

describe('latinSkeleton', () => {
  it('hears English as a transcription does: non-rhotic r, silent h and w, th, tch', () => {
    expect(latinSkeleton('osborne', 'chinese')).toBe('SBN');
    expect(latinSkeleton('warner', 'chinese')).toBe('WN');
    expect(latinSkeleton('howlett', 'chinese')).toBe('HLD');
    expect(latinSkeleton('thune', 'chinese')).toBe('DN');
    expect(latinSkeleton('smith', 'chinese')).toBe('SMS');
    expect(latinSkeleton('mitch', 'chinese')).toBe('MJ');
    expect(latinSkeleton('george', 'chinese')).toBe('J');
    expect(latinSkeleton('angela', 'chinese')).toBe('NJL');
  });

  it('hears f, v and ph as b, z as j and w as a vowel when Korean writes the name', () => {
    expect(latinSkeleton('philip', 'korean')).toBe('BLB');
    expect(latinSkeleton('kevin', 'korean')).toBe('GBN');
    expect(latinSkeleton('cruz', 'korean')).toBe('GLJ');
    expect(latinSkeleton('woodall', 'korean')).toBe('DL');
    expect(latinSkeleton('philip', 'chinese')).toBe('FLB');
  });

  it('hears j, soft g and дж alike, w and у, h with г and х, r after a vowel when Cyrillic writes the name', () => {
    expect(latinSkeleton('john', 'alphabet')).toBe(latinSkeleton('dzhon', 'alphabet'));
    expect(latinSkeleton('george', 'alphabet')).toBe(latinSkeleton('dzhordzh', 'alphabet'));
    expect(latinSkeleton('wharton', 'alphabet')).toBe(latinSkeleton('uorton', 'alphabet'));
    expect(latinSkeleton('lewis', 'alphabet')).toBe(latinSkeleton('lyuis', 'alphabet'));
    expect(latinSkeleton('heidi', 'alphabet')).toBe(latinSkeleton('gaydi', 'alphabet'));
    expect(latinSkeleton('hoeven', 'alphabet')).toBe(latinSkeleton('khuven', 'alphabet'));
    expect(latinSkeleton('chris', 'alphabet')).toBe(latinSkeleton('kris', 'alphabet'));
    expect(latinSkeleton('michael', 'alphabet')).toBe(latinSkeleton('maykl', 'alphabet'));
    expect(latinSkeleton('carter', 'alphabet')).toBe('KRTR');
    expect(latinSkeleton('smith', 'alphabet')).toBe('SMT');
    expect(latinSkeleton('betts', 'alphabet')).not.toBe(latinSkeleton('potts', 'alphabet'));
  });

  it("compares a Latin part in the reading's own hearing, and lists it in every hearing", () => {
    expect(latinSoundsOf(soundReading('korean', 'BLB'), 'philip')).toEqual([soundReading('korean', 'BLB')]);
    expect(latinSoundsOf(soundReading('chinese', 'FLB'), 'philip')).toEqual([soundReading('chinese', 'FLB')]);
    expect(latinSoundReadings('philip')).toEqual([
      soundReading('chinese', 'FLB'),
      soundReading('korean', 'BLB'),
      soundReading('hebrew', 'FLF'),
      soundReading('alphabet', 'FLP'),
    ]);
    expect(latinSoundReadings('ai')).toEqual([]);
  });

  it('hears katakana in Hepburn as Japanese writes a foreign name: voicing kept, r and l one, v as b, the g of ng', () => {
    const kana = (hepburn: string) => latinSkeleton(hepburn, 'japanese', true);
    const latin = (spelling: string) => latinSkeleton(spelling, 'japanese');
    expect(kana('deividdo')).toBe(latin('david'));
    expect(kana('kyameron')).toBe(latin('cameron'));
    expect(kana('toranpu')).toBe(latin('trump'));
    expect(kana('tomasu')).toBe(latin('thomas'));
    expect(kana('sumisu')).toBe(latin('smith'));
    expect(kana('shuma')).toBe(latin('schumer'));
    expect(kana('kingu')).toBe(latin('king'));
    expect(kana('woren')).toBe(latin('warren'));
    expect(latin('betts')).not.toBe(latin('potts'));
    expect(latin('lee')).toBe(latin('ree'));
  });

  it('hears the German sch as sh in every hearing', () => {
    for (const hearing of ['chinese', 'korean', 'hebrew', 'alphabet', 'arabic', 'japanese'] as const) {
      expect(latinSkeleton('schatz', hearing)).toBe(latinSkeleton('shatz', hearing));
      expect(latinSkeleton('scholz', hearing)).not.toBe(latinSkeleton('scolz', hearing));
    }
  });

  it('hears an r after a vowel both left out, as English says it, and said, as other languages do', () => {
    // 워너 Warner, 마르코 Marco; 沃纳 Warner, 戈尔巴乔夫 Gorbachev.
    expect(latinSoundsOf(soundReading('korean', ''), 'marco')).toEqual([
      soundReading('korean', 'MG'),
      soundReading('korean', 'MLG'),
    ]);
    expect(latinSoundsOf(soundReading('chinese', ''), 'gorbachev')).toEqual([
      soundReading('chinese', 'GBJW'),
      soundReading('chinese', 'GLBJW'),
    ]);
    // No r left out: one reading. Hebrew and the alphabets always write the r.
    expect(latinSoundsOf(soundReading('korean', ''), 'rubio')).toEqual([soundReading('korean', 'LB')]);
    expect(latinSoundsOf(soundReading('hebrew', ''), 'marco')).toEqual([soundReading('hebrew', 'MLG')]);
    expect(latinSoundReadings('marco')).toContain(soundReading('korean', 'MLG'));
  });
});
