import { describe, expect, it } from 'vitest';
import { englishSound, isKatakanaName, loanwordReadings } from './katakanaLoanwords.js';

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

describe('englishSound', () => {
  it('spells a Latin name as katakana hears it', () => {
    expect(englishSound('john')).toBe('jon');
    expect(englishSound('mark')).toBe('mak');
    expect(englishSound('warner')).toBe('wana');
    expect(englishSound('thune')).toBe('sun');
    expect(englishSound('cole')).toBe('kol');
    expect(englishSound('royce')).toBe('rois');
    expect(englishSound('farr')).toBe('fa');
    expect(englishSound('mcconnell')).toBe('mkonel');
    expect(englishSound('philip')).toBe('filip');
  });

  it('keeps what is heard: an r or h before a vowel, a lone e', () => {
    expect(englishSound('maria')).toBe('maria');
    expect(englishSound('graham')).toBe('graham');
    expect(englishSound('ted')).toBe('ted');
  });
});
