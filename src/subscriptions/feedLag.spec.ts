import { describe, expect, it } from 'vitest';
import { formatLag } from './feedLag.js';

describe('formatLag', () => {
  it('marks a capped count as a lower bound', () => {
    expect(formatLag({ events: 1_500, capped: true })).toBe('1500+');
    expect(formatLag({ events: 0, capped: true })).toBe('0+');
    expect(formatLag({ events: 1_500, capped: false })).toBe('1500');
  });
});
