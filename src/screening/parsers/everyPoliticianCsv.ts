import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ListedEntity, ParseOptions, SourceFormat } from '../model/listedEntity.js';
import { SourceParseError } from '../model/listedEntity.js';
import { countryCode } from './countries.js';
import { readCsvTable } from './csvStream.js';
import { parsePartialDate } from './dates.js';
import { EntityDraft } from './entityDraft.js';
import { statInput } from './inputFiles.js';
import { cleanText, joinGivenFamily, splitFamilyCommaGiven } from './names.js';
import { ProgressTracker } from './progress.js';

/**
 * EveryPolitician legislators (the archived 2015-11 data): one folder per legislature,
 * `<Country>_<House>/` ("UK_Commons", "North_Korea_National_Assembly"), holding `term-<n>.csv`
 * (one row per member and party group: id, name, sort_name, group, area, chamber, term,
 * start_date, end_date, gender, ...) and `names.csv` (name, id: every spelling of every member,
 * other scripts included). `countries.json` at the top says which country each legislature
 * belongs to (`code`), its name and its date (`lastmod`).
 *
 * Inputs: the folder of one legislature, several, or the top folder (every legislature in it).
 * countries.json is looked for in the top folder, or beside a legislature's folder; without it,
 * or for a legislature it does not list, the country is read from the folder name (the longest
 * leading run of words naming one: "North_Korea_National_Assembly" gives KP) and the
 * legislature's name from the `chamber` column. countries.json is an index of 270 KB and is read whole; the CSV files
 * are streamed.
 *
 * A member has one row per group they sat in and may sit in two legislatures of one country
 * (House, then Senate), so the members of one country are kept as drafts while its legislatures
 * are read and yielded after its last one. The entity id is `<dataset>:<EveryPolitician id>`.
 */

export const everyPoliticianCsvFormat: SourceFormat = {
  name: 'everypolitician-csv',
  defaultDataset: 'everypolitician',
  datedBy: 'the lastmod dates in countries.json',
  acceptsDirectories: true,
  parse: (paths, options) => parseEveryPolitician(paths, options),
};

const EP_SOURCE = { name: 'EveryPolitician', url: 'https://everypolitician.org/' };
const INDEX_FILE = 'countries.json';

interface Legislature {
  dir: string;
  /** The folder name, "UK_Commons". */
  key: string;
  termFiles: string[];
  namesFile?: string;
  country?: string;
  countryName?: string;
  name?: string;
  /** Legislative period names by slug ("56" -> "56th Parliament of the United Kingdom"). */
  periods: Map<string, string>;
  lastmod?: Date;
}

interface IndexEntry {
  country?: string;
  countryName?: string;
  name?: string;
  periods: Map<string, string>;
  lastmod?: Date;
}

async function* parseEveryPolitician(
  paths: string[],
  options: ParseOptions = {},
): AsyncGenerator<ListedEntity> {
  const dataset = options.dataset ?? everyPoliticianCsvFormat.defaultDataset;
  const { legislatures, indexFiles } = await resolveLegislatures(paths);
  const files = [
    ...indexFiles,
    ...legislatures.flatMap((l) => [...(l.namesFile ? [l.namesFile] : []), ...l.termFiles]),
  ];
  const progress = await ProgressTracker.forFiles(files, options);
  const index = new Map<string, IndexEntry>();
  for (const file of indexFiles) {
    for (const [key, entry] of await readIndex(file)) index.set(key, entry);
    progress.fileDone(file, (await statInput(file)).size);
  }
  for (const legislature of legislatures) describeLegislature(legislature, index.get(legislature.key));
  const dates = legislatures.map((l) => l.lastmod?.getTime()).filter((t): t is number => t !== undefined);
  if (dates.length > 0) options.onPublishedAt?.(new Date(Math.max(...dates)));

  // Legislatures of one country together, so that a member of two is one entity.
  const byCountry = new Map<string, Legislature[]>();
  for (const legislature of legislatures) {
    const group = legislature.country ?? `?${legislature.key}`;
    byCountry.set(group, [...(byCountry.get(group) ?? []), legislature]);
  }
  const seen = new Set<string>();
  for (const group of byCountry.values()) {
    const members = new Map<string, EntityDraft>();
    for (const legislature of group) {
      const otherNames = legislature.namesFile ? await readNames(legislature.namesFile, progress) : new Map();
      for (const termFile of legislature.termFiles) {
        for await (const row of readCsvTable(termFile, {
          progress,
          required: ['id', 'name'],
          formatLabel: 'an EveryPolitician term CSV file',
        })) {
          const v = row.values;
          const id = cleanText(v.id);
          if (!id) throw new SourceParseError(termFile, 'row without an id', { line: row.line });
          if (!personName(v.name))
            throw new SourceParseError(termFile, 'row without a name', { line: row.line, record: id });
          let draft = members.get(id);
          if (!draft) {
            if (seen.has(id)) {
              throw new SourceParseError(termFile, 'member id already read for another country', {
                line: row.line,
                record: id,
              });
            }
            draft = newDraft(dataset, id, v);
            members.set(id, draft);
            seen.add(id);
            // Counted when first seen: a country's members are yielded after its files are read.
            progress.entity();
          }
          addRow(draft, v, legislature, otherNames.get(id) ?? []);
        }
      }
    }
    for (const draft of members.values()) yield draft.build();
  }
}

