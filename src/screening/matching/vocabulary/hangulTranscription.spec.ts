import { describe, expect, it } from 'vitest';
import { hangulSkeleton, hangulWords, isHangulTranscription } from './hangulTranscription.js';
import { latinSkeleton } from './soundSkeleton.js';

const heard = (name: string) => hangulWords(name).map(hangulSkeleton);
const latin = (name: string) => name.split(' ').map((part) => latinSkeleton(part, 'korean'));

describe('hangulTranscription', () => {
  it('reads a name with a bare consonant or a long word beside another as foreign, not a Korean name', () => {
    expect(isHangulTranscription('보리스 존슨')).toBe(true);
    expect(isHangulTranscription('제레미 코빈')).toBe(true);
    expect(isHangulTranscription('앨런 로언솔')).toBe(true);
    expect(isHangulTranscription('김정은')).toBe(false);
    expect(isHangulTranscription('은서 장')).toBe(false);
    expect(isHangulTranscription('상호 성현 최')).toBe(false);
  });

  it('gives a transcription and its Latin spelling one skeleton', () => {
    expect(heard('보리스 존슨')).toEqual(latin('boris johnson'));
    expect(heard('필립 해먼드')).toEqual(latin('philip hammond'));
    expect(heard('테드 크루즈')).toEqual(latin('ted cruz'));
    expect(heard('미치 매코널')).toEqual(latin('mitch mcconnell'));
    expect(heard('엘리자베스 워런')).toEqual(latin('elizabeth warren'));
  });
});
