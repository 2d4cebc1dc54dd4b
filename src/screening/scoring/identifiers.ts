import type { EntityIdentifier } from '../model/listedEntity.js';

/**
 * Identifier agreement: a passport, tax number, IMO or LEI given with the subject against the
 * listed party's. Values are compared without punctuation, spaces and case ("AB 123-456" is
 * "AB123456"); schemes must be compatible (the same, or one side `other`, which lists use for
 * numbers they do not label).
 *
 * - agree: one value in common: the strongest evidence there is, and it survives a renamed vessel
 *   or company whose name no longer matches;
 * - conflict: both sides have a number of the same unique scheme (one per party: IMO, MMSI, LEI,
 *   INN, OGRN, SWIFT/BIC, aircraft serial or tail number, registration) and they differ: a different
 *   vessel, aircraft or company. Passports and national ids are not unique per person (people
 *   renew, hold several), so a different passport number is no evidence against;
 * - missing: nothing to compare.
 */
export type IdentifierOutcome = 'agree' | 'conflict' | 'missing';

export interface IdentifierComparison {
  outcome: IdentifierOutcome;
  /** The agreeing or conflicting pair, `scheme:value` as listed. */
  subject: string | null;
  record: string | null;
}

const UNIQUE_SCHEMES: ReadonlySet<string> = new Set([
  'imo',
  'mmsi',
  'lei',
  'inn',
  'ogrn',
  'swift_bic',
  'aircraft_serial',
  'aircraft_tail',
  'registration',
]);

/** Schemes whose numbers are digits only, often written with their label ("IMO 9123456"). */
export const DIGIT_SCHEMES: ReadonlySet<string> = new Set(['imo', 'mmsi']);

/**
 * The comparable form of an identifier value: letters and digits, upper case; for IMO and MMSI
 * numbers the digits alone, so "IMO 9123456" as a caller writes it is the listed "9123456".
 */
export function normaliseIdentifierValue(value: string, scheme?: string): string {
  if (scheme !== undefined && DIGIT_SCHEMES.has(scheme)) return value.replace(/[^0-9]/g, '');
  return value.replace(/[^0-9a-z]/gi, '').toUpperCase();
}

function compatible(a: string, b: string): boolean {
  return a === b || a === 'other' || b === 'other';
}

const label = (id: EntityIdentifier) => `${id.scheme}:${id.value}`;

export function compareIdentifiers(
  subject: readonly EntityIdentifier[],
  listed: readonly EntityIdentifier[],
): IdentifierComparison {
  if (subject.length === 0 || listed.length === 0) return { outcome: 'missing', subject: null, record: null };
  let conflict: IdentifierComparison | undefined;
  for (const mine of subject) {
    for (const theirs of listed) {
      if (!compatible(mine.scheme, theirs.scheme)) continue;
      const scheme = mine.scheme === 'other' ? theirs.scheme : mine.scheme;
      const value = normaliseIdentifierValue(mine.value, scheme);
      if (value.length === 0) continue;
      if (normaliseIdentifierValue(theirs.value, scheme) === value) {
        return { outcome: 'agree', subject: label(mine), record: label(theirs) };
      }
      if (mine.scheme === theirs.scheme && UNIQUE_SCHEMES.has(mine.scheme)) {
        conflict ??= { outcome: 'conflict', subject: label(mine), record: label(theirs) };
      }
    }
  }
  return conflict ?? { outcome: 'missing', subject: null, record: null };
}