function newDraft(dataset: string, id: string, v: Record<string, string>): EntityDraft {
  const draft = new EntityDraft({
    publisherId: id,
    dataset,
    source: EP_SOURCE,
    sourceRecordRef: id,
    kind: 'person',
    topics: ['role.pep'],
    priority: 3,
  });
  const name = personName(v.name);
  // sort_name "Afriyie, Adam" gives the parts of "Adam Afriyie"; otherwise no parts are claimed.
  const sortParts = splitFamilyCommaGiven(personName(v.sort_name));
  const parts =
    sortParts && joinGivenFamily(sortParts.given, sortParts.family) === name ? sortParts : undefined;
  draft.addName(name, 'primary', parts);
  return draft;
}

function addRow(
  draft: EntityDraft,
  v: Record<string, string>,
  legislature: Legislature,
  otherNames: string[],
): void {
  for (const other of otherNames) draft.addName(other, 'alias');
  draft.setGender(v.gender);
  const birth = parsePartialDate(cleanText(v.birth_date));
  if (birth) draft.addBirthDates([{ from: birth }]);
  draft.addCountry(legislature.country);
  const term = cleanText(v.term);
  const body = legislature.name ?? (cleanText(v.chamber) || legislature.key.replace(/_/g, ' '));
  const period = legislature.periods.get(term) ?? (term ? `term ${term}` : undefined);
  draft.addNote(
    `Member of the ${body}${legislature.countryName ? `, ${legislature.countryName}` : ''}${period ? ` (${period})` : ''}`,
  );
  const dates = [
    cleanText(v.start_date) && `from ${cleanText(v.start_date)}`,
    cleanText(v.end_date) && `until ${cleanText(v.end_date)}`,
  ]
    .filter(Boolean)
    .join(' ');
  const group = cleanText(v.group);
  if (group && group.toLowerCase() !== 'unknown')
    draft.addNote(`Group: ${group}${dates ? ` (${dates})` : ''}`);
  else if (dates) draft.addNote(`Member ${dates}`);
  const area = cleanText(v.area);
  if (area) draft.addNote(`Area: ${area}`);
}

/**
 * A name as scraped from Wikipedia, without the footnote markers it kept at its end
 * ("Kim Jong-un[14]"): they are no part of the name and would be matched as a token.
 */
function personName(text: string | undefined): string {
  return cleanText(text).replace(/(?:\s*\[\d+\])+$/, '');
}

/**
 * names.csv: every spelling of a member by id. A Wikipedia-style qualifier in parentheses
 * ("안명옥 (조선민주주의인민공화국)", "장웅 (스포츠인)") is no part of the name and is dropped.
 */
async function readNames(file: string, progress: ProgressTracker): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  for await (const row of readCsvTable(file, {
    progress,
    required: ['name', 'id'],
    formatLabel: 'an EveryPolitician names.csv file',
  })) {
    const id = cleanText(row.values.id);
    const name = cleanText(personName(row.values.name).replace(/^(.+?)\s*\([^()]*\)$/, '$1'));
    if (!id) throw new SourceParseError(file, 'row without an id', { line: row.line });
    if (!name) continue;
    names.set(id, [...(names.get(id) ?? []), name]);
  }
  return names;
}

