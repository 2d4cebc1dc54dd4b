import { createHash } from 'node:crypto';
import type {
  EntityIdentifier,
  EntityKind,
  ListedEntity,
  ParseOptions,
  SourceFormat,
} from '../model/listedEntity.js';
import { SourceParseError } from '../model/listedEntity.js';
import { countryCode } from './countries.js';
import { type CsvRow, readCsvTable, trackFiles } from './csvStream.js';
import { parseDateRanges, parsePartialDate } from './dates.js';
import { EntityDraft } from './entityDraft.js';
import { companyOrOrganization } from './legalEntityKind.js';
import { cleanText, splitFamilyCommaGiven } from './names.js';
import { ofacIdentifier, ofacTypeKind, targetTypeKind } from './ofacFacts.js';
import { guessPartyKind } from './partyKind.js';

/**
 * The US Consolidated Screening List (trade.gov): one CSV of the export screening lists of
 * Commerce (Entity List, Unverified List, Military End User, Denied Persons), State (ITAR
 * debarred, Nonproliferation) and Treasury (SDN and the non-SDN lists). Plain or gzipped (known
 * by the magic bytes). A header row; list-valued columns are `; `-separated.
 *
 * Each row is one listing on one list, and the same `_id` (an OFAC entry number) appears on
 * several Treasury lists (an SSI company that is also on the SDN and CAPTA lists): the entity id
 * is `<dataset>:<list>/<_id>`, one entity per row, each with its list's topic. A repeat of the
 * same list and `_id` that reads to the same entity is dropped (the file has one); one that reads
 * differently is an error.
 */

export const cslCsvFormat: SourceFormat = {
  name: 'csl-csv',
  defaultDataset: 'us_trade_csl',
  parse: (paths, options) => parseCsl(paths, options),
};

export const CSL_SOURCE_URL = 'https://www.trade.gov/consolidated-screening-list';

interface CslList {
  /** Lower-case list code in the entity id (`sdn`, `el`, `dtc`, ...). */
  code: string;
  topic: string;
  /** 1 for sanctions lists, 2 for the other official lists. */
  priority: number;
}

/**
 * The lists the CSL combines, by the abbreviation in parentheses in `source` ("Entity List (EL) -
 * Bureau of Industry and Security"). A list not named here is an error: screening it under a
 * guessed topic could put its parties in the wrong check type or in none.
 */
const CSL_LISTS: Readonly<Record<string, CslList>> = {
  SDN: { code: 'sdn', topic: 'sanction', priority: 1 },
  FSE: { code: 'fse', topic: 'sanction', priority: 1 },
  SSI: { code: 'ssi', topic: 'sanction', priority: 1 },
  'NS-MBS': { code: 'ns-mbs', topic: 'sanction', priority: 1 },
  CAP: { code: 'cap', topic: 'sanction', priority: 1 },
  CMIC: { code: 'cmic', topic: 'sanction', priority: 1 },
  PLC: { code: 'plc', topic: 'sanction', priority: 1 },
  ISN: { code: 'isn', topic: 'sanction', priority: 1 },
  EL: { code: 'el', topic: 'export.control', priority: 2 },
  UVL: { code: 'uvl', topic: 'export.control', priority: 2 },
  MEU: { code: 'meu', topic: 'export.control', priority: 2 },
  DPL: { code: 'dpl', topic: 'export.control', priority: 2 },
  DTC: { code: 'dtc', topic: 'debarment', priority: 2 },
};

const REQUIRED_COLUMNS = [
  '_id',
  'source',
  'type',
  'programs',
  'name',
  'addresses',
  'alt_names',
  'ids',
] as const;

/**
 * CSL identifier labels that OFAC's label table (ofacFacts.ts) does not know, by an OFAC label
 * of the same scheme.
 */
const CSL_EQUIVALENT_LABELS: Readonly<Record<string, string>> = {
  'Turkish Identification Number': 'National ID No.',
  "Citizen's Card Number": 'National ID No.',
  'National Foreign ID Number': 'National ID No.',
  'Tazkira National ID Card': 'National ID No.',
  'Bosnian Personal ID No.': 'National ID No.',
  'Moroccan Personal ID No.': 'National ID No.',
  'UAE Identification': 'National ID No.',
  'CNP (Personal Numerical Code)': 'National ID No.',
  'C.U.I.': 'National ID No.',
  'C.U.I.P.': 'National ID No.',
  'N.I.E.': 'National ID No.',
  'Travel Document Number': 'Passport',
  'British National Overseas Passport': 'Passport',
  'RIF #': 'Tax ID No.',
  'C.I.F.': 'Tax ID No.',
  RSIN: 'Tax ID No.',
  'Romanian Tax Registration': 'Tax ID No.',
  'Paraguayan tax identification number': 'Tax ID No.',
  'Government Gazette Number': 'Registration Number',
  'Romanian C.R.': 'Registration Number',
  'Branch Unit Number': 'Registration Number',
  'Central Registration System Number': 'Registration Number',
  'Istanbul Chamber of Comm. No.': 'Registration Number',
  'Dubai Chamber of Commerce Membership No.': 'Registration Number',
  'Business Number': 'Registration Number',
  'File Number': 'Registration Number',
  'LE Number': 'Registration Number',
};

