import { ENTITY_KINDS, type EntityIdentifier, type EntityKind } from '../model/listedEntity.js';
import { countryCode } from '../parsers/countries.js';
import { FTM_PARTY_KINDS } from '../parsers/ftmEntity.js';
import { parseSubjectBirthDate, type ScreeningSubject, type SubjectBirthDate } from './query.js';

/**
 * Subjects as operators and evaluators write them: CLI flags and rows of a batch CSV
 * (`full_name`, `date_of_birth`, `nationality`, `type` or `schema`, `identifiers`). Each reader
 * returns the subject or says exactly what is wrong.
 */
export type InputResult<T> = { ok: true; value: T } | { ok: false; message: string };

const KINDS: ReadonlySet<string> = new Set(ENTITY_KINDS);

/** `person` .. `unknown`, or an FtM schema (`Person`, `Company`, `LegalEntity`, `Airplane`, ...). */
export function subjectKindOf(text: string): EntityKind | undefined {
  const trimmed = text.trim();
  if (KINDS.has(trimmed.toLowerCase())) return trimmed.toLowerCase() as EntityKind;
  return FTM_PARTY_KINDS[trimmed];
}

/**
 * An ISO 3166-1 alpha-2 or alpha-3 code in any case, or a country name. A caller's two letters are
 * a code ("na" is Namibia here; only publishers write it for "not available").
 */
export function subjectCountryOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^[a-z]{2,3}$/i.test(trimmed)) return countryCode(trimmed.toUpperCase());
  return countryCode(trimmed);
}

/**
 * `passport:AB123456` (a scheme of the entity model, in any case: `IMO:9123456`) or a bare number
 * (scheme `other`); undefined when there is no value.
 */
export function subjectIdentifierOf(text: string): EntityIdentifier | undefined {
  const match = /^([a-z_]+):(.*)$/i.exec(text.trim());
  const value = (match ? match[2]! : text).trim();
  if (value.length === 0) return undefined;
  return { scheme: match ? match[1]!.toLowerCase() : 'other', value };
}

/**
 * Why a subject's name can never match, or undefined: a name of punctuation only (`!!!`) has no
 * letter or digit to compare, so it would always read as a clean "no matches".
 */
export function unmatchableName(name: string): string | undefined {
  return /[\p{L}\p{N}]/u.test(name) ? undefined : 'the name has no letter or digit';
}

/**
 * Whether a birth date (as precise as it is given) starts after `now`'s day, UTC: `2100-12-31` is
 * a typo that would only lower the scores of the real person, while the current year is possible.
 */
export function isFutureBirthDate(date: SubjectBirthDate, now: Date): boolean {
  const given = [date.year, date.month ?? 0, date.day ?? 0];
  const today = [now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate()];
  for (const [i, part] of given.entries()) {
    // An unspecified month or day (0) covers the whole year or month: not after today's.
    if (part === 0 || part !== today[i]) return part > today[i]!;
  }
  return false;
}

export interface SubjectFields {
  name?: string;
  type?: string;
  birthDate?: string;
  countries?: readonly string[];
  identifiers?: readonly string[];
}

/** A subject read from its fields, and what of them had to be left out. */
export interface SubjectReading {
  subject: ScreeningSubject;
  /** One line per unreadable field left out (lenient reading only). */
  warnings: string[];
}

/**
 * Reads a subject. Strict (CLI flags): the first unreadable field is the error. Lenient (batch
 * rows): an unreadable type, birth date, country or identifier is left out with a warning and the
 * subject is screened on the rest, because a typo in one birth date of a 50,000-row file must not
 * leave that person unscreened. Only a missing, over-long or letterless name is an error either way.
 */
export function readSubject(
  fields: SubjectFields,
  defaultKind: EntityKind,
  mode: 'strict' | 'lenient',
): InputResult<SubjectReading> {
  const name = fields.name?.replace(/\s+/g, ' ').trim() ?? '';
  if (name.length === 0) return { ok: false, message: 'the name is empty' };
  if (name.length > 240) return { ok: false, message: 'the name is longer than 240 characters' };
  const unmatchable = unmatchableName(name);
  if (unmatchable) return { ok: false, message: unmatchable };
  const problems: string[] = [];
  let kind = defaultKind;
  if (fields.type?.trim()) {
    const given = subjectKindOf(fields.type);
    if (given) kind = given;
    else problems.push(`unknown type "${fields.type}" (one of ${ENTITY_KINDS.join(', ')}, or an FtM schema)`);
  }
  let birthDate: ScreeningSubject['birthDate'];
  if (fields.birthDate?.trim()) {
    birthDate = parseSubjectBirthDate(fields.birthDate);
    if (!birthDate) {
      problems.push(`birth date "${fields.birthDate}" is not YYYY, YYYY-MM or YYYY-MM-DD (year 1800-2100)`);
    } else if (isFutureBirthDate(birthDate, new Date())) {
      problems.push(`birth date "${fields.birthDate}" is in the future`);
      birthDate = undefined;
    }
  }
  const countries: string[] = [];
  for (const text of fields.countries ?? []) {
    if (!text.trim()) continue;
    const code = subjectCountryOf(text);
    if (!code) problems.push(`unknown country "${text}"`);
    else if (!countries.includes(code)) countries.push(code);
  }
  const identifiers: EntityIdentifier[] = [];
  for (const text of fields.identifiers ?? []) {
    if (!text.trim()) continue;
    const identifier = subjectIdentifierOf(text);
    if (identifier) identifiers.push(identifier);
    else problems.push(`identifier "${text}" has no value`);
  }
  if (mode === 'strict' && problems.length > 0) return { ok: false, message: problems[0]! };
  return {
    ok: true,
    value: {
      subject: { name, kind, birthDate, countries, identifiers },
      warnings: problems.map((problem) => `${problem}: left out`),
    },
  };
}

/** A subject from CLI flags: every field must be readable. */
export function subjectOf(fields: SubjectFields, defaultKind: EntityKind): InputResult<ScreeningSubject> {
  const reading = readSubject(fields, defaultKind, 'strict');
  return reading.ok ? { ok: true, value: reading.value.subject } : reading;
}

/**
 * A batch CSV row, read leniently (readSubject). Columns: `full_name` (required), `date_of_birth`,
 * `nationality` (ISO code or name; several separated by `;`), `type` or `schema` (else
 * `defaultKind`), `identifiers` (`scheme:value;...`); others are ignored.
 */
export function subjectFromRow(
  row: Readonly<Record<string, string | undefined>>,
  defaultKind: EntityKind = 'unknown',
): InputResult<SubjectReading> {
  const split = (text: string | undefined) => (text ?? '').split(';').filter((part) => part.trim());
  return readSubject(
    {
      name: row.full_name,
      type: row.type?.trim() ? row.type : row.schema,
      birthDate: row.date_of_birth,
      countries: split(row.nationality),
      identifiers: split(row.identifiers),
    },
    defaultKind,
    'lenient',
  );
}
