import { describe, expect, it } from 'vitest';
import { compareCountries } from './countries.js';

describe('compareCountries', () => {
  it('agrees when one country is shared, listing the shared ones', () => {
    expect(compareCountries(['RU'], ['UA', 'RU', 'CY'])).toEqual({
      outcome: 'agree',
      shared: ['RU'],
      subject: ['RU'],
      record: ['UA', 'RU', 'CY'],
    });
    expect(compareCountries(['DE', 'CY', 'RU'], ['RU', 'CY']).shared).toEqual(['CY', 'RU']);
  });

  it('conflicts when both sides name countries and none is shared', () => {
    expect(compareCountries(['FR', 'BE'], ['RU', 'BY'])).toEqual({
      outcome: 'conflict',
      shared: [],
      subject: ['FR', 'BE'],
      record: ['RU', 'BY'],
    });
  });

  it('is missing when either side names none', () => {
    expect(compareCountries([], ['RU']).outcome).toBe('missing');
    expect(compareCountries(['RU'], []).outcome).toBe('missing');
    expect(compareCountries([], []).outcome).toBe('missing');
    expect(compareCountries([], ['RU']).record).toEqual(['RU']);
  });

  it('returns copies, not the caller arrays', () => {
    const subject = ['RU'];
    const record = ['RU'];
    const result = compareCountries(subject, record);
    result.subject.push('XX');
    result.record.push('XX');
    expect(subject).toEqual(['RU']);
    expect(record).toEqual(['RU']);
  });
});
