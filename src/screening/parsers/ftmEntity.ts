import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type {
  EntityIdentifier,
  EntityKind,
  ListedEntity,
  NameParts,
  ParseOptions,
} from '../model/listedEntity.js';
import { SourceParseError } from '../model/listedEntity.js';
import { countryCode } from './countries.js';
import { latestDate, parsePartialDate } from './dates.js';
import { EntityDraft } from './entityDraft.js';
import { expandInputFiles } from './inputFiles.js';
import { cleanText } from './names.js';
import { ProgressTracker } from './progress.js';

/**
 * FollowTheMoney (FtM) entities, as OpenSanctions and other FtM tools export them: one JSON
 * object per line, `{id, schema, caption, properties: {name: [...], ...}, datasets, referents,
 * first_seen, last_seen, last_change, target}`, every property a list of strings. Shared by the
 * `ftm` format (entity files) and `ftm-delta` (change files whose lines wrap an entity in
 * `{op, entity}`).
 *
 * Only parties become listed entities (FTM_PARTY_KINDS). Sanction, Identification and Passport
 * entities are facts about a party they reference (`entity`, `holder`): a file is read twice, the
 * first time only for those (a cheap text test skips every other line without parsing it), to
 * attach their facts to the parties the second time. FtM exports are sorted by id, so a party's
 * sanctions come before or after it in no useful order; reading twice keeps memory to the facts
 * of those entities instead of the whole file. Other schemata (Address, Ownership, Family,
 * Directorship, ...) are skipped: relations are not screened.
 */

export interface FtmEntityJson {
  id: string;
  schema: string;
  caption?: string;
  properties: Record<string, string[]>;
  datasets?: string[];
  first_seen?: string;
  last_seen?: string;
  last_change?: string;
}

/** FtM schemata that are parties, by the entity kind they become. Every other schema is skipped. */
export const FTM_PARTY_KINDS: Readonly<Record<string, EntityKind>> = {
  Person: 'person',
  Company: 'company',
  Organization: 'organization',
  PublicBody: 'organization',
  LegalEntity: 'unknown',
  Vessel: 'vessel',
  Airplane: 'aircraft',
  Vehicle: 'vehicle',
};

const ADJUNCT_SCHEMATA = new Set(['Sanction', 'Identification', 'Passport']);
/** A line that may hold an adjunct entity; only those are parsed in the first pass. */
const ADJUNCT_LINE = /"schema"\s*:\s*"(?:Sanction|Identification|Passport)"/;

export const OPENSANCTIONS_SOURCE = { name: 'OpenSanctions', url: 'https://www.opensanctions.org/' };

/** Facts about a party from the Sanction, Identification and Passport entities that reference it. */
export interface PartyAdjuncts {
  listingDates: string[];
  programs: string[];
  identifiers: EntityIdentifier[];
  notes: string[];
}

export type AdjunctIndex = Map<string, PartyAdjuncts>;

export interface JsonLine {
  value: unknown;
  text: string;
  line: number;
}

/**
 * The JSON lines of `file`, blank lines skipped; `filter`, given the raw text, decides which
 * lines are parsed at all (the rest are not yielded). Bad JSON throws `SourceParseError` with the
 * line. Progress is reported as the file is read.
 */
export async function* readJsonLines(
  file: string,
  progress: ProgressTracker,
  filter?: (text: string) => boolean,
): AsyncGenerator<JsonLine> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  try {
    for await (const raw of lines) {
      line++;
      progress.read(file, stream.bytesRead);
      const text = line === 1 ? raw.replace(/^\ufeff/, '') : raw;
      if (text.trim() === '' || (filter && !filter(text))) continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new SourceParseError(file, `not a JSON line: ${(error as Error).message}`, { line });
      }
      yield { value, text, line };
    }
  } catch (error) {
    if (error instanceof SourceParseError) throw error;
    throw new SourceParseError(file, `cannot read: ${(error as Error).message}`);
  } finally {
    lines.close();
    stream.destroy();
  }
  progress.fileDone(file, stream.bytesRead);
}

/**
 * A progress tracker for reading `files` twice (the adjunct pass and the party pass): the total
 * is twice their size, so the report rises steadily to 100% over both passes.
 */
export async function twoPassProgress(files: string[], options: ParseOptions): Promise<ProgressTracker> {
  let total = 0;
  for (const file of files) total += (await stat(file)).size;
  return new ProgressTracker(options.onProgress, 2 * total);
}

/**
 * Input files: each path a file, or a directory whose files ending in `suffix` (or `suffix` +
 * "l": JSON lines files are named `.json` or `.jsonl`) are taken in name order. A path that
 * cannot be read is an error.
 */
