import { describe, expect, it } from 'vitest';
import { rtgsReading, thaiNameReadings } from './thaiRomanisation.js';

describe('rtgsReading', () => {
  it('writes the vowels Thai leaves unwritten, a before a syllable and o before a final', () => {
    expect(rtgsReading('สมชาย')).toBe('somchai');
    expect(rtgsReading('สวัสดิ์')).toBe('sawat');
  });

  it('reads a vowel written before its consonant after it, and a final consonant by its final value', () => {
    expect(rtgsReading('เวชชาชีวะ')).toBe('wetchachiwa');
    expect(rtgsReading('ทักษิณ')).toBe('thaksin');
  });

  it('leaves out silent letters and tone marks, and reads clusters and a leading ห', () => {
    expect(rtgsReading('ประยุทธ์')).toBe('prayut');
    expect(rtgsReading('จันทร์โอชา')).toBe('chanocha');
    expect(rtgsReading('ยิ่งลักษณ์')).toBe('yinglak');
    expect(rtgsReading('หญิง')).toBe('ying');
    expect(rtgsReading('วงษ์สุวรรณ')).toBe('wongsuwan');
  });

  it('reads nothing but Thai', () => {
    expect(rtgsReading('Prayut')).toBeUndefined();
    expect(thaiNameReadings('ประยุทธ์')).toBeUndefined();
    expect(thaiNameReadings('ประยุทธ์ Chan')).toBeUndefined();
  });
});
