import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse';
import type {
  ListedEntity,
  MissingFile,
  NameKind,
  ParseOptions,
  SourceFormat,
} from '../model/listedEntity.js';
import { SourceParseError } from '../model/listedEntity.js';
import { csvReadError } from './csvStream.js';
import { EntityDraft } from './entityDraft.js';
import { companyOrOrganization } from './legalEntityKind.js';
import { cleanText, splitFamilyCommaGiven } from './names.js';
import {
  OFAC_SOURCE_URL,
  ofacPrograms,
  ofacTypeKind,
  parseOfacRemarks,
  targetTypeKind,
} from './ofacFacts.js';
import { ProgressTracker } from './progress.js';

/**
 * OFAC's legacy CSV set (column spec: data/schemas/ofac_cons_dat_spec.txt): a main file of
 * entries (sdn.csv, 12 columns), and optionally alternate names (alt.csv, 5), addresses
 * (add.csv, 6) and the remarks spill-over (sdn_comments.csv, 2), all joined on ent_num. No
 * header row, `-0-` (with a trailing space) is null, CRLF line ends and a closing 0x1A byte.
 *
 * The side files are read first into maps keyed by ent_num (they are smaller than the main
 * file), then the main file is streamed and each entry is yielded as soon as it is read. A side
 * row whose ent_num never appears in the main file means the files come from different
 * publications; that is an error (named by file, line and ent_num), not a warning, because a
 * mixed set would silently attach or lose aliases. It can only be known at the end, after the
 * entries were yielded; the loader discards a parse that throws.
 *
 * A main file without its side files parses (OFAC's "main file alone" downloads exist), but loses
 * every strong alias and address: `missingFiles` names the ones missing, and the loader refuses
 * such a load unless told it is meant. The files state no publication date.
 */

const COLUMNS = { main: 12, alt: 5, add: 6, comments: 2 } as const;
type FileRole = keyof typeof COLUMNS;
type OfacCsvFiles = { main: string } & Partial<Record<Exclude<FileRole, 'main'>, string>>;

interface CsvRow {
  /** Trimmed values; `-0-` as null. */
  fields: (string | null)[];
  line: number;
}

interface SideRows {
  file: string;
  rows: Map<string, CsvRow[]>;
}

const ALT_KINDS: Record<string, NameKind> = { aka: 'alias', nka: 'alias', fka: 'previous' };

/** The side files in the order OFAC lists them, with their names in the SDN and the consolidated set. */
const SIDE_FILES = [
  { role: 'alt', sdn: 'alt.csv', cons: 'cons_alt.csv', holds: 'the aliases' },
  { role: 'add', sdn: 'add.csv', cons: 'cons_add.csv', holds: 'the addresses' },
  { role: 'comments', sdn: 'sdn_comments.csv', cons: 'cons_comments.csv', holds: 'the rest of long remarks' },
] as const;

export const ofacCsvFormat: SourceFormat = {
  name: 'ofac-csv',
  defaultDataset: 'us_ofac_sdn',
  acceptsDirectories: true,
  missingFiles: (paths) => missingSideFiles(paths),
  parse: (paths, options) => parseOfacCsv(paths, options),
};

/** The side files the inputs lack, named as in the main file's set (`cons_prim.csv`: `cons_alt.csv`, ...). */
async function missingSideFiles(paths: string[]): Promise<MissingFile[]> {
  const files = await resolveFiles(paths);
  const set = path.basename(files.main).toLowerCase().startsWith('cons') ? 'cons' : 'sdn';
  return SIDE_FILES.filter((side) => !files[side.role]).map((side) => ({
    name: side[set],
    holds: side.holds,
  }));
}