export function expandPaths(paths: string[], suffix: string): Promise<string[]> {
  return expandInputFiles(
    paths,
    (name) => name.endsWith(suffix) || name.endsWith(`${suffix}l`),
    `*${suffix}`,
  );
}

/** The entity object of a line, checked: an object with a non-empty `id` and `schema` and list-valued properties. */
export function ftmEntityOf(value: unknown, file: string, line: number): FtmEntityJson {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new SourceParseError(file, 'not an FtM entity: a JSON object was expected', { line });
  }
  const raw = value as Record<string, unknown>;
  if (typeof raw.id !== 'string' || cleanText(raw.id) === '') {
    throw new SourceParseError(file, 'FtM entity without an id', { line });
  }
  if (typeof raw.schema !== 'string' || cleanText(raw.schema) === '') {
    throw new SourceParseError(file, 'FtM entity without a schema', { line, record: raw.id });
  }
  const properties = raw.properties ?? {};
  if (typeof properties !== 'object' || Array.isArray(properties)) {
    throw new SourceParseError(file, 'FtM properties must be an object', { line, record: raw.id });
  }
  for (const [name, values] of Object.entries(properties as Record<string, unknown>)) {
    if (!Array.isArray(values)) {
      throw new SourceParseError(file, `FtM property ${name} must be a list`, { line, record: raw.id });
    }
  }
  return raw as unknown as FtmEntityJson;
}

/** Texts of property `name`, cleaned, blanks and non-strings dropped. */
export function prop(entity: FtmEntityJson, name: string): string[] {
  const values = entity.properties[name];
  if (!values) return [];
  const texts: string[] = [];
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const clean = cleanText(value);
    if (clean) texts.push(clean);
  }
  return texts;
}

/**
 * First pass: the facts of every Sanction, Identification and Passport entity among `entities`,
 * by the id of the party they reference.
 */
export async function collectAdjuncts(entities: AsyncIterable<FtmEntityJson>): Promise<AdjunctIndex> {
  const index: AdjunctIndex = new Map();
  for await (const entity of entities) {
    if (!ADJUNCT_SCHEMATA.has(entity.schema)) continue;
    if (entity.schema === 'Sanction') addSanction(index, entity);
    else addIdentification(index, entity);
  }
  return index;
}

/** The text test of the first pass: lines that may hold an adjunct entity. */
export function mayBeAdjunct(text: string): boolean {
  return ADJUNCT_LINE.test(text);
}

function adjunctsOf(index: AdjunctIndex, partyId: string): PartyAdjuncts {
  let facts = index.get(partyId);
  if (!facts) {
    facts = { listingDates: [], programs: [], identifiers: [], notes: [] };
    index.set(partyId, facts);
  }
  return facts;
}

function addSanction(index: AdjunctIndex, sanction: FtmEntityJson): void {
  const listed = [...prop(sanction, 'listingDate'), ...prop(sanction, 'startDate')]
    .map((date) => parsePartialDate(date))
    .filter((date): date is string => date !== undefined)
    .sort()[0];
  const programIds = prop(sanction, 'programId');
  const programs = programIds.length > 0 ? programIds : prop(sanction, 'program');
  const ended = latestDate(prop(sanction, 'endDate').map((date) => parsePartialDate(date)));
  const note = [
    prop(sanction, 'authority')[0],
    prop(sanction, 'program')[0],
    listed && `listed ${listed}`,
    ended && `until ${ended}`,
  ].filter(Boolean);
  for (const partyId of prop(sanction, 'entity')) {
    const facts = adjunctsOf(index, partyId);
    if (listed) facts.listingDates.push(listed);
    facts.programs.push(...programs);
    if (note.length > 0) facts.notes.push(`Sanction: ${note.join(', ')}`);
  }
}

function addIdentification(index: AdjunctIndex, document: FtmEntityJson): void {
  const numbers = [...prop(document, 'number'), ...prop(document, 'passportNumber')];
  if (numbers.length === 0) return;
  const type = prop(document, 'type').join(' ');
  const scheme = document.schema === 'Passport' ? 'passport' : identificationScheme(type);
  const country = prop(document, 'country').map(ftmCountry).find(Boolean);
  for (const holder of prop(document, 'holder')) {
    const facts = adjunctsOf(index, holder);
    for (const value of numbers) {
      facts.identifiers.push(country ? { scheme, value, country } : { scheme, value });
    }
  }
}

function identificationScheme(type: string): string {
  if (/passport/i.test(type)) return 'passport';
  if (/\b(?:tax|inn|fiscal|vat)\b/i.test(type)) return 'tax_id';
  if (/national|identity|\bid\b|citizen/i.test(type)) return 'national_id';
  return 'other';
}

