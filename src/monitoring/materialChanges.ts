import type { ListedEntity, PartialDateRange } from '../screening/model/listedEntity.js';
import { normaliseIdentifierValue } from '../screening/scoring/identifiers.js';

/**
 * Which changes of a listed entity between two snapshots matter to a reviewer (issue 14, "changed
 * match"): its names and aliases, birth dates, nationalities, countries, programmes, topics,
 * identifiers and kind. Each is compared as a set of normalised values, so reordering, a changed
 * note, a source URL, listedOn/modifiedOn or sourceRecordRef never count. Pure.
 */

export const MATERIAL_FIELDS = [
  'names',
  'birth_dates',
  'nationalities',
  'countries',
  'programs',
  'topics',
  'identifiers',
  'kind',
] as const;
export type MaterialField = (typeof MATERIAL_FIELDS)[number];

export interface FieldChange {
  field: MaterialField;
  /** The field's values before and after: distinct, human-readable, sorted. */
  previous: string[];
  current: string[];
}

/** The material facts of a party: per field, its distinct values as first published, sorted by comparison key. */
export type MaterialFacts = Record<MaterialField, string[]>;

export function materialFactsOf(entity: ListedEntity): MaterialFacts {
  return Object.fromEntries(
    MATERIAL_FIELDS.map((field) => [
      field,
      [...keyed(publishedValues(entity, field), comparisonKey[field]).values()],
    ]),
  ) as MaterialFacts;
}

/** The material changes from `previous` to `current`, in MATERIAL_FIELDS order; [] when none. */
export function materialChanges(previous: ListedEntity, current: ListedEntity): FieldChange[] {
  return factChanges(materialFactsOf(previous), materialFactsOf(current));
}

/** The same comparison on facts kept from earlier (a monitoring observation holds them). */
export function factChanges(previous: MaterialFacts, current: MaterialFacts): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of MATERIAL_FIELDS) {
    const before = keyed(previous[field] ?? [], comparisonKey[field]);
    const after = keyed(current[field] ?? [], comparisonKey[field]);
    if (sameKeys(before, after)) continue;
    // A value kept under another spelling ("Acme" / "ACME") is one value: shown the same on both sides.
    for (const key of after.keys()) if (before.has(key)) after.set(key, before.get(key)!);
    changes.push({ field, previous: [...before.values()], current: [...after.values()] });
  }
  return changes;
}

function publishedValues(entity: ListedEntity, field: MaterialField): string[] {
  switch (field) {
    case 'names':
      return entity.names.map((name) => name.full);
    case 'birth_dates':
      return entity.birthDates.map(formatDate);
    case 'nationalities':
      return entity.nationalities;
    case 'countries':
      return entity.countries;
    case 'programs':
      return entity.programs;
    case 'topics':
      return entity.topics;
    case 'identifiers':
      return entity.identifiers.map((id) => `${id.scheme}:${collapse(id.value)}`);
    case 'kind':
      return [entity.kind];
  }
}

/** What makes two values of a field the same value. */
const comparisonKey: Readonly<Record<MaterialField, (text: string) => string>> = {
  names: (text) => nameKey(text),
  birth_dates: (text) => text,
  nationalities: (text) => upper(text),
  countries: (text) => upper(text),
  programs: (text) => collapse(text).toUpperCase(),
  topics: (text) => text.trim(),
  identifiers: (text) => {
    const colon = text.indexOf(':');
    const scheme = text.slice(0, colon);
    return `${scheme}:${normaliseIdentifierValue(text.slice(colon + 1), scheme)}`;
  },
  kind: (text) => text,
};

function keyed(values: readonly string[], keyOf: (value: string) => string): Map<string, string> {
  const byKey = new Map<string, string>();
  for (const value of values) {
    const shown = collapse(value);
    if (shown.length === 0) continue;
    const key = keyOf(shown);
    if (!byKey.has(key)) byKey.set(key, shown);
  }
  return new Map([...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function sameKeys(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const key of a.keys()) if (!b.has(key)) return false;
  return true;
}

const collapse = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim();
const upper = (text: string) => text.toUpperCase();
/** Names compare without case and punctuation: "AL-QAIDA" and "Al Qaida" are one name re-typed. */
const nameKey = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]+/gu, ' ')
    .trim();

/** `1965`, `1965-03-01`, a range `1960/1965`; "circa" as published. */
function formatDate(date: PartialDateRange): string {
  const range = date.to && date.to !== date.from ? `${date.from}/${date.to}` : date.from;
  return date.approximate ? `circa ${range}` : range;
}

const FIELD_LABELS: Readonly<Record<MaterialField, string>> = {
  names: 'names',
  birth_dates: 'birth dates',
  nationalities: 'nationalities',
  countries: 'countries',
  programs: 'programmes',
  topics: 'topics',
  identifiers: 'identifiers',
  kind: 'type',
};

/** Values listed in a summary before "and N more". */
const LISTED_VALUES = 3;

/**
 * One sentence for a reviewer: "ACME LTD: names added: ACME TRADING; programmes changed from
 * SDGT to SDGT, IRAN." A value set that only grew says what was added, one that only shrank what
 * was removed, otherwise from what to what. Deterministic: the same changes give the same text.
 */
export function changeSummary(
  changes: readonly FieldChange[],
  subject: { displayName: string; delisted?: boolean },
): string {
  const parts: string[] = [];
  if (subject.delisted) parts.push('removed from the list');
  for (const change of changes) parts.push(describeChange(change));
  if (parts.length === 0) parts.push('no material change');
  return `${subject.displayName}: ${parts.join('; ')}.`;
}

function describeChange({ field, previous, current }: FieldChange): string {
  const label = FIELD_LABELS[field];
  const added = current.filter((value) => !previous.includes(value));
  const removed = previous.filter((value) => !current.includes(value));
  if (field !== 'kind' && removed.length === 0 && added.length > 0) {
    return `${label} added: ${listed(added)}`;
  }
  if (field !== 'kind' && added.length === 0 && removed.length > 0) {
    return `${label} removed: ${listed(removed)}`;
  }
  return `${label} changed from ${listed(previous)} to ${listed(current)}`;
}

function listed(values: readonly string[]): string {
  if (values.length === 0) return 'none';
  if (values.length <= LISTED_VALUES) return values.join(', ');
  return `${values.slice(0, LISTED_VALUES).join(', ')} and ${values.length - LISTED_VALUES} more`;
}