async function* parseOfacCsv(paths: string[], options: ParseOptions = {}): AsyncGenerator<ListedEntity> {
  const dataset = options.dataset ?? ofacCsvFormat.defaultDataset;
  const files = await resolveFiles(paths);
  const progress = await ProgressTracker.forFiles(Object.values(files), options);
  const aliases = await readSideFile(files.alt, 'alt', progress);
  const addresses = await readSideFile(files.add, 'add', progress);
  const comments = await readSideFile(files.comments, 'comments', progress);
  const seen = new Set<string>();

  for await (const row of readRows(files.main, COLUMNS.main, progress)) {
    const entNum = row.fields[0];
    if (!entNum || !/^\d+$/.test(entNum)) {
      throw new SourceParseError(files.main, `ent_num is missing or not a number: ${entNum ?? '-0-'}`, {
        line: row.line,
      });
    }
    if (seen.has(entNum)) {
      throw new SourceParseError(files.main, 'ent_num listed twice', { line: row.line, record: entNum });
    }
    seen.add(entNum);
    const entity = buildEntity(dataset, row, {
      aliases: takeRows(aliases, entNum),
      addresses: takeRows(addresses, entNum),
      comments: takeRows(comments, entNum),
    });
    if (!entity)
      throw new SourceParseError(files.main, 'entry has no name', { line: row.line, record: entNum });
    progress.entity();
    yield entity;
  }

  for (const side of [aliases, addresses, comments]) {
    const orphan = side?.rows.entries().next().value;
    if (side && orphan) {
      const [entNum, rows] = orphan;
      throw new SourceParseError(side.file, `ent_num ${entNum} is not in ${path.basename(files.main)}`, {
        line: rows[0]!.line,
        record: entNum,
      });
    }
  }
}

function takeRows(side: SideRows | undefined, entNum: string): CsvRow[] {
  const rows = side?.rows.get(entNum) ?? [];
  side?.rows.delete(entNum);
  return rows;
}

function buildEntity(
  dataset: string,
  row: CsvRow,
  related: { aliases: CsvRow[]; addresses: CsvRow[]; comments: CsvRow[] },
): ListedEntity | undefined {
  const [
    entNum,
    name,
    type,
    program,
    title,
    callSign,
    vesselType,
    tonnage,
    grt,
    vesselFlag,
    vesselOwner,
    remarks,
  ] = row.fields;
  // The spill-over file continues the remarks exactly where the main file cut them off.
  const fullRemarks = [remarks ?? '', ...related.comments.map((c) => c.fields[1] ?? '')].join('');
  const facts = parseOfacRemarks(fullRemarks);
  const typeKind = ofacTypeKind(type ?? undefined);
  const isPerson = typeKind === 'person';
  const draft = new EntityDraft({
    publisherId: entNum!,
    dataset,
    source: { name: 'OFAC Specially Designated Nationals (SDN) List', url: OFAC_SOURCE_URL },
    sourceRecordRef: `ofac:sdn:${entNum}`,
    kind: typeKind ?? 'organization',
    topics: ['sanction'],
  });

  const personParts = (full: string) => (isPerson ? splitFamilyCommaGiven(full) : undefined);
  draft.addName(name, 'primary', name ? personParts(name) : undefined);
  if (!draft.primaryName) return undefined;
  for (const alias of related.aliases) {
    const [, , altType, altName, altRemarks] = alias.fields;
    draft.addName(
      altName,
      ALT_KINDS[cleanText(altType).toLowerCase()] ?? 'alias',
      altName ? personParts(altName) : undefined,
    );
    if (altName && altRemarks) draft.addNote(`${altName}: ${altRemarks}`);
  }
  for (const weak of facts.weakAliases) draft.addName(weak, 'weak', personParts(weak));
  if (!typeKind) draft.kind = targetTypeKind(facts.targetType) ?? companyOrOrganization(draft.nameTexts);

  for (const tag of ofacPrograms(program ? [program] : [])) draft.addProgram(tag);
  draft.addBirthDates(facts.birthDates);
  for (const nationality of facts.nationalities) draft.addNationality(nationality);
  for (const country of facts.countries) draft.addCountry(country);
  for (const identifier of facts.identifiers) draft.addIdentifier(identifier);
  if (facts.gender) draft.setGender(facts.gender);
  draft.addCountry(vesselFlag);

  if (title) draft.addNote(`Title: ${title}`);
  const vessel = [
    callSign && `call sign ${callSign}`,
    vesselType && `type ${vesselType}`,
    tonnage && `tonnage ${tonnage}`,
    grt && `GRT ${grt}`,
    vesselFlag && `flag ${vesselFlag}`,
    vesselOwner && `owner ${vesselOwner}`,
  ].filter(Boolean);
  if (vessel.length > 0) draft.addNote(`Vessel: ${vessel.join(', ')}`);
  for (const address of related.addresses) {
    const [, , street, city, country, addressRemarks] = address.fields;
    draft.addCountry(country);
    const text = [street, city, country].filter(Boolean).join(', ');
    if (text) draft.addNote(`Address: ${text}${addressRemarks ? ` (${addressRemarks})` : ''}`);
  }
  if (fullRemarks) draft.addNote(fullRemarks);
  return draft.build();
}

