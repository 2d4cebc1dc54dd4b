import { describe, expect, it } from 'vitest';
import { latinSkeleton, latinSoundOf, latinSoundReadings, soundReading } from './soundSkeleton.js';

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
    expect(latinSkeleton('john', 'cyrillic')).toBe(latinSkeleton('dzhon', 'cyrillic'));
    expect(latinSkeleton('george', 'cyrillic')).toBe(latinSkeleton('dzhordzh', 'cyrillic'));
    expect(latinSkeleton('wharton', 'cyrillic')).toBe(latinSkeleton('uorton', 'cyrillic'));
    expect(latinSkeleton('lewis', 'cyrillic')).toBe(latinSkeleton('lyuis', 'cyrillic'));
    expect(latinSkeleton('heidi', 'cyrillic')).toBe(latinSkeleton('gaydi', 'cyrillic'));
    expect(latinSkeleton('hoeven', 'cyrillic')).toBe(latinSkeleton('khuven', 'cyrillic'));
    expect(latinSkeleton('chris', 'cyrillic')).toBe(latinSkeleton('kris', 'cyrillic'));
    expect(latinSkeleton('michael', 'cyrillic')).toBe(latinSkeleton('maykl', 'cyrillic'));
    expect(latinSkeleton('carter', 'cyrillic')).toBe('KRTR');
    expect(latinSkeleton('smith', 'cyrillic')).toBe('SMT');
    expect(latinSkeleton('betts', 'cyrillic')).not.toBe(latinSkeleton('potts', 'cyrillic'));
  });

  it("compares a Latin part in the reading's own hearing, and lists it in every hearing", () => {
    expect(latinSoundOf(soundReading('korean', 'BLB'), 'philip')).toBe(soundReading('korean', 'BLB'));
    expect(latinSoundOf(soundReading('chinese', 'FLB'), 'philip')).toBe(soundReading('chinese', 'FLB'));
    expect(latinSoundReadings('philip')).toEqual([
      soundReading('chinese', 'FLB'),
      soundReading('korean', 'BLB'),
      soundReading('hebrew', 'FLF'),
      soundReading('cyrillic', 'FLP'),
    ]);
    expect(latinSoundReadings('ai')).toEqual([]);
  });
});
