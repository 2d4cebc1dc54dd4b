import type { ListedEntity, NameKind, NameParts, ParseOptions, SourceFormat } from '../model/listedEntity.js';
import { SourceParseError } from '../model/listedEntity.js';
import { parseDateRanges, parsePartialDate } from './dates.js';
import { EntityDraft } from './entityDraft.js';
import { EntityIds } from './entityIds.js';
import { companyOrOrganization } from './legalEntityKind.js';
import { cleanText, joinGivenFamily, splitFamilyCommaGiven } from './names.js';
import { OFAC_SOURCE_URL, ofacIdentifier, ofacPrograms, ofacTypeKind, targetTypeKind } from './ofacFacts.js';
import { ProgressTracker } from './progress.js';
import { child, childText, listItems, readXmlRecords, type XmlElement } from './xmlStream.js';

/**
 * OFAC's `sdnList` XML: the consolidated (non-SDN) list, and sdn.xml in the same schema. One
 * `sdnEntry` per listed party with structured names, aliases (strong or weak), identifiers,
 * addresses, nationalities, birth dates and places, vessel details. Elements are matched by
 * local name, whatever namespace URI the file declares.
 *
 * `publshInformation` (OFAC's spelling) gives the publication date (reported through
 * `onPublishedAt`) and the record count, which is checked at the end: a count that differs from
 * the entries read means a truncated or altered file.
 */

export const ofacXmlFormat: SourceFormat = {
  name: 'ofac-xml',
  defaultDataset: 'us_ofac_cons',
  datedBy: 'publshInformation/Publish_Date',
  parse: (paths, options) => parseOfacXml(paths, options),
};

const RECORDS = new Set(['sdnEntry', 'publshInformation']);

async function* parseOfacXml(paths: string[], options: ParseOptions = {}): AsyncGenerator<ListedEntity> {
  const dataset = options.dataset ?? ofacXmlFormat.defaultDataset;
  const progress = await ProgressTracker.forFiles(paths, options);
  const ids = new EntityIds();
  for (const file of paths) {
    let declaredCount: { count: number; line: number } | undefined;
    let entries = 0;
    for await (const element of readXmlRecords(file, { root: 'sdnList', records: RECORDS, progress })) {
      if (element.name === 'publshInformation') {
        const published = parsePartialDate(childText(element, 'Publish_Date') ?? '', { numericOrder: 'mdy' });
        if (published?.length === 10) options.onPublishedAt?.(new Date(`${published}T00:00:00Z`));
        const count = childText(element, 'Record_Count');
        if (count && /^\d+$/.test(count)) declaredCount = { count: Number(count), line: element.line };
        continue;
      }
      const entity = buildEntity(file, dataset, element);
      ids.claim(file, entity, 'uid', element.line);
      entries++;
      progress.entity();
      yield entity;
    }
    if (declaredCount && declaredCount.count !== entries) {
      throw new SourceParseError(
        file,
        `Record_Count says ${declaredCount.count} entries, the file has ${entries}`,
        {
          line: declaredCount.line,
        },
      );
    }
  }
}

