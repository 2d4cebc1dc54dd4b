import { describe, expect, it } from 'vitest';
import { isKatakanaName, loanwordReadings } from './katakanaLoanwords.js';

describe('loanwordReadings', () => {
  it('keeps or leaves out each vowel Japanese adds after a consonant', () => {
    expect(loanwordReadings('kuruzu')).toEqual(expect.arrayContaining(['kuruzu', 'kruz', 'kuruz']));
    expect(loanwordReadings('sukotto')).toContain('skott');
    expect(loanwordReadings('teddo')).toContain('tedd');
    // A vowel before another vowel is the word's own.
    expect(loanwordReadings('maria')).toEqual(['maria', 'malia']);
  });

  it('reads r as r and l, and shi as shi and si', () => {
    expect(loanwordReadings('peroshi')).toEqual(expect.arrayContaining(['pelosi', 'perosi', 'peroshi']));
    expect(loanwordReadings('neruson')).toContain('nelson');
  });
});

describe('isKatakanaName', () => {
  it('holds for katakana words with spaces or middle dots between them, and nothing else', () => {
    expect(isKatakanaName('テッド・クルーズ')).toBe(true);
    expect(isKatakanaName('アベ シンゾウ')).toBe(true);
    for (const name of ['安倍晋三', 'あべ しんぞう', 'Ted クルーズ', '・'])
      expect(isKatakanaName(name), name).toBe(false);
  });
});
