import { describe, expect, it } from 'vitest';
import { freshness } from './staleness.js';

const DAY = 86_400_000;
const NOW = new Date('2026-11-20T12:00:00Z');

describe('freshness', () => {
  it('measures the age from the publication date, stale once past the threshold', () => {
    const published = new Date(NOW.getTime() - 14 * DAY);
    expect(freshness({ publishedAt: published }, NOW, 14 * DAY)).toEqual({ ageMs: 14 * DAY, stale: false });
    expect(freshness({ publishedAt: published }, NOW, 14 * DAY - 1)).toEqual({
      ageMs: 14 * DAY,
      stale: true,
    });
  });

  it('gives a snapshot without a publication date no age, and makes it stale at any threshold', () => {
    // However recently it was loaded: the load time says nothing about how old the list is.
    expect(freshness({ publishedAt: null }, NOW, 3650 * DAY)).toEqual({ ageMs: null, stale: true });
  });

  it('keeps a publisher clock a little ahead fresh, with a negative age', () => {
    const ahead = new Date(NOW.getTime() + 3_600_000);
    expect(freshness({ publishedAt: ahead }, NOW, DAY)).toEqual({ ageMs: -3_600_000, stale: false });
  });
});
