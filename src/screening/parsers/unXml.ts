import type {
  EntityIdentifier,
  ListedEntity,
  NameKind,
  ParseOptions,
  PartialDateRange,
  SourceFormat,
} from '../model/listedEntity.js';
import { SourceParseError } from '../model/listedEntity.js';
import { countryCode } from './countries.js';
import { latestDate, parseDateRanges, parsePartialDate } from './dates.js';
import { EntityDraft } from './entityDraft.js';
import { EntityIds } from './entityIds.js';
import { companyOrOrganization } from './legalEntityKind.js';
import { cleanText, detectScript } from './names.js';
import { ProgressTracker } from './progress.js';
import { childrenNamed, childText, listTexts, readXmlRecords, type XmlElement } from './xmlStream.js';

/**
 * The UN Security Council consolidated list (XSD: data/schemas/un_sc-sanctions.xsd):
 * INDIVIDUALS and ENTITIES under CONSOLIDATED_LIST, whose `dateGenerated` is reported through
 * `onPublishedAt`.
 *
 * FIRST_NAME .. FOURTH_NAME are positions, not meanings: DPRK entries put the family name first
 * ("KIM" / "JONG UN"), Arabic ones a chain of given and father's names. The primary name is
 * the four joined in order and no name parts are claimed. NAME_ORIGINAL_SCRIPT is an alias with
 * its script. Alias quality "Low" is a weak alias, "f.k.a." a previous name, anything else
 * ("Good", "a.k.a.") a strong alias; one ALIAS_NAME sometimes lists several names separated by
 * ";" or "a) b)" markers, and is split.
 */

export const unXmlFormat: SourceFormat = {
  name: 'un-xml',
  defaultDataset: 'un_sc_sanctions',
  datedBy: 'the dateGenerated attribute of CONSOLIDATED_LIST',
  parse: (paths, options) => parseUnXml(paths, options),
};

const UN_SOURCE = {
  name: 'UN Security Council Consolidated List',
  url: 'https://main.un.org/securitycouncil/en/content/un-sc-consolidated-list',
};
const RECORDS = new Set(['INDIVIDUAL', 'ENTITY']);

async function* parseUnXml(paths: string[], options: ParseOptions = {}): AsyncGenerator<ListedEntity> {
  const dataset = options.dataset ?? unXmlFormat.defaultDataset;
  const progress = await ProgressTracker.forFiles(paths, options);
  const ids = new EntityIds();
  for (const file of paths) {
    const onRoot = (root: XmlElement) => {
      const generated = root.attributes.dateGenerated;
      const date = generated ? new Date(generated) : undefined;
      if (date && !Number.isNaN(date.getTime())) options.onPublishedAt?.(date);
    };
    for await (const record of readXmlRecords(file, {
      root: 'CONSOLIDATED_LIST',
      records: RECORDS,
      onRoot,
      progress,
    })) {
      // A delisted record (DELISTED_ON) is no longer a listed party.
      if (childText(record, 'DELISTED_ON')) continue;
      const entity = buildEntity(file, dataset, record);
      ids.claim(file, entity, 'DATAID', record.line);
      progress.entity();
      yield entity;
    }
  }
}

