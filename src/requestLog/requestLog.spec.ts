import { describe, expect, it } from 'vitest';
import { MAX_PATH_LENGTH, pathOnly, retentionCutoff } from './requestLog.js';

describe('pathOnly', () => {
  it('removes the query string and fragment', () => {
    expect(pathOnly('/v1/cases?name=Jane%20Doe&dob=1980-01-01')).toBe('/v1/cases');
    expect(pathOnly('/v1/cases/abc#frag')).toBe('/v1/cases/abc');
    expect(pathOnly('/v1/cases/?')).toBe('/v1/cases/');
    expect(pathOnly('/v1/cases')).toBe('/v1/cases');
  });

  it('reduces an absolute-form target to its path', () => {
    expect(pathOnly('https://api.example.com/v1/cases?x=1')).toBe('/v1/cases');
    expect(pathOnly('http://api.example.com?x=1')).toBe('/');
  });

  it('bounds the length', () => {
    expect(pathOnly(`/${'a'.repeat(5000)}`)).toHaveLength(MAX_PATH_LENGTH);
  });
});

describe('retentionCutoff', () => {
  it('is 90 days before now by default', () => {
    expect(retentionCutoff(new Date('2030-04-01T12:00:00Z'))).toEqual(new Date('2030-01-01T12:00:00Z'));
    expect(retentionCutoff(new Date('2030-01-11T00:00:00Z'), 10)).toEqual(new Date('2030-01-01T00:00:00Z'));
  });
});
