import type { ListedEntity, NameKind, ParseOptions, SourceFormat } from '../model/listedEntity.js';
import { SourceParseError } from '../model/listedEntity.js';
import { parseDateRanges, parsePartialDate } from './dates.js';
import { EntityDraft } from './entityDraft.js';
import { EntityIds } from './entityIds.js';
import { companyOrOrganization, isOnlyLegalForm } from './legalEntityKind.js';
import { cleanText, joinGivenFamily } from './names.js';
import { ProgressTracker } from './progress.js';
import { childText, readXmlRecords, type XmlElement } from './xmlStream.js';

/**
 * Canada's consolidated Special Economic Measures Act list: a flat `<data-set>` of `<record>`s
 * with Country (the sanctions regime, "Russia / Russie", also non-country regimes such as
 * JVCFOR), LastName + GivenName (persons) or EntityOrShip (entities and ships), TitleOrShip,
 * ShipIMONumber, DateOfBirthOrShipBuildDate, free-text Aliases, Schedule, Item, DateOfListing.
 *
 * The list has no record id. A record is identified by its regime, schedule and item number,
 * which together are unique and are how the regulations themselves cite an entry; the entity id
 * is `<dataset>:<regime>/<schedule>/<item>` in slug form ("russia/1-part-1/123").
 *
 * The regime's country, when it is a country, is one of the entity's countries (as OpenSanctions
 * does for this list): persons listed under "Russia" are overwhelmingly tied to Russia.
 */

export const caSemaXmlFormat: SourceFormat = {
  name: 'ca-sema-xml',
  defaultDataset: 'ca_dfatd_sema_sanctions',
  parse: (paths, options) => parseCaSema(paths, options),
};

const CA_SOURCE = {
  name: 'Canada Consolidated Autonomous Sanctions List (SEMA)',
  url: 'https://www.international.gc.ca/world-monde/international_relations-relations_internationales/sanctions/consolidated-consolide.aspx',
};
const RECORDS = new Set(['record']);

async function* parseCaSema(paths: string[], options: ParseOptions = {}): AsyncGenerator<ListedEntity> {
  const dataset = options.dataset ?? caSemaXmlFormat.defaultDataset;
  const progress = await ProgressTracker.forFiles(paths, options);
  const ids = new EntityIds();
  for (const file of paths) {
    for await (const record of readXmlRecords(file, { root: 'data-set', records: RECORDS, progress })) {
      const entity = buildEntity(file, dataset, record);
      ids.claim(file, entity, 'regime, schedule and item', record.line);
      progress.entity();
      yield entity;
    }
  }
}

function buildEntity(file: string, dataset: string, record: XmlElement): ListedEntity {
  const regimeLabel = childText(record, 'Country');
  const item = childText(record, 'Item');
  if (!regimeLabel || !item) {
    throw new SourceParseError(file, 'record without Country (regime) or Item', { line: record.line });
  }
  const regime = cleanText(regimeLabel.split(' / ')[0]);
  const schedule = childText(record, 'Schedule');
  // "Russia, Schedule 1, Part 1, Item 8"; schedules written "Part 2" need no "Schedule" word.
  const scheduleRef =
    schedule && (/^\d/.test(schedule) ? `Schedule ${cleanText(schedule)}` : cleanText(schedule));
  const reference = [regime, scheduleRef, `Item ${item}`].filter(Boolean).join(', ');
  const given = childText(record, 'GivenName');
  const family = childText(record, 'LastName');
  const entityName = childText(record, 'EntityOrShip');
  const imo = childText(record, 'ShipIMONumber');
  const isPerson = Boolean(given || family);
  const draft = new EntityDraft({
    publisherId: [slug(regime), slug(schedule ?? '') || '-', slug(item)].join('/'),
    dataset,
    source: CA_SOURCE,
    sourceRecordRef: reference,
    kind: isPerson ? 'person' : imo ? 'vessel' : 'organization',
    topics: ['sanction'],
  });

  if (isPerson) addPersonNames(draft, given, family);
  else if (entityName) addEntityNames(draft, entityName);
  if (!draft.primaryName)
    throw new SourceParseError(file, 'record without a name', { line: record.line, record: reference });
  for (const { name, kind } of splitCanadaAliases(childText(record, 'Aliases') ?? '', isPerson))
    draft.addName(name, kind);
  if (!isPerson && !imo) draft.kind = companyOrOrganization(draft.nameTexts);

  draft.addProgram(regime);
  draft.addCountry(regimeLabel);
  draft.listedOn = parsePartialDate(childText(record, 'DateOfListing') ?? '');
  const title = childText(record, 'TitleOrShip');
  const date = childText(record, 'DateOfBirthOrShipBuildDate');
  if (imo) {
    draft.addIdentifier({ scheme: 'imo', value: imo.replace(/^IMO\s*/i, '') });
    if (title) draft.addNote(`Vessel type: ${title}`);
    if (date) draft.addNote(`Build date: ${date}`);
  } else {
    if (title) draft.addNote(`Title: ${title}`);
    if (date) {
      const ranges = parseDateRanges(date);
      if (ranges.length > 0) draft.addBirthDates(ranges);
      else draft.addNote(`Date of birth: ${date}`);
    }
  }
  return draft.build();
}

