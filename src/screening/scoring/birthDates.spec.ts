import { describe, expect, it } from 'vitest';
import type { PartialDateRange } from '../model/listedEntity.js';
import { type BirthDateOutcome, compareBirthDates } from './birthDates.js';
import { parseSubjectBirthDate } from './query.js';

/** The outcome of a subject date (as a caller writes it) against listed dates. */
function outcome(subject: string, ...listed: (string | PartialDateRange)[]): BirthDateOutcome {
  return compareBirthDates(
    parseSubjectBirthDate(subject),
    listed.map((date) => (typeof date === 'string' ? { from: date } : date)),
  ).outcome;
}

describe('compareBirthDates: one listed date', () => {
  it('agrees on the same day', () => {
    expect(outcome('1965-03-01', '1965-03-01')).toBe('exact');
  });

  it('agrees on the month when one side has no day', () => {
    expect(outcome('1965-03', '1965-03-01')).toBe('month');
    expect(outcome('1965-03-01', '1965-03')).toBe('month');
    expect(outcome('1965-03', '1965-03')).toBe('month');
  });

  it('agrees on the year when one side has no month', () => {
    expect(outcome('1965', '1965-03-01')).toBe('year');
    expect(outcome('1965-03-01', '1965')).toBe('year');
    expect(outcome('1965', '1965')).toBe('year');
  });

  it('recognises day and month swapped (US vs European order)', () => {
    expect(outcome('1965-01-03', '1965-03-01')).toBe('swapped');
    expect(outcome('1965-12-11', '1965-11-12')).toBe('swapped');
  });

  it('needs both days to call a difference a swap', () => {
    expect(outcome('1965-01', '1965-03-01')).toBe('day_conflict');
    expect(outcome('1965-01-03', '1965-03')).toBe('day_conflict');
  });

  it('calls one year apart near, whatever the months and days', () => {
    expect(outcome('1966', '1965')).toBe('near');
    expect(outcome('1964-12-31', '1965-01-01')).toBe('near');
    expect(outcome('1966-03-01', '1965-03-01')).toBe('near');
  });

  it('calls a different month or day in the same year a day conflict', () => {
    expect(outcome('1965-03-02', '1965-03-01')).toBe('day_conflict');
    expect(outcome('1965-04-01', '1965-03-01')).toBe('day_conflict');
    expect(outcome('1965-04', '1965-03')).toBe('day_conflict');
    // Swapping would not make these equal.
    expect(outcome('1965-01-04', '1965-03-01')).toBe('day_conflict');
  });

  it('calls two or more years apart a year conflict', () => {
    expect(outcome('1967', '1965')).toBe('year_conflict');
    expect(outcome('1963-03-01', '1965-03-01')).toBe('year_conflict');
    expect(outcome('1990', '1965-03-01')).toBe('year_conflict');
  });
});

describe('compareBirthDates: ranges and approximate dates', () => {
  const circa = { from: '1960', to: '1965' };

  it('agrees at year level anywhere inside a range, bounds included', () => {
    expect(outcome('1960', circa)).toBe('year');
    expect(outcome('1962-07-14', circa)).toBe('year');
    expect(outcome('1965-12', circa)).toBe('year');
  });

  it('calls a year just outside a range near, and further out a conflict', () => {
    expect(outcome('1959', circa)).toBe('near');
    expect(outcome('1966-01-01', circa)).toBe('near');
    expect(outcome('1958', circa)).toBe('year_conflict');
    expect(outcome('1967', circa)).toBe('year_conflict');
  });

  it('never gives a range more than year-level agreement, even for a full date at a bound', () => {
    expect(outcome('1960-01-01', { from: '1960-01-01', to: '1961-12-31' })).toBe('year');
  });

  it('compares an approximate date as the date it gives', () => {
    expect(outcome('1960', { from: '1960', approximate: true })).toBe('year');
    expect(outcome('1961', { from: '1960', approximate: true })).toBe('near');
    expect(outcome('1960-05-01', { from: '1960-05-01', approximate: true })).toBe('exact');
  });
});

describe('compareBirthDates: several listed dates', () => {
  it('takes the best outcome over the listed dates, whatever their order', () => {
    expect(outcome('1965-03-01', '1950', '1965-03-01', '1966')).toBe('exact');
    expect(outcome('1965-03-01', '1966', '1965-03-01', '1950')).toBe('exact');
    expect(outcome('1961', '1950-01-01', '1962')).toBe('near');
    expect(outcome('1965-03-01', '1965-04-01', '1966-03-01')).toBe('near');
    expect(outcome('1970', '1950', { from: '1968', to: '1971' })).toBe('year');
  });

  it('reports the listed date that gave the outcome, ranges as from/to', () => {
    const subject = parseSubjectBirthDate('1962');
    expect(compareBirthDates(subject, [{ from: '1950' }, { from: '1960', to: '1965' }])).toEqual({
      outcome: 'year',
      subject: '1962',
      record: '1960/1965',
    });
    expect(compareBirthDates(subject, [{ from: '1963-05-02' }, { from: '1962-01-01' }])).toEqual({
      outcome: 'year',
      subject: '1962',
      record: '1962-01-01',
    });
  });

  it('conflicts only when every listed date conflicts', () => {
    expect(outcome('1980', '1950', '1960', { from: '1970', to: '1975' })).toBe('year_conflict');
  });
});

describe('compareBirthDates: missing', () => {
  it('is missing, never a conflict, when either side has no date', () => {
    expect(compareBirthDates(undefined, [{ from: '1965' }])).toEqual({
      outcome: 'missing',
      subject: null,
      record: '1965',
    });
    expect(compareBirthDates({ year: 1965, month: 3, day: 1 }, [])).toEqual({
      outcome: 'missing',
      subject: '1965-03-01',
      record: null,
    });
    expect(compareBirthDates(undefined, [])).toEqual({ outcome: 'missing', subject: null, record: null });
  });
});

describe('the best of several listed dates', () => {
  it('prefers an agreeing year to a swapped day and month, as the score does', () => {
    const subject = { year: 1965, month: 1, day: 3 };
    expect(compareBirthDates(subject, [{ from: '1965-03-01' }]).outcome).toBe('swapped');
    expect(compareBirthDates(subject, [{ from: '1965-03-01' }, { from: '1965' }]).outcome).toBe('year');
  });
});