/** Legislature folders from the inputs, and the countries.json files found with them. */
async function resolveLegislatures(
  paths: string[],
): Promise<{ legislatures: Legislature[]; indexFiles: string[] }> {
  const legislatures: Legislature[] = [];
  const indexFiles = new Set<string>();
  for (const given of paths) {
    if (!(await statInput(given)).isDirectory()) {
      if (path.basename(given) === INDEX_FILE) {
        indexFiles.add(given);
        continue;
      }
      throw new SourceParseError(given, 'expected a legislature folder, the top folder or countries.json');
    }
    const own = await legislatureIn(given);
    if (own) {
      legislatures.push(own);
      const beside = path.join(path.dirname(given), INDEX_FILE);
      if (existsSync(beside)) indexFiles.add(beside);
      continue;
    }
    const top = path.join(given, INDEX_FILE);
    if (existsSync(top)) indexFiles.add(top);
    const entries = (await readdir(given, { withFileTypes: true })).filter((e) => e.isDirectory());
    const found: Legislature[] = [];
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const legislature = await legislatureIn(path.join(given, entry.name));
      if (legislature) found.push(legislature);
    }
    if (found.length === 0)
      throw new SourceParseError(given, 'no legislature folder (with term-*.csv files) here');
    legislatures.push(...found);
  }
  return { legislatures, indexFiles: [...indexFiles] };
}

async function legislatureIn(dir: string): Promise<Legislature | undefined> {
  const files = await readdir(dir);
  const termFiles = files
    .filter((name) => /^term-.+\.csv$/i.test(name))
    .sort()
    .map((name) => path.join(dir, name));
  if (termFiles.length === 0) return undefined;
  const legislature: Legislature = { dir, key: path.basename(dir), termFiles, periods: new Map() };
  if (files.includes('names.csv')) legislature.namesFile = path.join(dir, 'names.csv');
  return legislature;
}

/** countries.json: legislatures by folder name ("data/UK/Commons/names.csv" -> "UK_Commons"). */
async function readIndex(file: string): Promise<Map<string, IndexEntry>> {
  let countries: unknown;
  try {
    countries = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new SourceParseError(file, `not a countries.json index: ${(error as Error).message}`);
  }
  if (!Array.isArray(countries))
    throw new SourceParseError(file, 'not a countries.json index: a list was expected');
  const index = new Map<string, IndexEntry>();
  for (const country of countries as Record<string, unknown>[]) {
    const code = typeof country.code === 'string' ? country.code : '';
    const countryName = typeof country.name === 'string' ? cleanText(country.name) : undefined;
    // "GB-SCT" (the Scottish Parliament) is in GB; "X-SO" (Somaliland) in no ISO country.
    const alpha2 = countryCode(/^([A-Z]{2})(?:-|$)/.exec(code)?.[1]) ?? countryCode(countryName);
    for (const legislature of (country.legislatures ?? []) as Record<string, unknown>[]) {
      const namesPath = typeof legislature.names === 'string' ? legislature.names : undefined;
      if (!namesPath) continue;
      const key = namesPath.split('/').slice(1, -1).join('_');
      const periods = new Map<string, string>();
      for (const period of (legislature.legislative_periods ?? []) as Record<string, unknown>[]) {
        if (typeof period.slug === 'string' && typeof period.name === 'string') {
          periods.set(period.slug, cleanText(period.name));
        }
      }
      const lastmod = Number(legislature.lastmod);
      index.set(key, {
        country: alpha2,
        countryName,
        name: typeof legislature.name === 'string' ? cleanText(legislature.name) : undefined,
        periods,
        lastmod: Number.isFinite(lastmod) && lastmod > 0 ? new Date(lastmod * 1000) : undefined,
      });
    }
  }
  return index;
}

/** Country, name and periods from the index, or the country from the folder name. */
function describeLegislature(legislature: Legislature, entry: IndexEntry | undefined): void {
  if (entry) {
    legislature.country = entry.country;
    legislature.countryName = entry.countryName;
    legislature.name = entry.name;
    legislature.periods = entry.periods;
    legislature.lastmod = entry.lastmod;
    return;
  }
  // "North_Korea_National_Assembly": the longest leading run of words that names a country.
  const words = legislature.key.split('_');
  for (let count = words.length - 1; count >= 1; count--) {
    const name = words.slice(0, count).join(' ');
    const code = countryCode(name);
    if (code) {
      legislature.country = code;
      legislature.countryName = name;
      return;
    }
  }
}