/**
 * "Given Family", with parts. A name part may carry another spelling in parentheses
 * ("DIKIY (DIKY)"): the main spelling makes the primary name, the other an alias.
 */
function addPersonNames(draft: EntityDraft, given: string | undefined, family: string | undefined): void {
  const [givenMain, givenOther] = bracketedSpelling(given);
  const [familyMain, familyOther] = bracketedSpelling(family);
  draft.addName(joinGivenFamily(givenMain, familyMain), 'primary', { given: givenMain, family: familyMain });
  if (givenOther || familyOther) {
    const otherGiven = givenOther ?? givenMain;
    const otherFamily = familyOther ?? familyMain;
    draft.addName(joinGivenFamily(otherGiven, otherFamily), 'alias', {
      given: otherGiven,
      family: otherFamily,
    });
  }
}

function bracketedSpelling(text: string | undefined): [string | undefined, string | undefined] {
  const clean = cleanText(text);
  const m = /^(.+?)\s*\(([^()]+)\)$/.exec(clean);
  return m ? [m[1], m[2]] : [clean || undefined, undefined];
}

/**
 * EntityOrShip: "English/French" names (split at a "/" outside parentheses), and
 * "(also known as ...)" / "(a.k.a. ...)" asides, sometimes left unclosed, which are aliases.
 */
function addEntityNames(draft: EntityDraft, text: string): void {
  let main = cleanText(text).replace(/;$/, '');
  const aside = /\s*\((?:also known as|a\.k\.a\.)\s*([^)]*)\)?/i.exec(main);
  if (aside) main = `${main.slice(0, aside.index)}${main.slice(aside.index + aside[0].length)}`;
  const [primary, ...others] = splitOutsideParentheses(main, '/');
  draft.addName(primary, 'primary');
  for (const other of others) draft.addName(other, 'alias');
  if (aside?.[1]) draft.addName(aside[1], 'alias');
}

function splitOutsideParentheses(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth++;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (char === separator && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts.map((part) => cleanText(part)).filter(Boolean);
}

const LANGUAGE_LABEL =
  /\b(?:Belarusian|Belarussian|Russian|Ukrainian|Arabic|Hebrew|Persian|Farsi|Chinese|Korean|ALIAS)\s*:/gi;

/**
 * The free-text Aliases field: names separated by ";", ", ", "/" or " or ", with language
 * labels ("Belarusian:", "Russian :") in between; for a person also " and " ("Віталій Вікторович
 * Булюк and Виталий Викторович Булюк", the Ukrainian and the Russian form), where one word after it
 * is another family name for the name before ("Тетяна Олександрівна Кузьміч and Цвєтаєва":
 * Тетяна Олександрівна Цвєтаєва). An organisation's " and " is its name's ("Myanma Investment and
 * Commercial Bank"). A fragment that is only a legal form ("JSC" in "Afanasyev Technomac, JSC")
 * belongs to the name before it. A single word on its own for a person ("Andrei", a first name) is
 * kept as a weak alias only.
 */
export function splitCanadaAliases(text: string, isPerson: boolean): { name: string; kind: NameKind }[] {
  const fragments = cleanText(text)
    .replace(LANGUAGE_LABEL, ';')
    .split(/;|,\s|\/|\s+or\s+/)
    .flatMap((fragment) => (isPerson ? personAlternatives(fragment) : [fragment]))
    .map(trimFragment)
    .filter(Boolean);
  const names: string[] = [];
  for (const fragment of fragments) {
    if (isOnlyLegalForm(fragment)) {
      if (names.length > 0) names[names.length - 1] = `${names[names.length - 1]}, ${fragment}`;
      continue;
    }
    names.push(fragment);
  }
  return names.map((name) => ({ name, kind: isPerson && !name.includes(' ') ? 'weak' : 'alias' }));
}

/** A person's names joined by " and ", a lone word after a name taking the place of its last. */
function personAlternatives(fragment: string): string[] {
  const [first = '', ...others] = fragment.split(/\s+and\s+/);
  const firstWords = first.trim().split(/\s+/);
  return [
    first,
    ...others.map((other) =>
      firstWords.length > 1 && !/\s/.test(other.trim())
        ? [...firstWords.slice(0, -1), other.trim()].join(' ')
        : other,
    ),
  ];
}

function trimFragment(fragment: string): string {
  let text = cleanText(fragment)
    .replace(/^(?:also|a\.k\.a\.)\s+/i, '')
    .replace(/^[\s,;:.]+|[\s,;:]+$/g, '');
  // A bracket or quote the split left without its partner.
  if (text.startsWith('(') && !text.includes(')')) text = text.slice(1);
  if (text.endsWith(')') && !text.includes('(')) text = text.slice(0, -1);
  return cleanText(text);
}

function slug(text: string): string {
  return cleanText(text)
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
