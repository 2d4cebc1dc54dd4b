import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultProfile, findProfile } from '../../../src/screening/scoring/profiles.js';
import { type CliRun, runCliCaptured } from '../../support/cli.js';
import { screeningData } from '../../support/screeningData.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/**
 * `casescreen screen` end to end through the in-process CLI runner: lists loaded with
 * `sources load`, then single subjects (--name) and batches (--input). On the real lists of
 * SCREENING_DATA_DIR where present (the UN list in two editions and the OFAC consolidated list),
 * else on the repository's small UN fixtures.
 */

const data = screeningData('screen CLI on the real lists (running it on the small fixtures instead)');
const fixture = (...segments: string[]) => path.resolve('test/fixtures/screening', ...segments);
const threshold = defaultProfile().threshold;

interface ScreenJson {
  subject: { name: string; type: string; birth_date: unknown; countries: string[]; identifiers: unknown[] };
  profile: { id: string; threshold: number };
  check_types: string[];
  missing_check_types: string[];
  snapshots: { id: string; dataset: string; version: number }[];
  matches: {
    entity_id: string;
    name: string;
    matched_name: string;
    score: number;
    match_type: string;
    topics: string[];
    datasets: string[];
    source_record_ref: string;
    snapshot_id: string;
    reason: { summary: string; scored: unknown[]; penalised: unknown[] };
    supporting_fields: Record<string, { status: string }>;
  }[];
}

/** What the scenario needs from the lists it runs on. */
interface World {
  /** sources load arguments: the older edition, the current edition of that dataset, other lists. */
  older: string[];
  current: string[];
  others: string[][];
  /** The dataset loaded in two editions. */
  dataset: string;
  /** A listed person with a birth date and a nationality on the list. */
  person: {
    name: string;
    inverted: string;
    birthDate: string;
    otherYear: string;
    country: string;
    ref: string;
  };
  /** Listed in the older edition only. */
  delisted: { name: string; ref: string };
  /** A listed company or organisation, found without --type, not as a person. */
  body: { name: string; entityId: string };
  /** Names on no list. */
  unlisted: string[];
}

const realWorld = (): World => ({
  older: ['--format', 'un-xml', data.file('un', 'UN_consolidated_2025-04.xml')],
  current: ['--format', 'un-xml', data.file('un', 'UN_consolidated_2026-02.xml')],
  others: [['--format', 'ofac-xml', data.file('ofac', 'consolidated_2026-01.xml')]],
  dataset: 'un_sc_sanctions',
  person: {
    name: 'Abdulhai Salek',
    inverted: 'SALEK, ABDULHAI',
    birthDate: '1965',
    otherYear: '1975',
    country: 'Afghanistan',
    ref: 'TAi.108',
  },
  // Delisted by the UN between the two editions (Hajjaj Bin Fahd Al Ajmi, QDi.328).
  delisted: { name: 'Hajjaj Bin Fahd Al Ajmi', ref: 'QDi.328' },
  body: { name: 'Bank of Kunlun', entityId: 'us_ofac_cons:15268' },
  unlisted: ['Kathryn Barr', 'Ingeborg Abrahamsen'],
});

const fixtureWorld = (): World => ({
  // An edition published before consolidated.xml (2025-04-19): loads are never allowed to roll back.
  older: ['--format', 'un-xml', fixture('un-xml', 'snapshots', 'older-edition.xml'), '--dataset', 'fx_un'],
  current: ['--format', 'un-xml', fixture('un-xml', 'consolidated.xml'), '--dataset', 'fx_un'],
  others: [],
  dataset: 'fx_un',
  person: {
    name: 'Ri Won Ho',
    inverted: 'RI, WON HO',
    birthDate: '1964-07-17',
    otherYear: '1980',
    country: 'KP',
    ref: 'KPi.033',
  },
  delisted: { name: 'Ahmad Exampli', ref: 'QDi.901' },
  body: { name: 'Korea Mining Development Trading Corporation', entityId: 'fx_un:110339' },
  unlisted: ['Kathryn Barr', 'Ingeborg Abrahamsen'],
});

