import type { EntityIdentifier, EntityKind } from '../model/listedEntity.js';

/**
 * What a screening is asked about: the subject of a case (API `subject`), a CLI `screen` line or a
 * row of a batch file. Only `name` is required; every other field that is present can raise or
 * lower a match's score, and one that is missing is reported as missing, never guessed.
 */
export interface SubjectBirthDate {
  year: number;
  month?: number;
  day?: number;
}

export interface ScreeningSubject {
  name: string;
  /** `unknown` compares against every kind of listed party. */
  kind: EntityKind;
  birthDate?: SubjectBirthDate;
  /** ISO 3166-1 alpha-2, upper case: nationality, residence, incorporation, flag. */
  countries: readonly string[];
  identifiers: readonly EntityIdentifier[];
}

/**
 * `1965`, `1965-03`, `1965-03-01` (month and day also unpadded, `1965-3-1`, as spreadsheets write
 * them) -> a subject birth date; anything else, impossible dates included -> undefined.
 */
export function parseSubjectBirthDate(text: string): SubjectBirthDate | undefined {
  const match = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(text.trim());
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = match[2] === undefined ? undefined : Number(match[2]);
  const day = match[3] === undefined ? undefined : Number(match[3]);
  if (year < 1800 || year > 2100) return undefined;
  if (month !== undefined && (month < 1 || month > 12)) return undefined;
  if (day !== undefined && (day < 1 || day > daysInMonth(year, month!))) return undefined;
  return { year, ...(month !== undefined && { month }), ...(day !== undefined && { day }) };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, as precise as the subject's date is. */
export function formatSubjectBirthDate(date: SubjectBirthDate): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  if (date.month === undefined) return String(date.year);
  if (date.day === undefined) return `${date.year}-${pad(date.month)}`;
  return `${date.year}-${pad(date.month)}-${pad(date.day)}`;
}
