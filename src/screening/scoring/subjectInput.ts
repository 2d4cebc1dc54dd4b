import { ENTITY_KINDS, type EntityIdentifier, type EntityKind } from '../model/listedEntity.js';
import { countryCode } from '../parsers/countries.js';
import { FTM_PARTY_KINDS } from '../parsers/ftmEntity.js';
import { parseSubjectBirthDate, type ScreeningSubject } from './query.js';

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

export interface SubjectFields {
  name?: string;
  type?: string;
  birthDate?: string;
  countries?: readonly string[];
  identifiers?: readonly string[];
}

export function subjectOf(fields: SubjectFields, defaultKind: EntityKind): InputResult<ScreeningSubject> {
  const name = fields.name?.replace(/\s+/g, ' ').trim() ?? '';
  if (name.length === 0) return { ok: false, message: 'the name is empty' };
  if (name.length > 240) return { ok: false, message: 'the name is longer than 240 characters' };
  let kind = defaultKind;
  if (fields.type?.trim()) {
    const given = subjectKindOf(fields.type);
    if (!given) {
      return {
        ok: false,
        message: `unknown type "${fields.type}" (one of ${ENTITY_KINDS.join(', ')}, or an FtM schema)`,
      };
    }
    kind = given;
  }
  let birthDate: ScreeningSubject['birthDate'];
  if (fields.birthDate?.trim()) {
    birthDate = parseSubjectBirthDate(fields.birthDate);
    if (!birthDate) {
      return {
        ok: false,
        message: `birth date "${fields.birthDate}" is not YYYY, YYYY-MM or YYYY-MM-DD (year 1800-2100)`,
      };
    }
  }
  const countries: string[] = [];
  for (const text of fields.countries ?? []) {
    if (!text.trim()) continue;
    const code = subjectCountryOf(text);
    if (!code) return { ok: false, message: `unknown country "${text}"` };
    if (!countries.includes(code)) countries.push(code);
  }
  const identifiers: EntityIdentifier[] = [];
  for (const text of fields.identifiers ?? []) {
    if (!text.trim()) continue;
    const identifier = subjectIdentifierOf(text);
    if (identifier) identifiers.push(identifier);
  }
  return { ok: true, value: { name, kind, birthDate, countries, identifiers } };
}

/**
 * A batch CSV row. Columns: `full_name` (required), `date_of_birth`, `nationality` (ISO code or
 * name; several separated by `;`), `type` or `schema`, `identifiers` (`scheme:value;...`);
 * others are ignored.
 */
export function subjectFromRow(
  row: Readonly<Record<string, string | undefined>>,
): InputResult<ScreeningSubject> {
  const split = (text: string | undefined) => (text ?? '').split(';').filter((part) => part.trim());
  return subjectOf(
    {
      name: row.full_name,
      type: row.type?.trim() ? row.type : row.schema,
      birthDate: row.date_of_birth,
      countries: split(row.nationality),
      identifiers: split(row.identifiers),
    },
    'unknown',
  );
}