/** `ids` labels that name a country the party is tied to rather than an identifier. */
const COUNTRY_LABELS = new Set(['Nationality of Registration', 'Registration Country', 'Other Vessel Flag']);

async function* parseCsl(paths: string[], options: ParseOptions = {}): AsyncGenerator<ListedEntity> {
  const dataset = options.dataset ?? cslCsvFormat.defaultDataset;
  const progress = await trackFiles(paths, options);
  /** A digest of each entity yielded, to tell a repeated row from a conflicting one. */
  const seen = new Map<string, string>();
  for (const file of paths) {
    for await (const row of readCsvTable(file, {
      progress,
      required: REQUIRED_COLUMNS,
      formatLabel: 'a US CSL CSV file',
    })) {
      const entity = buildEntity(file, dataset, row);
      const digest = createHash('sha256').update(JSON.stringify(entity)).digest('base64');
      const earlier = seen.get(entity.id);
      // CAPTA lists BANK OF KUNLUN twice, the rows differing only in source_list_url.
      if (earlier === digest) continue;
      if (earlier !== undefined) {
        throw new SourceParseError(file, 'the same list and _id twice, with different content', {
          line: row.line,
          record: entity.sourceRecordRef,
        });
      }
      seen.set(entity.id, digest);
      progress.entity();
      yield entity;
    }
  }
}

function buildEntity(file: string, dataset: string, row: CsvRow): ListedEntity {
  const v = row.values;
  const recordId = cleanText(v._id);
  if (!recordId) throw new SourceParseError(file, 'row without _id', { line: row.line });
  const sourceName = cleanText(v.source);
  const list = cslList(sourceName);
  if (!list) {
    throw new SourceParseError(
      file,
      `unknown source list "${sourceName}": add it to CSL_LISTS with its topic`,
      {
        line: row.line,
        record: recordId,
      },
    );
  }
  const ids = parseCslIds(v.ids ?? '');
  const typeKind = ofacTypeKind(v.type);
  const draft = new EntityDraft({
    publisherId: `${list.code}/${recordId}`,
    dataset,
    source: { name: sourceName, url: CSL_SOURCE_URL },
    sourceRecordRef: recordId,
    kind: typeKind ?? 'organization',
    topics: [list.topic],
    priority: list.priority,
  });

  const altNames = splitList(v.alt_names).map((name) => name.replace(/^and\s+/i, ''));
  // Without a type, the kind comes from the names; it decides whether "FAMILY, Given" is read.
  const kind: EntityKind =
    typeKind ??
    (cleanText(v.type).toLowerCase() === 'entity'
      ? (targetTypeKind(ids.targetType) ?? companyOrOrganization([v.name ?? '', ...altNames]))
      : guessPartyKind([cleanText(v.name), ...altNames]));
  draft.kind = kind;
  const parts = (name: string) => (kind === 'person' ? splitFamilyCommaGiven(name) : undefined);
  const name = cleanText(v.name);
  draft.addName(name, 'primary', parts(name));
  if (!draft.primaryName) {
    throw new SourceParseError(file, 'row without a name', { line: row.line, record: recordId });
  }
  for (const alias of altNames) draft.addName(alias, 'alias', parts(alias));

  for (const program of splitList(v.programs)) draft.addProgram(program);
  for (const date of splitList(v.dates_of_birth)) draft.addBirthDates(parseDateRanges(date));
  for (const country of [...splitList(v.nationalities), ...splitList(v.citizenships)]) {
    draft.addNationality(country);
  }
  for (const place of splitList(v.places_of_birth)) {
    draft.addCountry(lastCommaPart(place));
    draft.addNote(`Place of birth: ${place}`);
  }
  for (const identifier of ids.identifiers) draft.addIdentifier(identifier);
  for (const country of ids.countries) draft.addCountry(country);
  if (ids.gender) draft.setGender(ids.gender);
  draft.addCountry(v.vessel_flag);
  draft.listedOn = parsePartialDate(cleanText(v.start_date));

  if (v.title) draft.addNote(`Title: ${v.title}`);
  for (const address of splitList(v.addresses)) {
    draft.addCountry(lastCommaPart(address));
    draft.addNote(`Address: ${address}`);
  }
  const vessel = [
    v.call_sign && `call sign ${cleanText(v.call_sign)}`,
    v.vessel_type && `type ${cleanText(v.vessel_type)}`,
    v.gross_tonnage && `tonnage ${cleanText(v.gross_tonnage)}`,
    v.gross_registered_tonnage && `GRT ${cleanText(v.gross_registered_tonnage)}`,
    v.vessel_flag && `flag ${cleanText(v.vessel_flag)}`,
    v.vessel_owner && `owner ${cleanText(v.vessel_owner)}`,
  ].filter(Boolean);
  if (vessel.length > 0) draft.addNote(`Vessel: ${vessel.join(', ')}`);
  const endDate = cleanText(v.end_date);
  if (endDate) draft.addNote(`Listed until ${endDate}`);
  if (cleanText(v.federal_register_notice)) draft.addNote(`Federal Register: ${v.federal_register_notice}`);
  if (cleanText(v.license_requirement)) draft.addNote(`License requirement: ${v.license_requirement}`);
  if (cleanText(v.license_policy)) draft.addNote(`License policy: ${v.license_policy}`);
  const standardOrder = cleanText(v.standard_order).toUpperCase();
  if (standardOrder === 'Y') draft.addNote('Standard denial order');
  if (standardOrder === 'N') draft.addNote('Non-standard denial order');
  for (const note of ids.notes) draft.addNote(note);
  if (v.remarks) draft.addNote(v.remarks);
  return draft.build();
}