/**
 * An FtM country code (lower-case ISO 3166-1 alpha-2, plus FtM's own: `suhh` for the Soviet
 * Union, `zz` for global, `eu`, `ge-ab` ...) as an upper-case alpha-2, or `undefined` for every
 * code that is not a current country. Kosovo's `xk` is kept.
 */
export function ftmCountry(code: string): string | undefined {
  const clean = cleanText(code);
  return /^[a-z]{2}$/i.test(clean) ? countryCode(clean.toUpperCase()) : undefined;
}

/**
 * Identifier properties by scheme, the specific schemes before the generic ones (see
 * GENERIC_SCHEMES); `registrationNumber` of an Airplane is its tail number.
 */
const IDENTIFIER_PROPERTIES: readonly [string, string][] = [
  ['innCode', 'inn'],
  ['ogrnCode', 'ogrn'],
  ['leiCode', 'lei'],
  ['swiftBic', 'swift_bic'],
  ['imoNumber', 'imo'],
  ['mmsi', 'mmsi'],
  ['passportNumber', 'passport'],
  ['serialNumber', 'aircraft_serial'],
  ['taxNumber', 'tax_id'],
  ['vatCode', 'tax_id'],
  ['registrationNumber', 'registration'],
  ['idNumber', 'national_id'],
  ['socialSecurityNumber', 'national_id'],
];

const COUNTRY_PROPERTIES = ['country', 'jurisdiction', 'mainCountry', 'birthCountry', 'flag'];
const NATIONALITY_PROPERTIES = ['nationality', 'citizenship'];

export interface FtmMapping {
  dataset: string;
  adjuncts: AdjunctIndex;
  file: string;
  line: number;
}

/**
 * The listed entity for an FtM party, or `undefined` for a schema that is no party. Throws
 * `SourceParseError` for a party without any name.
 */
export function ftmToEntity(entity: FtmEntityJson, mapping: FtmMapping): ListedEntity | undefined {
  const kind = FTM_PARTY_KINDS[entity.schema];
  if (!kind) return undefined;
  const adjuncts = mapping.adjuncts.get(entity.id);
  const draft = new EntityDraft({
    publisherId: entity.id,
    dataset: mapping.dataset,
    source: OPENSANCTIONS_SOURCE,
    sourceRecordRef: entity.id,
    kind,
    topics: [...new Set(prop(entity, 'topics'))],
    priority: 3,
    datasets: Array.isArray(entity.datasets)
      ? entity.datasets.filter((name) => typeof name === 'string')
      : [],
  });

  addNames(draft, entity, kind);
  if (!draft.primaryName) {
    throw new SourceParseError(mapping.file, `${entity.schema} without a name`, {
      line: mapping.line,
      record: entity.id,
    });
  }

  draft.addBirthDates(
    prop(entity, 'birthDate')
      .map((date) => parsePartialDate(date))
      .filter((date): date is string => date !== undefined)
      .map((from) => ({ from })),
  );
  for (const name of COUNTRY_PROPERTIES)
    for (const code of prop(entity, name)) draft.addCountry(ftmCountry(code));
  for (const name of NATIONALITY_PROPERTIES) {
    for (const code of prop(entity, name)) draft.addNationality(ftmCountry(code));
  }
  addIdentifiers(draft, entity);
  for (const identifier of adjuncts?.identifiers ?? []) draft.addIdentifier(identifier);
  for (const gender of prop(entity, 'gender')) draft.setGender(gender);
  for (const program of [
    ...prop(entity, 'programId'),
    ...prop(entity, 'program'),
    ...(adjuncts?.programs ?? []),
  ]) {
    draft.addProgram(program);
  }

  const created = prop(entity, 'createdAt').map((date) => parsePartialDate(date));
  draft.listedOn =
    [...created, ...(adjuncts?.listingDates ?? [])]
      .filter((date): date is string => Boolean(date))
      .sort()[0] ?? datePart(entity.first_seen);
  draft.modifiedOn =
    latestDate(prop(entity, 'modifiedAt').map((date) => parsePartialDate(date))) ??
    datePart(entity.last_change);

  for (const position of prop(entity, 'position')) draft.addNote(`Position: ${position}`);
  for (const title of prop(entity, 'title')) draft.addNote(`Title: ${title}`);
  for (const place of prop(entity, 'birthPlace')) draft.addNote(`Place of birth: ${place}`);
  for (const address of prop(entity, 'address')) draft.addNote(`Address: ${address}`);
  for (const note of prop(entity, 'notes')) draft.addNote(note);
  for (const note of adjuncts?.notes ?? []) draft.addNote(note);
  return draft.build();
}

