import { describe, expect, it } from 'vitest';
import { hanjaReading, hasHan, startsWithKoreanFamilyName } from './hanjaReadings.js';

describe('hanjaReading', () => {
  it('reads each Han character as its Hangul syllable, in its original sound', () => {
    // 李 리 and 龍 룡, not 이 and 용: the initial-sound law of South Korean spelling is not applied.
    expect(hanjaReading('李 龍海', false)).toBe('리 룡해');
    expect(hanjaReading('正恩', false)).toBe('정은');
  });

  it('reads 金 as the family name Kim only where a family name stands', () => {
    expect(hanjaReading('金正恩', true)).toBe('김정은');
    expect(hanjaReading('金正恩', false)).toBe('금정은');
    expect(hanjaReading('正金', true)).toBe('정금');
  });

  it('keeps other characters, and gives up on a character it has no reading for', () => {
    expect(hanjaReading('金 (Kim)', true)).toBe('김 (Kim)');
    // U+9FA6, one of the late additions the table does not read.
    expect(hanjaReading('金\u9fa6', true)).toBeUndefined();
    expect(hasHan('Kim Jong Un')).toBe(false);
    expect(hasHan('金正恩')).toBe(true);
  });

  it('knows a Korean family name in the form Korea writes it, not in the simplified Chinese form', () => {
    expect(startsWithKoreanFamilyName('金正恩')).toBe(true);
    expect(startsWithKoreanFamilyName('張成澤')).toBe(true);
    expect(startsWithKoreanFamilyName('张明')).toBe(false);
    expect(startsWithKoreanFamilyName('习近平')).toBe(false);
    expect(startsWithKoreanFamilyName('Kim 金')).toBe(true);
    expect(startsWithKoreanFamilyName('Kim')).toBe(false);
  });
});