/** Paths as given: a directory holding the set, the set's files, or one main file. */
async function resolveFiles(paths: string[]): Promise<OfacCsvFiles> {
  const found: Partial<Record<FileRole, string>> = {};
  const where = paths.join(', ');
  for (const given of paths) {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(given);
    } catch (error) {
      throw new SourceParseError(given, `cannot read: ${(error as Error).message}`);
    }
    const candidates = info.isDirectory()
      ? (await readdir(given))
          .filter((name) => name.toLowerCase().endsWith('.csv'))
          .sort()
          .map((name) => path.join(given, name))
      : [given];
    for (const file of candidates) {
      const role = fileRole(file);
      if (found[role]) {
        throw new SourceParseError(where, `two ${role} files: ${found[role]} and ${file}`);
      }
      found[role] = file;
    }
  }
  if (!found.main) throw new SourceParseError(where, 'no main file (sdn.csv) among the inputs');
  return { ...found, main: found.main };
}

/** By file name: `add.csv`, `alt.csv`, `sdn_comments.csv` (also `cons_*`); any other CSV is the main file. */
function fileRole(file: string): FileRole {
  const words = path
    .basename(file)
    .toLowerCase()
    .replace(/\.csv$/, '')
    .split(/[^a-z]+/);
  if (words.includes('add')) return 'add';
  if (words.includes('alt')) return 'alt';
  if (words.includes('comments')) return 'comments';
  return 'main';
}

async function readSideFile(
  file: string | undefined,
  role: Exclude<FileRole, 'main'>,
  progress: ProgressTracker,
): Promise<SideRows | undefined> {
  if (!file) return undefined;
  const rows = new Map<string, CsvRow[]>();
  for await (const row of readRows(file, COLUMNS[role], progress)) {
    const entNum = row.fields[0];
    if (!entNum || !/^\d+$/.test(entNum)) {
      throw new SourceParseError(file, `ent_num is missing or not a number: ${entNum ?? '-0-'}`, {
        line: row.line,
      });
    }
    const list = rows.get(entNum);
    if (list) list.push(row);
    else rows.set(entNum, [row]);
  }
  return { file, rows };
}

/**
 * The rows of one headerless OFAC CSV file with `columns` columns each, values trimmed and
 * `-0-` as null. The end-of-file 0x1A byte (a row of its own) and blank lines are skipped; a
 * row with another column count is an error.
 */
async function* readRows(file: string, columns: number, progress: ProgressTracker): AsyncGenerator<CsvRow> {
  const stream = createReadStream(file);
  const parser = stream.pipe(
    parse({ relax_column_count: true, info: true, bom: true, skip_empty_lines: true }),
  );
  stream.on('error', (error) => parser.destroy(error));
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      progress.read(file, stream.bytesRead);
      // The closing 0x1A byte (a control character, which cleanText drops) reads as a row of its own.
      if (record.length === 1 && cleanText(record[0]) === '') continue;
      if (record.length !== columns) {
        throw new SourceParseError(file, `expected ${columns} columns, found ${record.length}`, {
          line: info.lines,
        });
      }
      yield { fields: record.map(nullable), line: info.lines };
    }
  } catch (error) {
    throw csvReadError(file, error);
  } finally {
    stream.destroy();
  }
  progress.fileDone(file, stream.bytesRead);
}

function nullable(value: string): string | null {
  const trimmed = cleanText(value);
  return trimmed === '' || trimmed === '-0-' ? null : trimmed;
}