describe(`casescreen screen on ${data.available ? 'the real lists' : 'the small fixtures'}`, () => {
  const world = data.available ? realWorld() : fixtureWorld();
  let db: TestDatabase;
  let dir: string;
  let older: string;
  let current: string;

  const cli = (argv: string[]) => runCliCaptured(argv, { DATABASE_URL: db.url });

  async function load(args: string[]): Promise<string> {
    const result = await cli(['sources', 'load', ...args, '--json']);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { snapshotId: string }).snapshotId;
  }

  async function screen(...argv: string[]): Promise<ScreenJson> {
    const result = await cli(['screen', ...argv, '--json']);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as ScreenJson;
  }

  /** The match of the party with this publisher reference, if any. */
  const matchOf = (out: ScreenJson, ref: string) =>
    out.matches.find((match) => match.source_record_ref === ref);
  const entityMatch = (out: ScreenJson, id: string) => out.matches.find((match) => match.entity_id === id);

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(path.join(os.tmpdir(), 'screen-cli-'));
    older = await load(world.older);
    current = await load(world.current);
    for (const other of world.others) await load(other);
  });
  afterAll(async () => {
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds a listed person with score, match type, reason and supporting fields', async () => {
    const out = await screen('--name', world.person.name);
    expect(out.subject).toEqual({
      name: world.person.name,
      type: 'unknown',
      birth_date: null,
      countries: [],
      identifiers: [],
    });
    expect(out.profile).toEqual({ id: 'default', threshold });
    // Sanctions lists only: the other check types are left out by default, and said so.
    expect(out.check_types).toEqual(['sanctions']);
    expect(out.missing_check_types).toEqual(['pep', 'business_entity_risk']);
    expect(out.snapshots.map((s) => s.id)).toContain(current);
    expect(out.snapshots.map((s) => s.id)).not.toContain(older);
    expect(out.snapshots.find((s) => s.id === current)).toEqual({
      id: current,
      dataset: world.dataset,
      version: 2,
    });

    const found = matchOf(out, world.person.ref);
    expect(found, JSON.stringify(out.matches.slice(0, 3))).toBeDefined();
    expect(out.matches[0]).toBe(found);
    expect(found).toMatchObject({
      entity_id: expect.stringMatching(new RegExp(`^${world.dataset}:`)),
      name: expect.any(String),
      matched_name: expect.any(String),
      match_type: 'exact_name',
      topics: ['sanction'],
      datasets: [world.dataset],
      snapshot_id: current,
      reason: { summary: expect.any(String), scored: expect.any(Array), penalised: expect.any(Array) },
      supporting_fields: {
        name: { status: 'agreed' },
        type: expect.any(Object),
        birth_date: { status: 'missing' },
        countries: { status: 'missing' },
        identifiers: { status: 'missing' },
      },
    });
    expect(found!.score).toBeGreaterThanOrEqual(threshold);
    expect(found!.score).toBeLessThan(1);
    for (let i = 1; i < out.matches.length; i++) {
      expect(out.matches[i]!.score).toBeLessThanOrEqual(out.matches[i - 1]!.score);
      expect(out.matches[i]!.score).toBeGreaterThanOrEqual(threshold);
    }
  });

  it('scores higher with the matching birth date and country, lower with another birth year', async () => {
    const scoreOf = async (...flags: string[]) => {
      const out = await screen('--name', world.person.name, ...flags);
      const found = matchOf(out, world.person.ref);
      expect(found, `${flags.join(' ')}: ${world.person.ref} found`).toBeDefined();
      return found!;
    };
    const nameOnly = await scoreOf();
    const withDate = await scoreOf('--birth-date', world.person.birthDate);
    const withBoth = await scoreOf('--birth-date', world.person.birthDate, '--country', world.person.country);
    const otherYear = await scoreOf('--birth-date', world.person.otherYear);

    expect(withDate.score).toBeGreaterThan(nameOnly.score);
    expect(withBoth.score).toBeGreaterThan(withDate.score);
    expect(withBoth.supporting_fields.birth_date!.status).toBe('agreed');
    expect(withBoth.supporting_fields.countries!.status).toBe('agreed');
    expect(otherYear.score).toBeLessThan(nameOnly.score);
    expect(otherYear.supporting_fields.birth_date!.status).toBe('disagreed');
    expect(otherYear.reason.penalised.length).toBeGreaterThan(0);
  });

  it('prints a header and a table, and honours --type, --profile and --limit', async () => {
    const table = await cli(['screen', '--name', world.person.name]);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toBe(
      `Profile default: threshold ${threshold}, at most 50 matches; check types sanctions`,
    );
    expect(lines[1]).toContain(`${world.dataset} v2 (${current})`);
    expect(lines[2]).toMatch(/^Index of \d+ entities built in \d+\.\d s$/);
    expect(table.stdout).toMatch(
      /\nRANK\s+SCORE\s+MATCH TYPE\s+MATCHED NAME\s+ENTITY\s+DATASETS\s+TOPICS\n1\s+0\.\d{3}\s+exact_name\s+/,
    );
    expect(table.stderr).toContain('warning: not screening pep, business_entity_risk');

    // The CLI's default type is unknown: a listed company is found without --type, not as a person.
    expect(entityMatch(await screen('--name', world.body.name), world.body.entityId)).toBeDefined();
    expect(
      entityMatch(await screen('--name', world.body.name, '--type', 'person'), world.body.entityId),
    ).toBeUndefined();
    const none = await cli(['screen', '--name', world.body.name, '--type', 'person']);
    expect(none.stdout).toContain(`No matches at or above ${threshold}\n`);

    const strict = await screen('--name', world.person.name, '--profile', 'strict', '--limit', '1');
    expect(strict.profile).toEqual({ id: 'strict', threshold: findProfile('strict')!.threshold });
    expect(strict.matches.length).toBeLessThanOrEqual(1);
  });

  it('refuses a check type no loaded list provides, with exit code 1 and no empty result', async () => {
    const pep = await cli(['screen', '--name', world.person.name, '--check-types', 'pep', '--json']);
    expect(pep.code).toBe(1);
    expect(pep.stdout).toBe('');
    expect(pep.stderr).toMatch(
      /error: no current source snapshot provides check type pep \(topics role\.pep/,
    );
    const mixed = await cli(['screen', '--name', world.person.name, '--check-types', 'sanctions,pep']);
    expect(mixed).toMatchObject({ code: 1, stdout: '' });
    expect(await screen('--name', world.person.name, '--check-types', 'sanctions')).toMatchObject({
      check_types: ['sanctions'],
      missing_check_types: [],
    });
  });

  it('screens an older version with --snapshot', async () => {
    const now = await screen('--name', world.delisted.name);
    expect(matchOf(now, world.delisted.ref)).toBeUndefined();

    const then = await screen('--name', world.delisted.name, '--snapshot', older);
    expect(then.snapshots).toEqual([{ id: older, dataset: world.dataset, version: 1 }]);
    expect(matchOf(then, world.delisted.ref)).toMatchObject({ snapshot_id: older, match_type: 'exact_name' });
    expect(then.matches.every((match) => match.snapshot_id === older)).toBe(true);

    const twins = await cli(['screen', '--name', 'x', '--snapshot', older, '--snapshot', current]);
    expect(twins.code).toBe(2);
    expect(twins.stderr).toMatch(/^error: --snapshot: .* are both of dataset /);
    const unknown = await cli(['screen', '--name', 'x', '--snapshot', `snap_${'0'.repeat(32)}`]);
    expect(unknown).toMatchObject({
      code: 2,
      stderr: `error: --snapshot: no source snapshot snap_${'0'.repeat(32)} (casescreen sources snapshots lists them)\n`,
    });
  });

  describe('batches', () => {
    let input: string;
    const rows = () => [
      ['full_name', 'date_of_birth', 'nationality', 'type', 'note'],
      [world.person.inverted, world.person.birthDate, world.person.country, '', 'listed'],
      [world.unlisted[0]!, '1966-07-06', 'United Arab Emirates', 'person', 'unlisted'],
      [world.body.name, '', '', 'company', 'listed company'],
      ['', '1970', '', '', 'empty name'],
      [world.person.name, '1965-13', '', '', 'bad date'],
      [world.unlisted[1]!, '', '', '', 'unlisted'],
      [world.person.name, '', 'Narnia', '', 'unknown country'],
      [world.delisted.name, '', '', '', 'delisted'],
    ];

    beforeAll(async () => {
      input = path.join(dir, 'subjects.csv');
      const quote = (field: string) => (/[",]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field);
      await writeFile(
        input,
        `${rows()
          .map((row) => row.map(quote).join(','))
          .join('\n')}\n`,
      );
    });

    type Line = {
      row: number;
      error?: string;
      matches?: Record<string, unknown>[];
      warnings?: string[];
    };
    const parseLines = (text: string): Line[] =>
      text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Line);

    function expectBatch(lines: Line[]) {
      expect(lines.map((line) => line.row)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      // Only a row without a name is left unscreened; an unreadable field is left out, and said so.
      expect(lines[3]).toEqual({ row: 3, error: 'the name is empty' });
      expect(lines[4]!.warnings).toEqual([expect.stringContaining('birth date "1965-13"')]);
      expect(lines[6]!.warnings).toEqual(['unknown country "Narnia": left out']);
      for (const line of [lines[4]!, lines[6]!]) {
        expect(line.matches!.map((m) => m.entity_id)).toContain(lines[0]!.matches![0]!.entity_id);
      }
      for (const line of [lines[0]!, lines[1]!, lines[2]!, lines[5]!, lines[7]!]) {
        expect(Object.keys(line)).toEqual(['row', 'matches']);
      }
      for (const line of lines.filter((l) => l.matches)) {
        const scores = line.matches!.map((match) => match.score as number);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
        for (const match of line.matches!) {
          expect(Object.keys(match)).toEqual([
            'entity_id',
            'name',
            'score',
            'match_type',
            'topics',
            'datasets',
          ]);
          expect(match.score).toBeGreaterThanOrEqual(threshold);
        }
      }
      const first = lines[0]!.matches![0]!;
      expect(first.entity_id).toMatch(new RegExp(`^${world.dataset}:`));
      expect(first).toMatchObject({
        match_type: 'exact_name',
        topics: ['sanction'],
        datasets: [world.dataset],
      });
      expect(lines[2]!.matches!.map((m) => m.entity_id)).toContain(world.body.entityId);
      expect(lines[1]!.matches).toEqual([]);
      expect(lines[5]!.matches).toEqual([]);
      // The delisted party is not in the current edition.
      expect(lines[7]!.matches!.filter((m) => String(m.entity_id).startsWith(`${world.dataset}:`))).toEqual(
        [],
      );
    }

    it('writes one JSON line per row to stdout, an error line for unreadable rows, and exits 1', async () => {
      const result = await cli(['screen', '--input', input]);
      expect(result.code, result.stderr).toBe(1);
      expectBatch(parseLines(result.stdout));
      expect(result.stderr).toContain('Screened 8 rows');
      expect(result.stderr).toContain('2 screened without an unreadable field, 1 unreadable');
    });

    it('writes the lines to --output, with the same flags as a single screening', async () => {
      const output = path.join(dir, 'matches.jsonl');
      const result = await cli([
        'screen',
        '--input',
        input,
        '--output',
        output,
        '--check-types',
        'sanctions',
      ]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toBe('');
      const lines = parseLines(await readFile(output, 'utf8'));
      expectBatch(lines);

      const limited = path.join(dir, 'limited.jsonl');
      const once = await cli([
        'screen',
        '--input',
        input,
        '--output',
        limited,
        '--limit',
        '1',
        '--snapshot',
        older,
      ]);
      expect(once.code, once.stderr).toBe(1);
      const limitedLines = parseLines(await readFile(limited, 'utf8'));
      expect(limitedLines.every((line) => (line.matches?.length ?? 0) <= 1)).toBe(true);
      // Against the older edition, the delisted party is found.
      expect(limitedLines[7]!.matches).toEqual([
        expect.objectContaining({ entity_id: expect.stringMatching(new RegExp(`^${world.dataset}:`)) }),
      ]);
    });

    it('exits 0 when every row was read', async () => {
      const clean = path.join(dir, 'clean.csv');
      await writeFile(clean, `full_name\n${world.person.name}\n${world.unlisted[0]}\n`);
      const result = await cli(['screen', '--input', clean]);
      expect(result.code, result.stderr).toBe(0);
      const lines = parseLines(result.stdout);
      expect(lines).toHaveLength(2);
      expect(lines[0]!.matches!.length).toBeGreaterThan(0);
    });

    it('refuses a name without a letter or digit as it does an empty one, and leaves out a future birth date', async () => {
      const odd = path.join(dir, 'odd.csv');
      await writeFile(odd, `full_name,date_of_birth\n!!!,\n,\n${world.person.name},2100-12-31\n`);
      const result = await cli(['screen', '--input', odd]);
      expect(result.code, result.stderr).toBe(1);
      const lines = parseLines(result.stdout);
      expect(lines.slice(0, 2)).toEqual([
        { row: 0, error: 'the name has no letter or digit' },
        { row: 1, error: 'the name is empty' },
      ]);
      expect(lines[2]!.warnings).toEqual(['birth date "2100-12-31" is in the future: left out']);
      expect(lines[2]!.matches!.length).toBeGreaterThan(0);
      expect(result.stderr).toContain('1 screened without an unreadable field, 2 unreadable');
    });
  });
});

describe('casescreen screen: nothing loaded, bad flags and bad batch files', () => {
  let db: TestDatabase;
  let dir: string;
  const cli = (argv: string[]): Promise<CliRun> => runCliCaptured(argv, { DATABASE_URL: db.url });

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(path.join(os.tmpdir(), 'screen-cli-bad-'));
  });
  afterAll(async () => {
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('fails with exit code 1, never an empty result, when no list is loaded', async () => {
    for (const argv of [
      ['screen', '--name', 'Ivan Testov', '--json'],
      ['screen', '--name', 'Ivan Testov'],
    ]) {
      const result = await cli(argv);
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toMatch(
        /^error: no source snapshot is loaded, so there is nothing to screen against/,
      );
    }
    const batch = path.join(dir, 'one.csv');
    await writeFile(batch, 'full_name\nIvan Testov\n');
    expect(await cli(['screen', '--input', batch])).toMatchObject({ code: 1, stdout: '' });
  });

  it('refuses every bad flag with exit code 2, naming it', async () => {
    const cases: [string[], RegExp][] = [
      [['--name', '  '], /^error: --name: must not be empty/],
      [['--name', 'x', '--type', 'ship'], /^error: --type: must be one of person, company/],
      [['--name', 'x', '--birth-date', '1965-02-30'], /^error: --birth-date: "1965-02-30" is not YYYY/],
      [['--name', 'x', '--birth-date', '03/05/1965'], /^error: --birth-date: /],
      [['--name', 'x', '--birth-date', '2100-12-31'], /^error: --birth-date: "2100-12-31" is in the future/],
      [['--name', '!!!'], /^error: --name: must contain a letter or a digit/],
      [['--name', 'x', '--country', 'Atlantis'], /^error: --country: unknown country "Atlantis"/],
      [
        ['--name', 'x', '--check-types', 'sanctions,peps'],
        /^error: --check-types: unknown check type "peps"/,
      ],
      [['--name', 'x', '--check-types', ','], /^error: --check-types: no check type given/],
      [
        ['--name', 'x', '--profile', 'lenient'],
        /^error: --profile: unknown profile "lenient"; known: default, /,
      ],
      [['--name', 'x', '--limit', '0'], /^error: --limit: must be a whole number from 1 to 1000/],
      [['--name', 'x', '--limit', '1001'], /^error: --limit: /],
      [['--name', 'x', '--limit', 'ten'], /^error: --limit: /],
      [['--name', 'x', '--snapshot', 'snap_1'], /^error: --snapshot: must be a snapshot id/],
      [[], /^error: give --name <name> to screen one subject, or --input <file.csv>/],
      [['--name', 'x', '--output', 'out.jsonl'], /^error: --output: only with --input/],
    ];
    for (const [argv, message] of cases) {
      const result = await cli(['screen', ...argv]);
      expect(result, argv.join(' ')).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr, argv.join(' ')).toMatch(message);
    }
    // Several problems are reported at once.
    const many = await cli(['screen', '--name', 'x', '--country', 'Atlantis', '--limit', '0']);
    expect(many.code).toBe(2);
    expect(many.stderr).toMatch(/--country: .*\n.*--limit: /s);
  });

  it('refuses a batch file without full_name, a missing one, and single-subject flags with --input', async () => {
    const noName = path.join(dir, 'no-name.csv');
    await writeFile(noName, 'name,date_of_birth\nIvan Testov,1970\n');
    expect(await cli(['screen', '--input', noName])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: --input: ${noName} has no full_name column (header: name, date_of_birth)\n`,
    });
    const empty = path.join(dir, 'empty.csv');
    await writeFile(empty, '');
    expect(await cli(['screen', '--input', empty])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/is empty/),
    });
    const missing = path.join(dir, 'nowhere.csv');
    expect(await cli(['screen', '--input', missing])).toMatchObject({
      code: 2,
      stderr: `error: --input: no such file: ${missing}\n`,
    });
    const both = await cli(['screen', '--input', noName, '--name', 'x', '--country', 'DE']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^error: --input: .*; for one subject \(--name\) only: --name, --country\n/);
    const one = await cli(['screen', '--input', noName, '--birth-date', '1970']);
    expect(one).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/; for one subject \(--name\) only: --birth-date\n$/),
    });
    const same = await cli(['screen', '--input', noName, '--output', noName]);
    expect(same).toMatchObject({ code: 2, stderr: 'error: --output: must not be the input file\n' });
  });
});