function buildEntity(file: string, dataset: string, record: XmlElement): ListedEntity {
  const dataId = childText(record, 'DATAID');
  const reference = childText(record, 'REFERENCE_NUMBER');
  if (!dataId)
    throw new SourceParseError(file, `${record.name} without DATAID`, {
      line: record.line,
      record: reference,
    });
  const isPerson = record.name === 'INDIVIDUAL';
  const draft = new EntityDraft({
    publisherId: dataId,
    dataset,
    source: UN_SOURCE,
    sourceRecordRef: reference ?? dataId,
    kind: isPerson ? 'person' : 'organization',
    topics: ['sanction'],
  });

  const nameFields = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME'].map((field) =>
    childText(record, field),
  );
  draft.addName(nameFields.filter((part) => part && part.toLowerCase() !== 'na').join(' '), 'primary');
  if (!draft.primaryName) {
    throw new SourceParseError(file, `${record.name} without a name`, {
      line: record.line,
      record: reference ?? dataId,
    });
  }
  const originalName = childText(record, 'NAME_ORIGINAL_SCRIPT');
  if (originalName) draft.addName(originalName, 'alias', undefined, detectScript(originalName));
  for (const alias of childrenNamed(record, isPerson ? 'INDIVIDUAL_ALIAS' : 'ENTITY_ALIAS')) {
    const kind = aliasKind(childText(alias, 'QUALITY'));
    for (const name of splitUnAliases(childText(alias, 'ALIAS_NAME') ?? '')) draft.addName(name, kind);
    // The alias in its original script, given in the alias's note ("original script: Абу Банат").
    const original = ORIGINAL_SCRIPT_NOTE.exec(childText(alias, 'NOTE') ?? '')?.[1];
    if (original) draft.addName(original, kind, undefined, detectScript(original));
    draft.addBirthDates(parseDateRanges(childText(alias, 'DATE_OF_BIRTH') ?? ''));
    draft.addCountry(childText(alias, 'COUNTRY_OF_BIRTH'));
  }
  if (!isPerson) draft.kind = companyOrOrganization(draft.nameTexts);

  draft.addProgram(childText(record, 'UN_LIST_TYPE'));
  draft.listedOn = parsePartialDate(childText(record, 'LISTED_ON') ?? '');
  draft.modifiedOn = latestDate(
    listTexts(record, 'LAST_DAY_UPDATED', 'VALUE').map((v) => parsePartialDate(v)),
  );
  draft.setGender(childText(record, 'GENDER'));

  for (const nationality of listTexts(record, 'NATIONALITY', 'VALUE')) {
    if (!draft.addNationality(nationality) && nationality.toLowerCase() !== 'na') {
      draft.addNote(`Nationality: ${nationality}`);
    }
  }
  for (const dob of childrenNamed(record, 'INDIVIDUAL_DATE_OF_BIRTH')) draft.addBirthDates(unBirthDates(dob));
  for (const place of childrenNamed(record, 'INDIVIDUAL_PLACE_OF_BIRTH')) {
    draft.addCountry(childText(place, 'COUNTRY'));
    const text = joinFields(place, ['STREET', 'CITY', 'STATE_PROVINCE', 'COUNTRY', 'NOTE']);
    if (text) draft.addNote(`Place of birth: ${text}`);
  }
  for (const address of childrenNamed(record, isPerson ? 'INDIVIDUAL_ADDRESS' : 'ENTITY_ADDRESS')) {
    draft.addCountry(childText(address, 'COUNTRY'));
    const text = joinFields(address, ['STREET', 'CITY', 'STATE_PROVINCE', 'ZIP_CODE', 'COUNTRY', 'NOTE']);
    if (text) draft.addNote(`Address: ${text}`);
  }
  for (const document of childrenNamed(record, 'INDIVIDUAL_DOCUMENT')) {
    const identifier = unDocument(document);
    if (identifier) draft.addIdentifier(identifier);
  }
  for (const title of listTexts(record, 'TITLE', 'VALUE')) draft.addNote(`Title: ${title}`);
  for (const designation of listTexts(record, 'DESIGNATION', 'VALUE')) {
    draft.addNote(`Designation: ${designation}`);
  }
  const submittedBy = childText(record, 'SUBMITTED_BY');
  if (submittedBy) draft.addNote(`Submitted by: ${submittedBy}`);
  draft.addNote(childText(record, 'COMMENTS1'));
  return draft.build();
}

function aliasKind(quality: string | undefined): NameKind {
  switch (cleanText(quality).toLowerCase()) {
    case 'low':
      return 'weak';
    case 'f.k.a.':
      return 'previous';
    default:
      return 'alias';
  }
}

/** An alias's note (or its name's bracket) giving the alias in its original script. */
const ORIGINAL_SCRIPT_NOTE = /^\s*original script:\s*(.*\S)\s*$/i;

/**
 * The names in one ALIAS_NAME: split on ";" and on "b) c) ..." enumeration markers, with a
 * trailing ", born ..." remark cut off and a name in another script written in parentheses
 * ("Jin Tiesan (金铁三)", "Abu Muhammad (original script: Абу Мухаммад)") made a name of its own.
 */
