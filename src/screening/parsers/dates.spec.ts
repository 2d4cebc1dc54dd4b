import { describe, expect, it } from 'vitest';
import { latestDate, parseDateRanges, parsePartialDate } from './dates.js';

describe('parsePartialDate', () => {
  it.each([
    ['1960', '1960'],
    ['1960-10', '1960-10'],
    ['1960-10-05', '1960-10-05'],
    ['2025-04-19T23:00:04.625Z', '2025-04-19'],
    ['1974/06/27', '1974-06-27'],
    ['10 Oct 1960', '1960-10-10'],
    ['05-Oct-1960', '1960-10-05'],
    ['1 Jan. 1953', '1953-01-01'],
    ['October 5, 1960', '1960-10-05'],
    ['Oct 1960', '1960-10'],
    ['Nov. 1958', '1958-11'],
    ['Sept 1958', '1958-09'],
    ['05/10/1960', '1960-10-05'],
    [' 1953-10-27 ', '1953-10-27'],
  ])('%j -> %s', (text, expected) => {
    expect(parsePartialDate(text)).toBe(expected);
  });

  it('reads all-numeric dates month first when told', () => {
    expect(parsePartialDate('03/28/2025', { numericOrder: 'mdy' })).toBe('2025-03-28');
    expect(parsePartialDate('03/28/2025')).toBeUndefined();
  });

  it.each(['', 'Sep-99', '31 Feb 1960', '1960-13', 'circa', '0999', 'Hijri'])('rejects %j', (text) => {
    expect(parsePartialDate(text)).toBeUndefined();
  });
});

describe('parseDateRanges', () => {
  it('keeps approximate single dates', () => {
    expect(parseDateRanges('circa 1960')).toEqual([{ from: '1960', approximate: true }]);
  });

  it('reads year and full-date ranges, in order', () => {
    expect(parseDateRanges('1960 to 1962')).toEqual([{ from: '1960', to: '1962' }]);
    expect(parseDateRanges('01 Jan 1960 to 31 Dec 1962')).toEqual([{ from: '1960-01-01', to: '1962-12-31' }]);
    expect(parseDateRanges('1963-1964')).toEqual([{ from: '1963', to: '1964' }]);
    expect(parseDateRanges('between 1965 and 1961')).toEqual([{ from: '1961', to: '1965' }]);
  });

  it('lends the end year to a start without one', () => {
    expect(parseDateRanges('Between Aug. and Sep. 1958')).toEqual([{ from: '1958-08', to: '1958-09' }]);
  });

  it('splits alternatives', () => {
    expect(parseDateRanges('1972-08-10 or 1972-08-11')).toEqual([
      { from: '1972-08-10' },
      { from: '1972-08-11' },
    ]);
    expect(parseDateRanges('1965-07-15 OR 1969-09-28')).toEqual([
      { from: '1965-07-15' },
      { from: '1969-09-28' },
    ]);
  });

  it('reads a decade as an approximate range', () => {
    expect(parseDateRanges('born in the early 1970s')).toEqual([
      { from: '1970', to: '1979', approximate: true },
    ]);
  });

  it('drops what it cannot read', () => {
    expect(parseDateRanges('Sep-99')).toEqual([]);
    expect(parseDateRanges('40-45 years old')).toEqual([]);
  });
});

describe('latestDate', () => {
  it('compares partial dates as text', () => {
    expect(latestDate(['2003-09-03', '2011-11-29', undefined, '2007'])).toBe('2011-11-29');
    expect(latestDate([])).toBeUndefined();
  });
});
