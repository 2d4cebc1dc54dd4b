import type {
  EntityIdentifier,
  EntityKind,
  EntityName,
  EntitySource,
  ListedEntity,
  NameKind,
  NameParts,
  PartialDateRange,
} from '../model/listedEntity.js';
import { countryCode } from './countries.js';
import { cleanText, detectScript } from './names.js';

/** Which kind a name keeps when the same text is listed twice ("primary" beats "alias" ...). */
const NAME_STRENGTH: Record<NameKind, number> = { primary: 3, alias: 2, previous: 1, weak: 0 };

export interface DraftBasics {
  /** Publisher's id of the record; the entity id is `<dataset>:<publisherId>`. */
  publisherId: string;
  dataset: string;
  source: Omit<EntitySource, 'dataset' | 'priority'>;
  sourceRecordRef: string;
  kind: EntityKind;
  topics: string[];
  /** The source's priority (`EntitySource.priority`): 1, the default, for an official sanctions list. */
  priority?: number;
  /** Datasets besides `dataset` the record belongs to (an aggregator's own dataset names), kept after it. */
  datasets?: readonly string[];
}

/**
 * One entity being assembled from a record. It keeps the invariants every format needs:
 * names cleaned and de-duplicated, exactly one primary name (a second one becomes an alias),
 * countries as upper-case ISO codes without repeats, nationalities and identifier-issuing
 * countries also among the countries, identifiers and birth dates without repeats.
 */
export class EntityDraft {
  kind: EntityKind;
  listedOn?: string;
  modifiedOn?: string;
  gender?: string;
  private readonly names: EntityName[] = [];
  private readonly countries = new Set<string>();
  private readonly nationalities = new Set<string>();
  private readonly identifiers = new Map<string, EntityIdentifier>();
  private readonly birthDates = new Map<string, PartialDateRange>();
  private readonly programs = new Set<string>();
  private readonly notes: string[] = [];

  constructor(private readonly basics: DraftBasics) {
    this.kind = basics.kind;
  }

  get id(): string {
    return `${this.basics.dataset}:${this.basics.publisherId}`;
  }

  get primaryName(): string | undefined {
    return this.names.find((n) => n.kind === 'primary')?.full;
  }

  /** Every name text so far (primary first), for heuristics on the names. */
  get nameTexts(): string[] {
    return this.names.map((n) => n.full);
  }

  /** Adds a name unless blank; the same text twice keeps the stronger kind. `script` is detected when not given. */
  addName(text: string | undefined | null, kind: NameKind, parts?: NameParts, script?: string): void {
    const full = cleanText(text);
    if (!full) return;
    const effectiveKind: NameKind = kind === 'primary' && this.primaryName !== undefined ? 'alias' : kind;
    const existing = this.names.find((n) => n.full === full);
    if (existing) {
      if (existing.kind !== 'primary' && NAME_STRENGTH[effectiveKind] > NAME_STRENGTH[existing.kind]) {
        existing.kind = effectiveKind;
      }
      if (!existing.parts && parts) existing.parts = parts;
      return;
    }
    const name: EntityName = { full, kind: effectiveKind };
    const cleanParts = parts && cleanNameParts(parts);
    if (cleanParts) name.parts = cleanParts;
    const detected = script ?? detectScript(full);
    if (detected) name.script = detected;
    if (effectiveKind === 'primary') this.names.unshift(name);
    else this.names.push(name);
  }

  /** A country by name or code; names that resolve to no country are ignored. */
  addCountry(text: string | undefined | null): string | undefined {
    const code = countryCode(text);
    if (code) this.countries.add(code);
    return code;
  }

  /** A nationality or citizenship by name or code; it is one of the entity's countries too. */
  addNationality(text: string | undefined | null): string | undefined {
    const code = this.addCountry(text);
    if (code) this.nationalities.add(code);
    return code;
  }

  /**
   * An identifier; the country that issued it is one of the entity's countries too. The same
   * scheme and value once with and once without a country is one identifier, with the country.
   */
  addIdentifier(identifier: EntityIdentifier): void {
    const value = cleanText(identifier.value);
    if (!value) return;
    if (identifier.country) this.countries.add(identifier.country);
    const key = `${identifier.scheme}|${value}|${identifier.country ?? ''}`;
    if (this.identifiers.has(key)) return;
    const countryless = `${identifier.scheme}|${value}|`;
    if (identifier.country) {
      // Takes the place of the same identifier without a country, keeping its position.
      const existing = this.identifiers.get(countryless);
      if (existing) {
        existing.country = identifier.country;
        const entries = [...this.identifiers].map(([k, v]): [string, EntityIdentifier] => [
          k === countryless ? key : k,
          v,
        ]);
        this.identifiers.clear();
        for (const [k, v] of entries) this.identifiers.set(k, v);
        return;
      }
    } else {
      for (const other of this.identifiers.keys()) if (other.startsWith(countryless)) return;
    }
    this.identifiers.set(
      key,
      identifier.country ? { ...identifier, value } : { scheme: identifier.scheme, value },
    );
  }

  addBirthDates(ranges: Iterable<PartialDateRange>): void {
    for (const range of ranges) {
      const key = `${range.from}|${range.to ?? ''}|${range.approximate ? '~' : ''}`;
      if (!this.birthDates.has(key)) this.birthDates.set(key, range);
    }
  }

  addProgram(program: string | undefined | null): void {
    const clean = cleanText(program);
    if (clean) this.programs.add(clean);
  }

  addNote(note: string | undefined | null): void {
    const clean = cleanText(note);
    if (clean && !this.notes.includes(clean)) this.notes.push(clean);
  }

  /** `male`, `female` or `other` from the publisher's wording; unknown wording is ignored. */
  setGender(text: string | undefined | null): void {
    const value = cleanText(text).toLowerCase();
    if (value === 'male' || value === 'm') this.gender = 'male';
    else if (value === 'female' || value === 'f') this.gender = 'female';
    else if (value === 'other' || value === 'non-binary' || value === 'x') this.gender = 'other';
  }

  build(): ListedEntity {
    const { dataset, source, sourceRecordRef, topics, priority = 1 } = this.basics;
    const entity: ListedEntity = {
      id: this.id,
      kind: this.kind,
      names: this.names,
      birthDates: [...this.birthDates.values()],
      countries: [...this.countries],
      nationalities: [...this.nationalities],
      identifiers: [...this.identifiers.values()],
      topics,
      datasets: [...new Set([dataset, ...(this.basics.datasets ?? [])])],
      sources: [{ ...source, dataset, priority }],
      programs: [...this.programs],
      sourceRecordRef,
    };
    if (this.listedOn) entity.listedOn = this.listedOn;
    if (this.modifiedOn) entity.modifiedOn = this.modifiedOn;
    if (this.gender) entity.gender = this.gender;
    if (this.notes.length > 0) entity.notes = this.notes;
    return entity;
  }
}

function cleanNameParts(parts: NameParts): NameParts | undefined {
  const clean: NameParts = {};
  for (const key of ['given', 'middle', 'family', 'patronymic', 'title'] as const) {
    const value = cleanText(parts[key]);
    if (value) clean[key] = value;
  }
  return Object.keys(clean).length > 0 ? clean : undefined;
}
