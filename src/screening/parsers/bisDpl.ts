import type { ListedEntity, NameKind, ParseOptions, SourceFormat } from '../model/listedEntity.js';
import { SourceParseError } from '../model/listedEntity.js';
import { readCsvTable, trackFiles } from './csvStream.js';
import { latestDate, parsePartialDate } from './dates.js';
import { EntityDraft } from './entityDraft.js';
import { cleanText } from './names.js';
import { guessPartyKind } from './partyKind.js';
import { foldForKey, hashedId } from './recordKeys.js';

/**
 * The BIS Denied Persons List as BIS publishes it: a tab-delimited file, every value quoted, a
 * header row (Name, Street_Address, City, State, Country, Postal_Code, Effective_Date,
 * Expiration_Date, Standard_Order, Last_Update, Action, FR_Citation). Dates are MM/DD/YYYY,
 * Last_Update ISO.
 *
 * There is one row per denied party and address: a person with three addresses has three rows,
 * not always next to each other (" I. ASH" with a leading space sorts first, "I. ASH" later). The
 * rows of one party are merged, the party known by its folded name; so the parser keeps one small
 * draft per party while it streams the file and yields them, in first-seen order, at its end. The
 * list is small (under 1,000 rows). The entity id is a hash of the folded name: the list has no
 * record id, and the name is what its orders identify a party by.
 */

export const bisDplFormat: SourceFormat = {
  name: 'bis-dpl',
  defaultDataset: 'us_bis_dpl',
  parse: (paths, options) => parseDpl(paths, options),
};

const DPL_SOURCE = {
  name: 'BIS Denied Persons List',
  url: 'https://www.bis.gov/licensing/guidance-on-end-user-and-end-use-controls-including-us-person-controls/denied-persons-list',
};

const REQUIRED_COLUMNS = [
  'Name',
  'Street_Address',
  'City',
  'State',
  'Country',
  'Postal_Code',
  'Effective_Date',
  'Expiration_Date',
] as const;

interface PartyRows {
  draft: EntityDraft;
  effective: string[];
  expiration: string[];
  updated: string[];
}

async function* parseDpl(paths: string[], options: ParseOptions = {}): AsyncGenerator<ListedEntity> {
  const dataset = options.dataset ?? bisDplFormat.defaultDataset;
  const progress = await trackFiles(paths, options);
  const parties = new Map<string, PartyRows>();
  for (const file of paths) {
    for await (const row of readCsvTable(file, {
      progress,
      required: REQUIRED_COLUMNS,
      formatLabel: 'a BIS Denied Persons List (tab-delimited, with a header row)',
      delimiter: '\t',
    })) {
      const v = row.values;
      const name = cleanText(v.Name);
      if (!name) throw new SourceParseError(file, 'row without a Name', { line: row.line });
      const key = foldForKey(name);
      let party = parties.get(key);
      if (!party) {
        party = { draft: newDraft(dataset, name), effective: [], expiration: [], updated: [] };
        parties.set(key, party);
        // Counted when first seen: the entities are yielded after the last progress report.
        progress.entity();
      }
      addRow(party, v);
    }
  }
  for (const party of parties.values()) {
    const { draft } = party;
    draft.kind = guessPartyKind(draft.nameTexts);
    draft.listedOn = [...party.effective].sort()[0];
    draft.modifiedOn = latestDate(party.updated);
    const until = latestDate(party.expiration);
    if (until) draft.addNote(`Denied until ${until}`);
    yield draft.build();
  }
}

function newDraft(dataset: string, name: string): EntityDraft {
  const draft = new EntityDraft({
    publisherId: hashedId(name),
    dataset,
    source: DPL_SOURCE,
    sourceRecordRef: name,
    kind: 'unknown',
    topics: ['export.control'],
    priority: 2,
  });
  for (const { name: text, kind } of splitDplName(name)) draft.addName(text, kind);
  return draft;
}

function addRow(party: PartyRows, v: Record<string, string>): void {
  const { draft } = party;
  const address = [v.Street_Address, v.City, v.State, v.Postal_Code, v.Country]
    .map((part) => cleanText(part))
    .filter(Boolean)
    .join(', ');
  if (address) draft.addNote(`Address: ${address}`);
  draft.addCountry(cleanText(v.Country));
  const effective = parsePartialDate(cleanText(v.Effective_Date), { numericOrder: 'mdy' });
  if (effective) party.effective.push(effective);
  const expiration = parsePartialDate(cleanText(v.Expiration_Date), { numericOrder: 'mdy' });
  if (expiration) party.expiration.push(expiration);
  const updated = parsePartialDate(cleanText(v.Last_Update), { numericOrder: 'mdy' });
  if (updated) party.updated.push(updated);
  const standardOrder = cleanText(v.Standard_Order).toUpperCase();
  if (standardOrder === 'Y') draft.addNote('Standard denial order');
  if (standardOrder === 'N') draft.addNote('Non-standard denial order');
  if (cleanText(v.FR_Citation)) draft.addNote(`Federal Register: ${v.FR_Citation}`);
}

/**
 * The Name column holds other names too: "FUYI SUN A/K/A FRANK SUN", "SIBERIAN AIRLINES D/B/A S7
 * AIRLINES" (aliases), "... F/K/A ..." (a previous name), "PEARL (A.K.A. NEI-CHIEN CHU) LI" (an
 * alias in the middle) and "ASMAT (APPLIED SYSTEMS METHODS AND TECHNOLOGY)" (a trailing
 * parenthesis: another name of the same party).
 */
export function splitDplName(text: string): { name: string; kind: NameKind }[] {
  const names: { name: string; kind: NameKind }[] = [];
  let main = cleanText(text);
  main = main.replace(/\s*\(\s*A\.?K\.?A\.?\s+([^)]+)\)\s*/i, (_whole, alias: string) => {
    names.push({ name: alias, kind: 'alias' });
    return ' ';
  });
  const [primary, ...others] = main.split(/\s+(?=[ADF]\/K\/A\s|D\/B\/A\s)/i);
  for (const other of others) {
    const m = /^([ADF])\/[KB]\/A\s+(.+)$/i.exec(other);
    if (m) names.push({ name: m[2]!, kind: m[1]!.toUpperCase() === 'F' ? 'previous' : 'alias' });
  }
  let head = cleanText(primary);
  const trailing = /^(.+?)\s*\(([^()]+)\)$/.exec(head);
  if (trailing) {
    head = trailing[1]!;
    names.push({ name: trailing[2]!, kind: 'alias' });
  }
  return [
    { name: cleanText(head), kind: 'primary' },
    ...names.map((n) => ({ ...n, name: cleanText(n.name) })),
  ];
}
