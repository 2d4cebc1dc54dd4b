import type { ListedEntity, NameKind, ParseOptions, SourceFormat } from '../model/listedEntity.js';
import { SourceParseError } from '../model/listedEntity.js';
import { countryCode } from './countries.js';
import { readCsvTable, repairQuotes, trackFiles } from './csvStream.js';
import { parsePartialDate } from './dates.js';
import { EntityDraft } from './entityDraft.js';
import { companyOrOrganization, hasLegalForm } from './legalEntityKind.js';
import { cleanText, splitFamilyCommaGiven } from './names.js';
import { hasOrganizationWord, looksLikePersonByForm } from './partyKind.js';
import { foldForKey, hashedId } from './recordKeys.js';

/**
 * The EBRD's list of ineligible entities (its own debarments and those of other development
 * banks it enforces), as the CSV of its website: UTF-8 with a BOM, a header row whose fifth
 * column is " Ineligible Until" (leading space), firm names with leading spaces, line breaks and
 * quotes the publisher did not escape (`"Rafael "Ace" Freznoza Lim"`).
 *
 * The list has no record id. A firm is known by its name and nationality: the id is a hash of
 * both, folded (case, spacing and quote style do not count; the nationality as its ISO code when
 * it names a country, so "Peoples Republic of China" and "China" agree). A firm listed on two rows
 * (the same name and nationality at two addresses) is one entity with both rows' facts; the rows
 * need not be adjacent, so the parser keeps one small draft per firm while it streams the file and
 * yields them, in first-seen order, at its end (the list has about 1,300 rows).
 */

export const ebrdCsvFormat: SourceFormat = {
  name: 'ebrd-csv',
  defaultDataset: 'ebrd_ineligible',
  parse: (paths, options) => parseEbrd(paths, options),
};

const EBRD_SOURCE = {
  name: 'EBRD Ineligible Entities',
  url: 'https://www.ebrd.com/ineligible-entities.html',
};

const COLUMNS = {
  name: 'Firm Name',
  address: 'Address',
  nationality: 'Nationality',
  from: 'Ineligible From',
  until: 'Ineligible Until',
  notice: 'Notice Effective At EBRD',
  institution: 'Originating Institution',
  practice: 'Prohibited Practice',
} as const;

/** The EBRD writes its own name both ways. */
const INSTITUTION_NAMES: Readonly<Record<string, string>> = {
  'european bank for reconstruction and development': 'EBRD',
};

async function* parseEbrd(paths: string[], options: ParseOptions = {}): AsyncGenerator<ListedEntity> {
  const dataset = options.dataset ?? ebrdCsvFormat.defaultDataset;
  const progress = await trackFiles(paths, options);
  const firms = new Map<string, { draft: EntityDraft; listed: string[] }>();
  for (const file of paths) {
    for await (const row of readCsvTable(file, {
      progress,
      required: Object.values(COLUMNS),
      formatLabel: 'an EBRD ineligible entities CSV file',
      relaxQuotes: true,
    })) {
      const v = row.values;
      const firmName = cleanText(repairQuotes(v[COLUMNS.name] ?? ''));
      if (!firmName) throw new SourceParseError(file, 'row without a Firm Name', { line: row.line });
      const nationalities = splitNationalities(v[COLUMNS.nationality]);
      const nationalityKey = nationalities.map((n) => countryCode(n) ?? foldForKey(n)).join('|');
      const key = hashedId(firmName, nationalityKey);
      let firm = firms.get(key);
      if (!firm) {
        firm = { draft: newDraft(dataset, key, firmName, nationalities), listed: [] };
        firms.set(key, firm);
        // Counted when first seen: the entities are yielded after the last progress report.
        progress.entity();
      }
      addRow(firm, v);
    }
  }
  for (const { draft, listed } of firms.values()) {
    draft.listedOn = [...listed].sort()[0];
    yield draft.build();
  }
}

function newDraft(dataset: string, id: string, firmName: string, nationalities: string[]): EntityDraft {
  const names = splitFirmName(firmName);
  const primary = names[0]!.name;
  const nameTexts = names.map((n) => n.name);
  const kind = hasLegalForm(primary)
    ? 'company'
    : !hasOrganizationWord(nameTexts) && looksLikePersonByForm(primary)
      ? 'person'
      : companyOrOrganization(nameTexts);
  const draft = new EntityDraft({
    publisherId: id,
    dataset,
    source: EBRD_SOURCE,
    sourceRecordRef: nationalities.length > 0 ? `${firmName} (${nationalities.join('; ')})` : firmName,
    kind,
    topics: ['debarment'],
    priority: 2,
  });
  for (const { name, kind: nameKind } of names) {
    draft.addName(name, nameKind, kind === 'person' ? splitFamilyCommaGiven(name) : undefined);
  }
  for (const note of names.flatMap((n) => n.notes ?? [])) draft.addNote(note);
  for (const nationality of nationalities) {
    if (kind === 'person') draft.addNationality(nationality);
    else draft.addCountry(nationality);
  }
  return draft;
}

