import { describe, expect, it } from 'vitest';
import { isValidSlug, slugify } from './slug.js';

describe('slugify', () => {
  it('lowercases, drops accents and joins words with single hyphens', () => {
    expect(slugify('  Équipe Conformité — EU / UK ')).toBe('equipe-conformite-eu-uk');
    expect(slugify('Ops 24x7')).toBe('ops-24x7');
  });

  it('gives up on names without letters or digits', () => {
    expect(slugify('!!! ---')).toBeUndefined();
  });

  it('stays within 63 characters without a trailing hyphen', () => {
    const slug = slugify(`${'a'.repeat(62)} b`)!;
    expect(slug).toBe('a'.repeat(62));
    expect(isValidSlug(slug)).toBe(true);
  });
});

describe('isValidSlug', () => {
  it('accepts hyphenated lowercase words only', () => {
    expect(isValidSlug('emea-retail-2')).toBe(true);
    for (const bad of ['', 'Sales', 'a--b', '-a', 'a-', 'a_b', 'a'.repeat(64)])
      expect(isValidSlug(bad), bad).toBe(false);
  });
});
