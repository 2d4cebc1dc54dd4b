import type { PartialDateRange } from '../model/listedEntity.js';

/**
 * Dates as lists write them, reduced to the precision they carry: `YYYY`, `YYYY-MM` or
 * `YYYY-MM-DD`. Nothing is invented: "Oct 1960" stays a month, "1960" a year.
 */

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

export interface DateParseOptions {
  /** How to read an all-numeric `01/02/2020`: day first (default, as most lists) or month first (OFAC's US dates). */
  numericOrder?: 'dmy' | 'mdy';
}

const pad = (n: number) => String(n).padStart(2, '0');

function plausibleYear(year: number): boolean {
  return year >= 1000 && year <= 2999;
}

function ymd(year: number, month?: number, day?: number): string | undefined {
  if (!plausibleYear(year)) return undefined;
  if (month === undefined) return String(year);
  if (month < 1 || month > 12) return undefined;
  if (day === undefined) return `${year}-${pad(month)}`;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${year}-${pad(month)}-${pad(day)}`;
}

function monthNumber(word: string): number | undefined {
  return MONTHS[word.toLowerCase().replace(/\.$/, '')];
}

/**
 * One date in any of the forms the lists use: `1960`, `1960-10`, `1960-10-10` (also with a time),
 * `1960/10/10`, `10/10/1960` (see `numericOrder`), `10 Oct 1960`, `10-Oct-1960`, `October 10, 1960`,
 * `Oct 1960`, `Oct. 1960`. Returns `undefined` for anything else, including impossible dates.
 */
export function parsePartialDate(text: string, options: DateParseOptions = {}): string | undefined {
  const value = text.trim().replace(/\.$/, '').replace(/\s+/g, ' ');
  let m = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2})(?:T[\d:.]+(?:Z|[+-]\d\d:?\d\d)?)?)?)?$/.exec(value);
  if (m) return ymd(Number(m[1]), m[2] ? Number(m[2]) : undefined, m[3] ? Number(m[3]) : undefined);
  m = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(value);
  if (m) return ymd(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(value);
  if (m) {
    const [first, second] = [Number(m[1]), Number(m[2])];
    return options.numericOrder === 'mdy'
      ? ymd(Number(m[3]), first, second)
      : ymd(Number(m[3]), second, first);
  }
  m = /^(\d{1,2})[ -]([A-Za-z]+\.?),?[ -](\d{4})$/.exec(value);
  if (m) {
    const month = monthNumber(m[2]!);
    return month ? ymd(Number(m[3]), month, Number(m[1])) : undefined;
  }
  m = /^([A-Za-z]+\.?) (\d{1,2}),? (\d{4})$/.exec(value);
  if (m) {
    const month = monthNumber(m[1]!);
    return month ? ymd(Number(m[3]), month, Number(m[2])) : undefined;
  }
  m = /^([A-Za-z]+\.?)[ -](\d{4})$/.exec(value);
  if (m) {
    const month = monthNumber(m[1]!);
    return month ? ymd(Number(m[2]), month) : undefined;
  }
  return undefined;
}

const APPROXIMATE = /^(?:circa|approximately|approx\.?|about|around|ca\.|c\.)\s+/i;
const DECADE = /^(?:(?:born\s+)?(?:in\s+)?(?:the\s+)?(?:early|mid|late)?[\s-]*)?(\d{3})0'?s$/i;

/**
 * A birth date field as lists write it, as ranges: `circa 1960` (approximate), `1960 to 1962`,
 * `between 1960 and 1962`, `1963-1964`, `01 Jan 1960 to 31 Dec 1962`, `1962 or 1963` and
 * `1962; 1963` (two dates), `the early 1970s` (the decade, approximate). A range end without a
 * year takes the other end's ("Aug. to Sep. 1958"). Unreadable parts are dropped.
 */
export function parseDateRanges(text: string, options: DateParseOptions = {}): PartialDateRange[] {
  const ranges: PartialDateRange[] = [];
  for (const alternative of text.split(/\s+or\s+|;|\s+alt\.\s+/i)) {
    const range = parseDateRange(alternative, options);
    if (range) ranges.push(range);
  }
  return ranges;
}

function parseDateRange(text: string, options: DateParseOptions): PartialDateRange | undefined {
  let value = text.trim().replace(/\s+/g, ' ').replace(/\.$/, '');
  if (value === '') return undefined;
  const approximate = APPROXIMATE.test(value);
  value = value.replace(APPROXIMATE, '');
  const decade = DECADE.exec(value);
  if (decade) {
    const start = Number(decade[1]) * 10;
    return { from: String(start), to: String(start + 9), approximate: true };
  }
  const bounds =
    /^between (.+) and (.+)$/i.exec(value) ??
    /^(.+?) (?:to|until|-|–) (.+)$/i.exec(value) ??
    /^(\d{4})\s*[-–/]\s*(\d{4})$/.exec(value);
  if (bounds) {
    const range = boundsRange(bounds[1]!, bounds[2]!, options);
    if (range) return approximate ? { ...range, approximate } : range;
  }
  const single = parsePartialDate(value, options);
  if (!single) return undefined;
  return approximate ? { from: single, approximate } : { from: single };
}

function boundsRange(start: string, end: string, options: DateParseOptions): PartialDateRange | undefined {
  const to = parsePartialDate(end, options);
  if (!to) return undefined;
  // "Aug. to Sep. 1958": the start borrows the end's year.
  const from =
    parsePartialDate(start, options) ?? parsePartialDate(`${start.trim()} ${to.slice(0, 4)}`, options);
  if (!from) return undefined;
  if (from === to) return { from };
  return from < to ? { from, to } : { from: to, to: from };
}

/** The latest of some partial dates (they sort as text), or `undefined` when there are none. */
export function latestDate(dates: Iterable<string | undefined>): string | undefined {
  let latest: string | undefined;
  for (const date of dates) if (date && (!latest || date > latest)) latest = date;
  return latest;
}