/** The list a `source` value names, by the abbreviation in its parentheses. */
function cslList(source: string): CslList | undefined {
  const abbreviation = /\(([^)]+)\)/.exec(source)?.[1];
  if (!abbreviation) return undefined;
  return CSL_LISTS[cleanText(abbreviation.replace(/\s+List$/i, '')).toUpperCase()];
}

function splitList(text: string | undefined): string[] {
  return (text ?? '')
    .split(/;\s*/)
    .map((part) => cleanText(part))
    .filter(Boolean);
}

function lastCommaPart(text: string): string {
  return cleanText(text.slice(text.lastIndexOf(',') + 1));
}

export interface CslIdFacts {
  identifiers: EntityIdentifier[];
  /** Country names or codes the record ties the party to (registration, other flags). */
  countries: string[];
  gender?: string;
  /** OFAC's "Target Type" (Private Company, Government Entity, ...). */
  targetType?: string;
  /** Everything else (websites, e-mail, directives, dates), as "Label: value". */
  notes: string[];
}

/**
 * The `ids` column: `; `-separated parts written "[CC, ][issue date, ]value, Label"
 * ("RU, 1027700256297, Registration ID", "MD, 2004-07-02, 04900377, Driver's License No.",
 * "Male, Gender", "VTBLAOLU, SWIFT/BIC"). Labels are OFAC's (the Treasury lists are OFAC data):
 * those of an identifier become identifiers through OFAC's label table, the rest notes.
 */
export function parseCslIds(text: string): CslIdFacts {
  const facts: CslIdFacts = { identifiers: [], countries: [], notes: [] };
  for (const part of splitList(text)) {
    const pieces = part.split(/,\s+/).map((piece) => cleanText(piece));
    const label = cleanText(pieces.pop()?.replace(/\s*[:-]+$/, ''));
    if (pieces.length === 0) {
      facts.notes.push(part);
      continue;
    }
    if (label === 'Gender') {
      facts.gender = pieces[0];
      continue;
    }
    if (label === 'Target Type') {
      facts.targetType = pieces.join(', ');
      continue;
    }
    if (COUNTRY_LABELS.has(label)) {
      facts.countries.push(pieces.join(', '));
      continue;
    }
    let country: string | undefined;
    if (pieces.length >= 2 && /^[A-Z]{2}$/.test(pieces[0]!) && countryCode(pieces[0]))
      country = pieces.shift();
    // An issue date between country and value ("MD, 2004-07-02, 04900377, Driver's License No.").
    if (pieces.length >= 2 && /^\d{4}-\d{2}-\d{2}$/.test(pieces[0]!)) pieces.shift();
    const value = pieces.join(', ');
    const identifier = ofacIdentifier(CSL_EQUIVALENT_LABELS[label] ?? label, value, country);
    if (identifier) facts.identifiers.push(identifier);
    else facts.notes.push(`${label}: ${country ? `${country}, ` : ''}${value}`);
  }
  return facts;
}
