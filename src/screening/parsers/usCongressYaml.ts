import { createReadStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { ListedEntity, NameParts, ParseOptions, SourceFormat } from '../model/listedEntity.js';
import { SourceParseError } from '../model/listedEntity.js';
import { parsePartialDate } from './dates.js';
import { EntityDraft } from './entityDraft.js';
import { expandInputFiles } from './inputFiles.js';
import { cleanText } from './names.js';
import { ProgressTracker } from './progress.js';

/**
 * The unitedstates/congress-legislators YAML files: `legislators-current.yaml` (members of the
 * current Congress) and `executive.yaml` (every President and Vice President since 1789). Each
 * file is one YAML list of people: `id` (bioguide, govtrack, wikidata, ...), `name` (first,
 * middle, last, suffix, nickname, official_full), `bio` (birthday, gender) and `terms` (type
 * rep / sen / prez / viceprez, start, end, state, district, party).
 *
 * The lists are read one person at a time: a line starting with "- " at column 0 opens the next
 * person, and only that person's lines are handed to the YAML parser, so a file never sits in
 * memory as a whole (the layout every file of the project has; any other top-level line is an
 * error).
 *
 * Everyone is a PEP (`role.pep`) tied to the US. The entity id is the bioguide id, or
 * `govtrack-<id>` for the few presidents without one. executive.yaml is read first and held (80
 * people) because it needs the whole file: it names dead presidents too and states no deaths, so a
 * President or Vice President is kept only while born less than 100 years before the newest term
 * start in the file (for a file whose newest term is 2025's: Mondale and every later one, not
 * Carter). A person in both files is one entity, the executive term noted besides the
 * congressional one.
 */

export const usCongressYamlFormat: SourceFormat = {
  name: 'us-congress-yaml',
  defaultDataset: 'us_congress',
  acceptsDirectories: true,
  parse: (paths, options) => parseCongress(paths, options),
};

const CONGRESS_SOURCE = {
  name: 'United States Congress and executive (unitedstates/congress-legislators)',
  url: 'https://github.com/unitedstates/congress-legislators',
};

/** Presidents and Vice Presidents born this many years before the file's newest term are left out. */
const EXECUTIVE_AGE_LIMIT_YEARS = 100;

interface Term {
  type?: string;
  start?: string;
  end?: string;
  state?: string;
  district?: number | string;
  party?: string;
}

interface Person {
  id?: Record<string, unknown>;
  name?: Record<string, unknown>;
  bio?: Record<string, unknown>;
  terms?: Term[];
  leadership_roles?: { title?: string; start?: string; end?: string }[];
}

interface PersonRecord {
  person: Person;
  file: string;
  line: number;
}

async function* parseCongress(paths: string[], options: ParseOptions = {}): AsyncGenerator<ListedEntity> {
  const dataset = options.dataset ?? usCongressYamlFormat.defaultDataset;
  const files = await expandYamlPaths(paths);
  const progress = await ProgressTracker.forFiles(files, options);
  const executiveFiles = files.filter(isExecutiveFile);
  const executives = new Map<string, PersonRecord>();
  for (const file of executiveFiles) {
    const records: PersonRecord[] = [];
    for await (const record of readPeople(file, progress)) records.push(record);
    const newestStart = records
      .flatMap((r) => (r.person.terms ?? []).map((t) => cleanText(String(t.start ?? ''))))
      .sort()
      .at(-1);
    for (const record of records) {
      if (!mayBeAlive(record.person, newestStart)) continue;
      const id = personId(record);
      if (executives.has(id)) {
        throw new SourceParseError(file, `id ${id} listed twice`, { line: record.line, record: id });
      }
      executives.set(id, record);
      // Counted now: the last progress report comes before the held-back ones are yielded.
      progress.entity();
    }
  }

  const seen = new Set<string>();
  for (const file of files.filter((f) => !isExecutiveFile(f))) {
    for await (const record of readPeople(file, progress)) {
      const id = personId(record);
      if (seen.has(id))
        throw new SourceParseError(file, `id ${id} listed twice`, { line: record.line, record: id });
      seen.add(id);
      const executive = executives.get(id);
      executives.delete(id);
      if (!executive) progress.entity();
      yield buildEntity(dataset, id, record, executive);
    }
  }
  for (const [id, record] of executives) yield buildEntity(dataset, id, record);
}

function isExecutiveFile(file: string): boolean {
  return /^executive/i.test(path.basename(file));
}

/** Files as given, or the `*.yaml` / `*.yml` files of a directory in name order. */
function expandYamlPaths(paths: string[]): Promise<string[]> {
  return expandInputFiles(paths, (name) => /\.ya?ml$/i.test(name), '*.yaml');
}

/**
 * The people of one file, one YAML list item at a time. Throws `SourceParseError` with the line
 * for YAML errors and for a top-level line that is not a list item, a comment or a document marker.
 */
async function* readPeople(file: string, progress: ProgressTracker): AsyncGenerator<PersonRecord> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let item: string[] = [];
  let itemLine = 0;
  let line = 0;
  const flush = (): PersonRecord | undefined => {
    if (item.length === 0) return undefined;
    const record = parseItem(file, item, itemLine);
    item = [];
    return record;
  };
  try {
    for await (const raw of lines) {
      line++;
      progress.read(file, stream.bytesRead);
      const text = line === 1 ? raw.replace(/^\ufeff/, '') : raw;
      if (/^-(?:\s|$)/.test(text)) {
        const record = flush();
        if (record) yield record;
        itemLine = line;
        item.push(text);
      } else if (item.length > 0 && (text === '' || /^[\s#]/.test(text))) {
        item.push(text);
      } else if (!(text.trim() === '' || text.startsWith('#') || text === '---' || text === '...')) {
        throw new SourceParseError(file, 'not a YAML list of people: a top-level line that is no list item', {
          line,
        });
      }
    }
    const last = flush();
    if (last) yield last;
  } catch (error) {
    if (error instanceof SourceParseError) throw error;
    throw new SourceParseError(file, `cannot read: ${(error as Error).message}`);
  } finally {
    lines.close();
    stream.destroy();
  }
  progress.fileDone(file, stream.bytesRead);
}

function parseItem(file: string, lines: string[], line: number): PersonRecord {
  let parsed: unknown;
  try {
    parsed = parseYaml(lines.join('\n'));
  } catch (error) {
    if (error instanceof YAMLParseError) {
      // The parser counts lines within the item; it may point just past the item's end.
      const offset = Math.min(error.linePos?.[0]?.line ?? 1, lines.length);
      const message = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      throw new SourceParseError(file, `malformed YAML: ${message}`, { line: line + offset - 1 });
    }
    throw error;
  }
  const person = Array.isArray(parsed) ? parsed[0] : undefined;
  if (!person || typeof person !== 'object' || Array.isArray(person)) {
    throw new SourceParseError(file, 'a list item that is not a person (a mapping was expected)', { line });
  }
  for (const key of ['terms', 'leadership_roles'] as const) {
    const value = (person as Person)[key];
    if (value !== undefined && value !== null && !Array.isArray(value)) {
      throw new SourceParseError(file, `${key} must be a list`, { line });
    }
  }
  return { person: person as Person, file, line };
}

function personId({ person, file, line }: PersonRecord): string {
  const bioguide = text(person.id?.bioguide);
  if (bioguide) return bioguide;
  const govtrack = text(person.id?.govtrack);
  if (govtrack) return `govtrack-${govtrack}`;
  throw new SourceParseError(file, 'person without a bioguide or govtrack id', { line });
}

/** YAML scalars as trimmed text ("govtrack: 300018" is a number). */
function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? cleanText(String(value)) : '';
}

function mayBeAlive(person: Person, newestStart: string | undefined): boolean {
  const birthday = parsePartialDate(text(person.bio?.birthday));
  const reference = newestStart && parsePartialDate(newestStart);
  if (!birthday || !reference) return true;
  const hundredth = `${Number(birthday.slice(0, 4)) + EXECUTIVE_AGE_LIMIT_YEARS}${birthday.slice(4)}`;
  return hundredth > reference;
}

function buildEntity(
  dataset: string,
  id: string,
  record: PersonRecord,
  executive?: PersonRecord,
): ListedEntity {
  const { person, file, line } = record;
  const draft = new EntityDraft({
    publisherId: id,
    dataset,
    source: CONGRESS_SOURCE,
    sourceRecordRef: id,
    kind: 'person',
    topics: ['role.pep'],
    priority: 3,
  });
  addNames(draft, person);
  if (!draft.primaryName) throw new SourceParseError(file, 'person without a name', { line, record: id });
  const birthday = parsePartialDate(text(person.bio?.birthday));
  if (birthday) draft.addBirthDates([{ from: birthday }]);
  draft.setGender(text(person.bio?.gender));
  draft.addNationality('US');
  const role = latestTermNote(person.terms);
  if (role) draft.addNote(role);
  if (executive) {
    const executiveRole = latestTermNote(executive.person.terms);
    if (executiveRole) draft.addNote(executiveRole);
  }
  const leadership = (person.leadership_roles ?? []).at(-1);
  if (leadership?.title) draft.addNote(`Leadership: ${leadership.title}${period(leadership)}`);
  const wikidata = text(person.id?.wikidata);
  if (wikidata) draft.addNote(`Wikidata: ${wikidata}`);
  return draft.build();
}

/**
 * official_full ("Kamala D. Harris") is the primary name when given, else first, middle and last
 * with the suffix; the full form and "first last" and "nickname last" ("Joe Biden") are aliases.
 * Every form carries the parts it contains.
 */
function addNames(draft: EntityDraft, person: Person): void {
  const first = text(person.name?.first);
  const middle = text(person.name?.middle);
  const last = text(person.name?.last);
  const suffix = text(person.name?.suffix);
  const nickname = text(person.name?.nickname);
  const official = text(person.name?.official_full);
  const full = [first, middle, last].filter(Boolean).join(' ') + (suffix ? `, ${suffix}` : '');
  const partsOf = (name: string): NameParts | undefined => {
    const words = new Set(name.replace(/,/g, ' ').split(/\s+/));
    const has = (part: string) => part !== '' && part.split(/\s+/).every((word) => words.has(word));
    const parts: NameParts = {};
    if (has(first)) parts.given = first;
    else if (has(nickname)) parts.given = nickname;
    if (has(middle)) parts.middle = middle;
    if (has(last)) parts.family = last;
    return parts.family || parts.given ? parts : undefined;
  };
  const add = (name: string, kind: 'primary' | 'alias') => {
    if (cleanText(name)) draft.addName(name, kind, partsOf(name));
  };
  add(official || full, 'primary');
  add(full, 'alias');
  if (first && last) add(`${first} ${last}`, 'alias');
  if (nickname && last) add(`${nickname} ${last}`, 'alias');
}

const TERM_ROLES: Readonly<Record<string, string>> = {
  sen: 'U.S. Senator',
  rep: 'U.S. Representative',
  prez: 'President of the United States',
  viceprez: 'Vice President of the United States',
};

/** "U.S. Senator for WA (Democrat), 2019-01-03 to 2025-01-03" for the latest term. */
function latestTermNote(terms: Term[] | undefined): string | undefined {
  const term = [...(terms ?? [])].sort((a, b) => text(a.start).localeCompare(text(b.start))).at(-1);
  if (!term) return undefined;
  const type = text(term.type);
  const role = TERM_ROLES[type] ?? type;
  const state = text(term.state);
  const district = text(term.district);
  const where =
    type === 'rep' && state
      ? ` for ${state}-${district === '0' ? 'at large' : district || '?'}`
      : state
        ? ` for ${state}`
        : '';
  const party = text(term.party);
  return `${role}${where}${party ? ` (${party})` : ''}${period(term)}`;
}

function period(span: { start?: string; end?: string }): string {
  const start = text(span.start);
  const end = text(span.end);
  if (start && end) return `, ${start} to ${end}`;
  if (start) return `, from ${start}`;
  return end ? `, until ${end}` : '';
}