/** "2024-06-01T10:57:03" -> "2024-06-01". */
function datePart(timestamp: string | undefined): string | undefined {
  return typeof timestamp === 'string' ? parsePartialDate(timestamp.slice(0, 10)) : undefined;
}

/**
 * Names: the caption (FtM's display name, picked from the names) is the primary name; every
 * `name` an alias, `alias` too, `weakAlias` and `abbreviation` weak, `previousName` previous. A
 * party with no name property gets one from its name parts. Person names get the parts
 * (firstName, middleName, fatherName, lastName) that occur in them as whole words: FtM lists
 * parts in several scripts without saying which goes with which name.
 */
function addNames(draft: EntityDraft, entity: FtmEntityJson, kind: EntityKind): void {
  const names = prop(entity, 'name');
  const fromParts = cleanText(
    [prop(entity, 'firstName')[0], prop(entity, 'middleName')[0], prop(entity, 'lastName')[0]]
      .filter(Boolean)
      .join(' '),
  );
  const caption = cleanText(typeof entity.caption === 'string' ? entity.caption : '');
  const primary =
    caption && (names.includes(caption) || names.length === 0) ? caption : (names[0] ?? fromParts);
  const parts = kind === 'person' ? personParts(entity) : undefined;
  const add = (text: string, nameKind: Parameters<EntityDraft['addName']>[1]) =>
    draft.addName(text, nameKind, parts?.(text));
  add(primary, 'primary');
  for (const name of names) add(name, 'alias');
  if (names.length === 0 && fromParts) add(fromParts, 'alias');
  for (const name of prop(entity, 'alias')) add(name, 'alias');
  for (const name of prop(entity, 'previousName')) add(name, 'previous');
  for (const name of prop(entity, 'weakAlias')) add(name, 'weak');
  for (const name of prop(entity, 'abbreviation')) add(name, 'weak');
}

function personParts(entity: FtmEntityJson): (name: string) => NameParts | undefined {
  const byLength = (values: string[]) => [...values].sort((a, b) => b.length - a.length);
  const given = byLength(prop(entity, 'firstName'));
  const middle = byLength(prop(entity, 'middleName'));
  const father = byLength(prop(entity, 'fatherName'));
  const family = byLength(prop(entity, 'lastName'));
  return (name) => {
    const parts: NameParts = {};
    // The part as the name writes it ("OSETROVA" in "OSETROVA, Maria" for lastName "Osetrova").
    const found = (candidates: string[], taken: string[]) => {
      for (const part of candidates) {
        const at = wordsAt(name, part);
        if (at >= 0 && !taken.some((t) => wordsAt(t, part) >= 0)) return name.slice(at, at + part.length);
      }
      return undefined;
    };
    parts.given = found(given, []);
    parts.family = found(family, parts.given ? [parts.given] : []);
    if (!parts.given && !parts.family) return undefined;
    const taken = [parts.given, parts.family].filter((t): t is string => Boolean(t));
    parts.middle = found(middle, taken);
    if (parts.middle) taken.push(parts.middle);
    parts.patronymic = found(father, taken);
    return parts;
  };
}

/** Where `part` occurs in `text` as whole words, ignoring case; -1 when it does not. */
function wordsAt(text: string, part: string): number {
  const lower = text.toLowerCase();
  const needle = part.toLowerCase();
  const isLetter = (char: string | undefined) => char !== undefined && /[\p{L}\p{M}\p{N}]/u.test(char);
  for (let index = lower.indexOf(needle); index >= 0; index = lower.indexOf(needle, index + 1)) {
    if (!isLetter(text[index - 1]) && !isLetter(text[index + part.length])) return index;
  }
  return -1;
}

/** Schemes a number already listed under a specific scheme (`inn`, `ogrn`, ...) is not repeated under. */
const GENERIC_SCHEMES = new Set(['tax_id', 'registration', 'national_id']);

function addIdentifiers(draft: EntityDraft, entity: FtmEntityJson): void {
  // OpenSanctions repeats a Russian INN as taxNumber and idNumber, an OGRN as registrationNumber:
  // the specific schemes come first in IDENTIFIER_PROPERTIES, and a repeat under a generic one is dropped.
  const specific = new Set<string>();
  for (const [name, baseScheme] of IDENTIFIER_PROPERTIES) {
    for (const raw of prop(entity, name)) {
      if (GENERIC_SCHEMES.has(baseScheme) && specific.has(raw)) continue;
      if (!GENERIC_SCHEMES.has(baseScheme)) specific.add(raw);
      let scheme = baseScheme;
      if (name === 'registrationNumber' && entity.schema === 'Airplane') scheme = 'aircraft_tail';
      const value = scheme === 'imo' ? raw.replace(/^IMO\s*/i, '') : raw;
      draft.addIdentifier({ scheme, value });
    }
  }
}
