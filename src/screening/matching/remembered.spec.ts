import { describe, expect, it } from 'vitest';
import { remembered } from './remembered.js';

describe('remembered', () => {
  it('computes each text once, undefined results included', () => {
    const asked: string[] = [];
    const lookUp = remembered(10, (text) => {
      asked.push(text);
      return text.startsWith('k') ? text.toUpperCase() : undefined;
    });
    expect([lookUp('kim'), lookUp('smith'), lookUp('kim'), lookUp('smith')]).toEqual([
      'KIM',
      undefined,
      'KIM',
      undefined,
    ]);
    expect(asked).toEqual(['kim', 'smith']);
  });

  it('forgets everything once full, and computes again', () => {
    const asked: string[] = [];
    const lookUp = remembered(2, (text) => {
      asked.push(text);
      return text.length;
    });
    for (const text of ['a', 'bb', 'ccc', 'a']) lookUp(text);
    // 'ccc' found two kept and cleared them; 'a' was forgotten with them.
    expect(asked).toEqual(['a', 'bb', 'ccc', 'a']);
    lookUp('ccc');
    expect(asked).toHaveLength(4);
  });
});