function buildEntity(file: string, dataset: string, entry: XmlElement): ListedEntity {
  const uid = childText(entry, 'uid');
  if (!uid) throw new SourceParseError(file, 'sdnEntry without uid', { line: entry.line });
  const typeKind = ofacTypeKind(childText(entry, 'sdnType'));
  const isPerson = typeKind === 'person';
  const draft = new EntityDraft({
    publisherId: uid,
    dataset,
    source: { name: 'OFAC Consolidated Sanctions List (non-SDN)', url: OFAC_SOURCE_URL },
    sourceRecordRef: `ofac:sdn:${uid}`,
    kind: typeKind ?? 'organization',
    topics: ['sanction'],
  });

  addStructuredName(draft, entry, 'primary', isPerson);
  if (!draft.primaryName) {
    throw new SourceParseError(file, 'sdnEntry without a name', {
      line: entry.line,
      record: `ofac:sdn:${uid}`,
    });
  }
  for (const aka of listItems(entry, 'akaList', 'aka')) {
    addStructuredName(draft, aka, akaKind(aka), isPerson);
  }

  let targetType: string | undefined;
  for (const id of listItems(entry, 'idList', 'id')) {
    const type = childText(id, 'idType') ?? '';
    const value = childText(id, 'idNumber') ?? '';
    if (type === 'Gender') draft.setGender(value);
    else if (type === 'Target Type') targetType = value;
    else if (type === 'Nationality of Registration' || type === 'Other Vessel Flag') draft.addCountry(value);
    const identifier = ofacIdentifier(type, value, childText(id, 'idCountry'));
    if (identifier) draft.addIdentifier(identifier);
    else if (type && value && type !== 'Gender') draft.addNote(`${type.replace(/[:\s-]+$/, '')}: ${value}`);
  }
  if (!typeKind) draft.kind = targetTypeKind(targetType) ?? companyOrOrganization(draft.nameTexts);

  for (const program of ofacPrograms(listItems(entry, 'programList', 'program').map((p) => p.text))) {
    draft.addProgram(program);
  }
  for (const item of listItems(entry, 'dateOfBirthList', 'dateOfBirthItem')) {
    draft.addBirthDates(parseDateRanges(childText(item, 'dateOfBirth') ?? ''));
  }
  for (const item of listItems(entry, 'placeOfBirthList', 'placeOfBirthItem')) {
    const place = childText(item, 'placeOfBirth');
    if (!place) continue;
    draft.addCountry(place.slice(place.lastIndexOf(',') + 1));
    draft.addNote(`Place of birth: ${place}`);
  }
  for (const item of listItems(entry, 'nationalityList', 'nationality')) {
    draft.addNationality(childText(item, 'country'));
  }
  for (const item of listItems(entry, 'citizenshipList', 'citizenship')) {
    draft.addNationality(childText(item, 'country'));
  }
  for (const address of listItems(entry, 'addressList', 'address')) {
    const country = childText(address, 'country');
    draft.addCountry(country);
    const parts = ['address1', 'address2', 'address3', 'city', 'stateOrProvince', 'postalCode', 'country']
      .map((name) => childText(address, name))
      .filter(Boolean);
    if (parts.length > 0) draft.addNote(`Address: ${parts.join(', ')}`);
  }
  const vessel = child(entry, 'vesselInfo');
  if (vessel) {
    draft.addCountry(childText(vessel, 'vesselFlag'));
    const facts = vessel.children
      .map((c) => (c.text.trim() ? `${c.name} ${c.text.trim()}` : ''))
      .filter(Boolean);
    if (facts.length > 0) draft.addNote(`Vessel: ${facts.join(', ')}`);
  }
  const title = childText(entry, 'title');
  if (title) draft.addNote(`Title: ${title}`);
  draft.addNote(childText(entry, 'remarks'));
  return draft.build();
}

/** firstName + lastName of an entry or aka, written "Given FAMILY"; a person's name keeps them as parts. */
function addStructuredName(draft: EntityDraft, element: XmlElement, kind: NameKind, isPerson: boolean): void {
  const given = childText(element, 'firstName');
  const family = childText(element, 'lastName');
  const full = joinGivenFamily(given, family);
  if (!full) return;
  draft.addName(full, kind, isPerson ? personParts(given, family) : undefined);
}

/** Given and family when both are there; a lone lastName may still be written "FAMILY, Given". */
function personParts(given: string | undefined, family: string | undefined): NameParts | undefined {
  if (given && family) return { given: cleanText(given), family: cleanText(family) };
  return splitFamilyCommaGiven(family ?? given ?? '');
}

/** Weak (OFAC's low-quality a.k.a.) first; otherwise f.k.a. is a previous name, a.k.a./n.k.a. an alias. */
function akaKind(aka: XmlElement): NameKind {
  if (childText(aka, 'category')?.toLowerCase() === 'weak') return 'weak';
  return childText(aka, 'type')?.toLowerCase() === 'f.k.a.' ? 'previous' : 'alias';
}
