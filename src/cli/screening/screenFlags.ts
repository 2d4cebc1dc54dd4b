import { z } from 'zod';
import { CHECK_TYPES, type CheckType, isCheckType } from '../../screening/checkTypes.js';
import { ENTITY_KINDS, type EntityKind } from '../../screening/model/listedEntity.js';
import { findProfile, listProfiles, type ScreeningProfile } from '../../screening/scoring/profiles.js';
import { parseSubjectBirthDate } from '../../screening/scoring/query.js';
import {
  type InputResult,
  isFutureBirthDate,
  subjectCountryOf,
  subjectIdentifierOf,
  subjectKindOf,
  unmatchableName,
} from '../../screening/scoring/subjectInput.js';
import { viaParser } from '../commandSupport.js';

/**
 * The flags of `screen`, validated into what the screening needs, each problem named by its flag;
 * `--profile` and the file flags are `compare`'s too.
 */

/** At most this many matches per subject (`--limit`). */
export const MAX_LIMIT = 1000;
const SNAPSHOT_ID = /^snap_[0-9a-f]{32}$/;

function parseType(text: string): InputResult<EntityKind> {
  const kind = subjectKindOf(text);
  return kind
    ? { ok: true, value: kind }
    : { ok: false, message: `must be one of ${ENTITY_KINDS.join(', ')} (or an FtM schema such as Person)` };
}

function parseBirthDate(text: string): InputResult<string> {
  const date = parseSubjectBirthDate(text);
  if (!date) {
    return {
      ok: false,
      message: `"${text}" is not YYYY, YYYY-MM or YYYY-MM-DD (a real date, year 1800-2100)`,
    };
  }
  return isFutureBirthDate(date, new Date())
    ? { ok: false, message: `"${text}" is in the future` }
    : { ok: true, value: text.trim() };
}

function parseCountry(text: string): InputResult<string> {
  const code = subjectCountryOf(text);
  return code
    ? { ok: true, value: code }
    : { ok: false, message: `unknown country "${text}" (an ISO 3166-1 code such as DE or DEU, or a name)` };
}

function parseIdentifier(text: string): InputResult<string> {
  return subjectIdentifierOf(text)
    ? { ok: true, value: text.trim() }
    : { ok: false, message: `"${text}" is not scheme:value (passport:AB123456) or a bare number` };
}

function parseCheckTypes(text: string): InputResult<CheckType[]> {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  const unknown = parts.filter((part) => !isCheckType(part));
  if (parts.length === 0 || unknown.length > 0) {
    const what = unknown.length > 0 ? `unknown check type "${unknown.join('", "')}"` : 'no check type given';
    return { ok: false, message: `${what}; known: ${CHECK_TYPES.join(', ')} (comma-separated)` };
  }
  return { ok: true, value: [...new Set(parts as CheckType[])] };
}

function parseProfile(text: string): InputResult<ScreeningProfile> {
  const profile = findProfile(text.trim());
  return profile
    ? { ok: true, value: profile }
    : {
        ok: false,
        message: `unknown profile "${text}"; known: ${listProfiles()
          .map((p) => p.id)
          .join(', ')}`,
      };
}

function parseLimit(text: string): InputResult<number> {
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(value) && value >= 1 && value <= MAX_LIMIT
    ? { ok: true, value }
    : { ok: false, message: `must be a whole number from 1 to ${MAX_LIMIT}` };
}

/** `--profile <id>`: one of the known profiles. */
export const profileInput = z.string().transform(viaParser(parseProfile)).optional();
/** `--input <file>`, `--output <file>`. */
export const fileInput = z.string().trim().min(1, 'must name a file');

export const screenInput = z.object({
  name: z
    .string()
    .transform((value) => value.replace(/\s+/g, ' ').trim())
    .pipe(
      z
        .string()
        .min(1, 'must not be empty')
        .max(240, 'must be at most 240 characters')
        .refine((name) => name === '' || !unmatchableName(name), 'must contain a letter or a digit'),
    )
    .optional(),
  type: z.string().transform(viaParser(parseType)).optional(),
  birthDate: z.string().transform(viaParser(parseBirthDate)).optional(),
  country: z.array(z.string().transform(viaParser(parseCountry))).default([]),
  identifier: z.array(z.string().transform(viaParser(parseIdentifier))).default([]),
  checkTypes: z.string().transform(viaParser(parseCheckTypes)).optional(),
  profile: profileInput,
  snapshot: z
    .array(z.string().trim().regex(SNAPSHOT_ID, 'must be a snapshot id: snap_ and 32 hex digits'))
    .default([]),
  limit: z.string().transform(viaParser(parseLimit)).optional(),
  input: fileInput.optional(),
  output: fileInput.optional(),
  json: z.boolean().optional(),
});
export type ScreenInput = z.output<typeof screenInput>;
