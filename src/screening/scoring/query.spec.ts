import { describe, expect, it } from 'vitest';
import { formatSubjectBirthDate, parseSubjectBirthDate } from './query.js';

describe('parseSubjectBirthDate', () => {
  it('reads a year, a year and month, and a full date, keeping only the parts given', () => {
    expect(parseSubjectBirthDate('1965')).toEqual({ year: 1965 });
    expect(parseSubjectBirthDate('1965-03')).toEqual({ year: 1965, month: 3 });
    expect(parseSubjectBirthDate('1965-03-01')).toEqual({ year: 1965, month: 3, day: 1 });
    // No undefined keys: a year-only date has no `month` property at all.
    expect(Object.keys(parseSubjectBirthDate('1965')!)).toEqual(['year']);
  });

  it('ignores surrounding whitespace', () => {
    expect(parseSubjectBirthDate('  1965-03-01 ')).toEqual({ year: 1965, month: 3, day: 1 });
  });

  it('refuses days that do not exist in the month', () => {
    expect(parseSubjectBirthDate('1965-02-30')).toBeUndefined();
    expect(parseSubjectBirthDate('1965-04-31')).toBeUndefined();
    expect(parseSubjectBirthDate('1965-02-29')).toBeUndefined();
    expect(parseSubjectBirthDate('1965-01-00')).toBeUndefined();
    expect(parseSubjectBirthDate('1965-01-32')).toBeUndefined();
  });

  it('knows leap years, including the century rule', () => {
    expect(parseSubjectBirthDate('1964-02-29')).toEqual({ year: 1964, month: 2, day: 29 });
    expect(parseSubjectBirthDate('2000-02-29')).toEqual({ year: 2000, month: 2, day: 29 });
    expect(parseSubjectBirthDate('1900-02-29')).toBeUndefined();
  });

  it('refuses month 0 and month 13', () => {
    expect(parseSubjectBirthDate('1965-13')).toBeUndefined();
    expect(parseSubjectBirthDate('1965-13-01')).toBeUndefined();
    expect(parseSubjectBirthDate('1965-00')).toBeUndefined();
  });

  it('accepts years 1800 to 2100 only', () => {
    expect(parseSubjectBirthDate('1800')).toEqual({ year: 1800 });
    expect(parseSubjectBirthDate('2100-12-31')).toEqual({ year: 2100, month: 12, day: 31 });
    expect(parseSubjectBirthDate('1799')).toBeUndefined();
    expect(parseSubjectBirthDate('1799-12-31')).toBeUndefined();
    expect(parseSubjectBirthDate('2101')).toBeUndefined();
  });

  it('refuses other layouts', () => {
    for (const text of [
      '',
      '65',
      '1965-003',
      '1965-03-001',
      '01.03.1965',
      '1965/03/01',
      '1965-03-01T00:00',
      'circa 1965',
    ]) {
      expect(parseSubjectBirthDate(text), text).toBeUndefined();
    }
  });
});

describe('formatSubjectBirthDate', () => {
  it('writes the date as precisely as it is known, zero-padded', () => {
    expect(formatSubjectBirthDate({ year: 1965 })).toBe('1965');
    expect(formatSubjectBirthDate({ year: 1965, month: 3 })).toBe('1965-03');
    expect(formatSubjectBirthDate({ year: 1965, month: 3, day: 1 })).toBe('1965-03-01');
  });

  it('round-trips what parseSubjectBirthDate reads', () => {
    for (const text of ['1965', '1965-11', '1965-11-09', '2000-02-29']) {
      expect(formatSubjectBirthDate(parseSubjectBirthDate(text)!)).toBe(text);
    }
  });
});

describe('unpadded months and days', () => {
  it('reads 1981-3-5 as spreadsheets write it', () => {
    expect(parseSubjectBirthDate('1981-3-05')).toEqual({ year: 1981, month: 3, day: 5 });
    expect(parseSubjectBirthDate('1981-3')).toEqual({ year: 1981, month: 3 });
    expect(parseSubjectBirthDate('1981-2-30')).toBeUndefined();
  });
});
