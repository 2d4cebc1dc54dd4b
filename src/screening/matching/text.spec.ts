import { describe, expect, it } from 'vitest';
import { rawWords, transliterate } from './text.js';

describe('transliterate', () => {
  it('splits a Chinese or Korean name written without spaces into family and given name', () => {
    expect(transliterate('习近平', true).trim()).toBe('xi jinping');
    expect(transliterate('习近平', false).trim()).toBe('xijinping');
  });

  it('keeps each word whole when the name is already split into words', () => {
    expect(rawWords('은정 김', true).map((word) => word.text)).toEqual(['eunjeong', 'gim']);
    expect(rawWords('王 晨', true).map((word) => word.text)).toEqual(['wang', 'chen']);
  });
});
