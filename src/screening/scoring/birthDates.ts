import type { PartialDateRange } from '../model/listedEntity.js';
import { formatSubjectBirthDate, type SubjectBirthDate } from './query.js';

/**
 * How a subject's birth date compares with a listed party's, best outcome over the party's dates
 * (lists give several: "DOB 1960; alt. DOB 1962"). Compared only as precisely as both sides are:
 * a subject born "1965" agrees with a listed "1965-03-01" at year level, no more.
 *
 * - exact: same day; month: same year and month (one side has no day);
 *   swapped: day and month swapped (a classic data-entry error, US vs European order);
 *   year: same year, or inside a listed range ("circa 1960-1965");
 *   near: one year apart (publishers round, subjects mistype), or within a year of a range;
 * - day_conflict: same year, but month or day differ;
 *   year_conflict: more than a year apart from every listed date;
 * - missing: either side has no birth date (never a penalty: absence is not disagreement).
 */
export type BirthDateOutcome =
  | 'exact'
  | 'month'
  | 'swapped'
  | 'year'
  | 'near'
  | 'day_conflict'
  | 'year_conflict'
  | 'missing';

/**
 * Best first, in the order of their weight in the score: the outcome of a party with several dates
 * is the best of them. A swapped day and month is weaker evidence than an agreeing year alone.
 */
const RANK: Readonly<Record<BirthDateOutcome, number>> = {
  exact: 0,
  month: 1,
  year: 2,
  swapped: 3,
  near: 4,
  day_conflict: 5,
  year_conflict: 6,
  missing: 7,
};

export interface BirthDateComparison {
  outcome: BirthDateOutcome;
  subject: string | null;
  /** The listed date that gave the outcome, as published (`1960`, or `1960/1962` for a range). */
  record: string | null;
}

interface DateParts {
  year: number;
  month?: number;
  day?: number;
}

function partsOf(text: string): DateParts {
  const [year, month, day] = text.split('-').map(Number);
  return { year: year!, ...(month !== undefined && { month }), ...(day !== undefined && { day }) };
}

function describe(range: PartialDateRange): string {
  return range.to ? `${range.from}/${range.to}` : range.from;
}

export function compareBirthDates(
  subject: SubjectBirthDate | undefined,
  listed: readonly PartialDateRange[],
): BirthDateComparison {
  if (!subject || listed.length === 0) {
    return {
      outcome: 'missing',
      subject: subject ? formatSubjectBirthDate(subject) : null,
      record: listed[0] ? describe(listed[0]) : null,
    };
  }
  let best: BirthDateComparison | undefined;
  for (const range of listed) {
    const outcome = range.to
      ? compareWithRange(subject, range)
      : compareWithDate(subject, partsOf(range.from));
    if (!best || RANK[outcome] < RANK[best.outcome]) {
      best = { outcome, subject: formatSubjectBirthDate(subject), record: describe(range) };
    }
  }
  return best!;
}

function compareWithRange(subject: SubjectBirthDate, range: PartialDateRange): BirthDateOutcome {
  const from = partsOf(range.from).year;
  const to = partsOf(range.to!).year;
  if (subject.year >= from && subject.year <= to) return 'year';
  if (subject.year >= from - 1 && subject.year <= to + 1) return 'near';
  return 'year_conflict';
}

function compareWithDate(subject: SubjectBirthDate, listed: DateParts): BirthDateOutcome {
  if (subject.year !== listed.year) {
    if (Math.abs(subject.year - listed.year) === 1) return 'near';
    return 'year_conflict';
  }
  if (subject.month === undefined || listed.month === undefined) return 'year';
  if (subject.month !== listed.month) {
    const swapped =
      subject.day !== undefined &&
      listed.day !== undefined &&
      subject.day === listed.month &&
      subject.month === listed.day;
    return swapped ? 'swapped' : 'day_conflict';
  }
  if (subject.day === undefined || listed.day === undefined) return 'month';
  return subject.day === listed.day ? 'exact' : 'day_conflict';
}
