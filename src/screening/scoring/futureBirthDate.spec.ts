import { describe, expect, it } from 'vitest';
import { isFutureBirthDate } from './subjectInput.js';

describe('isFutureBirthDate', () => {
  const now = new Date('2026-11-23T08:00:00Z');

  it('takes a date as precise as it is given: the current year or month is no future', () => {
    expect(isFutureBirthDate({ year: 2026 }, now)).toBe(false);
    expect(isFutureBirthDate({ year: 2026, month: 11 }, now)).toBe(false);
    expect(isFutureBirthDate({ year: 2026, month: 11, day: 23 }, now)).toBe(false);
    expect(isFutureBirthDate({ year: 1965, month: 12, day: 31 }, now)).toBe(false);
  });

  it('refuses any date after today', () => {
    expect(isFutureBirthDate({ year: 2027 }, now)).toBe(true);
    expect(isFutureBirthDate({ year: 2026, month: 12 }, now)).toBe(true);
    expect(isFutureBirthDate({ year: 2026, month: 11, day: 24 }, now)).toBe(true);
    expect(isFutureBirthDate({ year: 2100, month: 12, day: 31 }, now)).toBe(true);
  });
});