export function splitUnAliases(text: string): string[] {
  const names: string[] = [];
  for (const piece of text.split(/;|\s[a-z]\)\s/)) {
    const name = cleanText(piece.replace(/^[a-z]\)\s*/, '').replace(/,\s*born\b.*$/i, ''));
    if (!name) continue;
    const bracketed = /^(.*\S)\s*\(([^()]+)\)$/.exec(name);
    const inOriginal = bracketed && ORIGINAL_SCRIPT_NOTE.exec(bracketed[2]!)?.[1];
    if (bracketed && inOriginal) {
      names.push(cleanText(bracketed[1]), cleanText(inOriginal));
    } else if (bracketed && detectScript(bracketed[2]!) !== detectScript(bracketed[1]!)) {
      names.push(cleanText(bracketed[1]), cleanText(bracketed[2]));
    } else {
      names.push(name);
    }
  }
  return names;
}

/**
 * One INDIVIDUAL_DATE_OF_BIRTH: EXACT or APPROXIMATELY a DATE or YEAR, BETWEEN FROM_YEAR and
 * TO_YEAR, or only a NOTE ("Nov. 1958", "Between Aug. and Sep. 1958"). A NOTE in the Hijri
 * calendar is skipped; a note that is no date but names one year ("40-45 years old" does not)
 * gives that year, approximate.
 */
export function unBirthDates(element: XmlElement): PartialDateRange[] {
  const type = childText(element, 'TYPE_OF_DATE')?.toUpperCase();
  const note = childText(element, 'NOTE') ?? '';
  const approximate = type === 'APPROXIMATELY' || /approx/i.test(note);
  const mark = (range: PartialDateRange): PartialDateRange =>
    approximate ? { ...range, approximate } : range;
  const exact =
    parsePartialDate(childText(element, 'DATE') ?? '') ?? parsePartialDate(childText(element, 'YEAR') ?? '');
  if (exact) return [mark({ from: exact })];
  const from = parsePartialDate(childText(element, 'FROM_YEAR') ?? '');
  const to = parsePartialDate(childText(element, 'TO_YEAR') ?? '');
  if (from && to) return [mark(from <= to ? { from, to } : { from: to, to: from })];
  if (from || to) return [mark({ from: (from ?? to)! })];
  if (!note || /hijri/i.test(note)) return [];
  const fromNote = parseDateRanges(note);
  if (fromNote.length > 0) return fromNote.map(mark);
  const years = note.match(/\b(1[89]\d\d|20\d\d)\b/g);
  return years?.length === 1 ? [{ from: years[0]!, approximate: true }] : [];
}

const PASSPORT = /passport|pasaporte|passeport/i;
const NATIONAL_ID = /national|identi|civil|social security|personal/i;
const TAX_ID = /fiscal|tax/i;

/** A passport or national identity document; other documents (ration cards, licences) are `other`. */
export function unDocument(element: XmlElement): EntityIdentifier | undefined {
  const rawNumber = childText(element, 'NUMBER');
  if (!rawNumber) return undefined;
  const value = cleanText(
    rawNumber.replace(
      /^(?:national identification number|passport(?: number| no\.?)?|number|no\.?)\s*:?\s*/i,
      '',
    ),
  );
  if (!value) return undefined;
  // TYPE_OF_DOCUMENT2 refines the first type where given ("Passport" / "Service passport").
  const type = cleanText(childText(element, 'TYPE_OF_DOCUMENT2') ?? childText(element, 'TYPE_OF_DOCUMENT'));
  const scheme = PASSPORT.test(type)
    ? 'passport'
    : TAX_ID.test(type)
      ? 'tax_id'
      : NATIONAL_ID.test(type)
        ? 'national_id'
        : 'other';
  const country = countryCode(
    childText(element, 'ISSUING_COUNTRY') ?? childText(element, 'COUNTRY_OF_ISSUE'),
  );
  return country ? { scheme, value, country } : { scheme, value };
}

function joinFields(element: XmlElement, fields: string[]): string {
  return fields
    .map((field) => childText(element, field))
    .filter(Boolean)
    .join(', ');
}