function addRow(firm: { draft: EntityDraft; listed: string[] }, v: Record<string, string>): void {
  const { draft } = firm;
  const address = cleanText(v[COLUMNS.address]);
  if (address) draft.addNote(`Address: ${address}`);
  const from = isoDate(v[COLUMNS.from]);
  const notice = isoDate(v[COLUMNS.notice]);
  const listed = from ?? notice;
  if (listed) firm.listed.push(listed);
  const untilText = cleanText(v[COLUMNS.until]);
  const until = isoDate(untilText);
  // "Ongoing", "Indefinite", "Permanent" instead of a date.
  const period = [
    from && `from ${from}`,
    until ? `until ${until}` : untilText && `(${untilText.toLowerCase()})`,
  ].filter(Boolean);
  if (period.length > 0) draft.addNote(`Ineligible ${period.join(' ')}`);
  if (notice) draft.addNote(`Effective at EBRD from ${notice}`);
  const institution = cleanText(v[COLUMNS.institution]);
  draft.addProgram(INSTITUTION_NAMES[institution.toLowerCase()] ?? institution);
  const practice = cleanText(v[COLUMNS.practice]);
  if (practice) draft.addNote(`Prohibited practice: ${practice}`);
}

/** "2024-07-01T12:00:59Z" -> "2024-07-01"; `undefined` for "Ongoing", "Indefinite" or blank. */
function isoDate(text: string | undefined): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(cleanText(text));
  return m ? parsePartialDate(m[1]!) : undefined;
}

/** One nationality, or several on separate lines or after ";" ("Indonesia\n\nIndonesia" is one). */
function splitNationalities(text: string | undefined): string[] {
  return [
    ...new Set(
      (text ?? '')
        .split(/\n|;/)
        .map((part) => cleanText(part))
        .filter(Boolean),
    ),
  ];
}

export interface FirmName {
  name: string;
  kind: NameKind;
  /** Text that came with the name but is no name ("CNPJ: 20.182.043/0001-42"). */
  notes?: string[];
}

const NAME_CLAUSE =
  /[\s,;(]*\b(previously known as|formerly known as|formerly operating as|formerly|(?:may\s+)?also\s+(?:be\s+)?(?:known\s+as|doing\s+business\s+as|d\.?b\.?a\.?)|doing business as|d\/b\/a|a\.k\.a\.|aka)(?=[\s:])[\s:]*/i;

/** "Mr. X and any entity controlled directly or indirectly by Mr. X, which ...": the scope, a note. */
const SCOPE_CLAUSE = /\s+and any entit(?:y|ies)\b.*$/i;

/**
 * The Firm Name holds other names too: "(Previously known as X)", "formerly known as X",
 * "(formerly operating as: X)" make previous names; "(also known as X; also d.b.a. Y)", "aka X",
 * "(doing business as X)", "may also be doing business as X" aliases. "... and any entity
 * controlled directly or indirectly by ..." is the scope of the listing, kept as a note. A trailing "(X)" that names no country is a short or
 * other form of the name ("Cabinet de ... Sante (CREFES)", "DŨNG, Đoàn Anh (Dung, Doan Anh)"):
 * a weak alias when it is one word, an alias otherwise, and a note when it holds digits
 * ("(CNPJ: 20.182.043/0001-42)") or is a remark ("(with Mr. ... as proprietor)").
 */
export function splitFirmName(text: string): FirmName[] {
  const names: FirmName[] = [];
  const notes: string[] = [];
  let rest = cleanText(text).replace(SCOPE_CLAUSE, (scope) => {
    notes.push(`Ineligibility covers: ${cleanText(scope)}`);
    return '';
  });
  let primary: string | undefined;
  let clause = NAME_CLAUSE.exec(rest);
  let pendingKind: NameKind | undefined;
  while (clause) {
    const before = rest.slice(0, clause.index);
    if (primary === undefined) primary = before;
    else if (pendingKind) names.push({ name: trimClause(before), kind: pendingKind });
    pendingKind = /previously|formerly/i.test(clause[1]!) ? 'previous' : 'alias';
    rest = rest.slice(clause.index + clause[0].length);
    clause = NAME_CLAUSE.exec(rest);
  }
  if (primary === undefined) primary = rest;
  else if (pendingKind) names.push({ name: trimClause(rest), kind: pendingKind });

  let main = cleanText(primary).replace(/[\s,(]+$/, '');
  const trailing = /^(.+?)\s*\(([^()]+)\)$/.exec(main);
  if (trailing && !countryCode(trailing[2])) {
    const inner = cleanText(trailing[2]).replace(/^["“”]+|["“”]+$/g, '');
    main = cleanText(trailing[1]);
    if (/\d/.test(inner) || /^with\s/i.test(inner)) notes.push(inner);
    else names.push({ name: inner, kind: /[\s,]/.test(inner) ? 'alias' : 'weak' });
  }
  const primaryName: FirmName = { name: main, kind: 'primary' };
  if (notes.length > 0) primaryName.notes = notes;
  return [primaryName, ...names.filter((n) => n.name)];
}

/** A clause's name without the closing parenthesis and separators around it. */
function trimClause(text: string): string {
  return cleanText(text.replace(/\)\s*$/, '').replace(/^[\s,;:]+|[\s,;:]+$/g, ''));
}
