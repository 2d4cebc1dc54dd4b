import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { type CliRun, captureOutput, runCliCaptured } from '../../support/cli.js';
import { screeningData } from '../../support/screeningData.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/**
 * `casescreen sources load|status|snapshots` end to end through the in-process CLI runner, on the
 * real lists of SCREENING_DATA_DIR where present and on the repository's small fixtures always.
 */

const data = screeningData('sources CLI on the real lists');
const fixtures = path.resolve('test/fixtures/screening');
const fixture = (...segments: string[]) => path.join(fixtures, ...segments);
const day = 86_400_000;

interface StatusJson {
  now: string;
  staleAfterMs: number;
  staleAfter: string;
  datasets: {
    dataset: string;
    snapshotId: string;
    version: number;
    format: string;
    entityCount: number;
    publishedAt: string | null;
    missingFiles: string[];
    loadedAt: string;
    ageMs: number | null;
    age: string | null;
    stale: boolean;
  }[];
  checkTypes: { checkType: string; available: boolean; datasets: string[]; staleDatasets: string[] }[];
}

describe('casescreen sources load, status and snapshots', () => {
  let db: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(path.join(os.tmpdir(), 'sources-cli-'));
  });
  afterAll(async () => {
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const cli = (argv: string[], env: Record<string, string> = {}) =>
    runCliCaptured(argv, { DATABASE_URL: db.url, ...env });

  /** A --json command that must succeed: its one JSON object. */
  async function cliJson<T = Record<string, unknown>>(argv: string[], env?: Record<string, string>) {
    const result = await cli([...argv, '--json'], env);
    expect(result, result.stderr).toMatchObject({ code: 0 });
    return JSON.parse(result.stdout) as T;
  }

  const load = (format: string, paths: string[], ...flags: string[]) =>
    cliJson(['sources', 'load', '--format', format, ...paths, ...flags]);

  async function status(...flags: string[]): Promise<StatusJson> {
    return cliJson<StatusJson>(['sources', 'status', ...flags]);
  }

  async function datasetStatus(dataset: string, ...flags: string[]) {
    const found = (await status(...flags)).datasets.find((d) => d.dataset === dataset);
    expect(found, `dataset ${dataset} in sources status`).toBeDefined();
    return found!;
  }

  async function snapshotsOf(dataset: string) {
    const out = await cliJson<{ snapshots: Record<string, unknown>[] }>([
      'sources',
      'snapshots',
      '--dataset',
      dataset,
    ]);
    return out.snapshots;
  }

  async function entityRows(snapshotId: string): Promise<number> {
    const { rows } = await db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM source_snapshot_entities WHERE snapshot_id = $1',
      [snapshotId],
    );
    return rows[0]!.n;
  }

  function expectLoadFailure(result: CliRun, file: string, line: number) {
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`error: load failed: ${file}:${line}: `);
  }

  describe.skipIf(!data.available)('the real lists', () => {
    it('loads the OFAC SDN CSV set from its directory into version 1, and again as unchanged', async () => {
      const folder = data.file('ofac', 'sdn_2021-07');
      // The legacy CSV set states no date: it is refused without the publisher's.
      const undated = await cli(['sources', 'load', '--format', 'ofac-csv', folder]);
      expect(undated).toMatchObject({
        code: 2,
        stdout: '',
        stderr: expect.stringMatching(
          /^error: the ofac-csv files state no publication date, .*--published-at <date>/,
        ),
      });
      const first = await load('ofac-csv', [folder], '--published-at', '2021-07-30');
      expect(first).toMatchObject({
        unchanged: false,
        dataset: 'us_ofac_sdn',
        format: 'ofac-csv',
        version: 1,
        entityCount: 8976,
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        publishedAt: '2021-07-30T00:00:00.000Z',
        missingFiles: [],
        baseSnapshotId: null,
        countsByTopic: { sanction: 8976 },
        durationMs: expect.any(Number),
      });
      const kinds = first.countsByKind as Record<string, number>;
      expect(Object.values(kinds).reduce((a, b) => a + b, 0)).toBe(8976);
      expect(kinds.vessel).toBeGreaterThan(0);
      expect(kinds.aircraft).toBeGreaterThan(0);
      expect(await entityRows(first.snapshotId as string)).toBe(8976);

      // The same four files named one by one: the same bytes, so no new version.
      const files = ['sdn.csv', 'add.csv', 'alt.csv', 'sdn_comments.csv'].map((f) => path.join(folder, f));
      const again = await cli([
        'sources',
        'load',
        '--format',
        'ofac-csv',
        ...files,
        '--published-at',
        '2021-07-30',
      ]);
      expect(again).toMatchObject({ code: 0 });
      expect(again.stdout).toMatch(
        new RegExp(`^Unchanged: us_ofac_sdn version 1 \\(${first.snapshotId}\\) already has this content\\n`),
      );
      expect(await snapshotsOf('us_ofac_sdn')).toHaveLength(1);
    });

    it('loads the UN list with the date it states, then the next edition as version 2', async () => {
      const older = await load('un-xml', [data.file('un', 'UN_consolidated_2025-04.xml')]);
      expect(older).toMatchObject({
        dataset: 'un_sc_sanctions',
        version: 1,
        entityCount: 877,
        countsByKind: { person: 684 },
        publishedAt: '2025-04-19T23:00:04.625Z',
      });
      const newer = await cli([
        'sources',
        'load',
        '--format',
        'un-xml',
        data.file('un', 'UN_consolidated_2026-02.xml'),
      ]);
      expect(newer.code, newer.stderr).toBe(0);
      expect(newer.stdout).toMatch(
        /^Loaded un_sc_sanctions version 2: snap_[0-9a-f]{32}, 1003 entities in \d+\.\d s\n/,
      );
      expect(newer.stdout).toContain('  published 2026-02-27T00:00:09.554Z\n');
      expect(newer.stdout).toMatch(/ {2}kinds: .*person 730/);

      const current = await datasetStatus('un_sc_sanctions');
      expect(current).toMatchObject({
        version: 2,
        entityCount: 1003,
        publishedAt: '2026-02-27T00:00:09.554Z',
      });
      // The previous version is kept as it was.
      expect(await entityRows(older.snapshotId as string)).toBe(877);
    });

    it('refuses a truncated copy of the UN list, naming file and line, and keeps the current version', async () => {
      const before = await datasetStatus('un_sc_sanctions');
      const whole = await readFile(data.file('un', 'UN_consolidated_2026-02.xml'));
      const truncated = path.join(dir, 'UN_consolidated_truncated.xml');
      const cut = whole.subarray(0, Math.floor(whole.length / 2));
      await writeFile(truncated, cut);
      const lastLine = cut.toString('utf8').split('\n').length;

      const result = await cli(['sources', 'load', '--format', 'un-xml', truncated]);
      expectLoadFailure(result, truncated, lastLine);
      expect(result.stderr).toContain('malformed XML');

      expect(await datasetStatus('un_sc_sanctions')).toMatchObject({
        snapshotId: before.snapshotId,
        version: before.version,
      });
      const [failed] = await snapshotsOf('un_sc_sanctions');
      expect(failed).toMatchObject({
        status: 'failed',
        version: null,
        current: false,
        error: expect.stringContaining(`${truncated}:${lastLine}`),
      });
      expect(await entityRows(failed!.id as string)).toBe(0);
    });

    it('refuses an FtM delta older than the deltas already applied: nothing resurrected, the date does not go back', async () => {
      const samples = data.file('ftm', 'samples');
      const deltas = [
        '20240527194702-wnk',
        '20240528014702-pfh',
        '20240528074703-npf',
        '20240528134729-3iv',
      ].map((version) => path.join(samples, 't2_delta', `${version}.entities.delta.json`));
      await load(
        'ftm',
        [path.join(samples, 't1_entities.ftm.json')],
        '--dataset',
        'os_sample',
        '--published-at',
        '2024-05-27',
      );
      const applied = await load('ftm-delta', deltas, '--dataset', 'os_sample');
      // NK-500Poltergeist is added (pfh) and deleted (npf): no part of the net change.
      expect(applied).toMatchObject({
        version: 2,
        entityCount: 9,
        publishedAt: '2024-05-28T13:47:29.000Z',
        delta: { added: 3, modified: 0, deleted: 0, missingDeletes: 0 },
      });

      const again = await cli([
        'sources',
        'load',
        '--format',
        'ftm-delta',
        deltas[1]!,
        '--dataset',
        'os_sample',
      ]);
      expect(again).toMatchObject({ code: 1, stdout: '' });
      expect(again.stderr).toBe(
        `error: load failed: the delta is published 2024-05-28T01:47:02.000Z, not after its base os_sample version 2 (${applied.snapshotId}), published 2024-05-28T13:47:29.000Z: applied on top it would undo later changes; nothing was loaded\n`,
      );
      expect(await datasetStatus('os_sample')).toMatchObject({
        snapshotId: applied.snapshotId,
        entityCount: 9,
        publishedAt: '2024-05-28T13:47:29.000Z',
      });
    });

    it('loads a single SDN main file under another dataset only as a partial load, with the publisher date given', async () => {
      const main = data.file('ofac', 'sdn_2024-05-03.csv');
      const flags = ['--dataset', 'us_ofac_sdn_main', '--published-at', '2024-05-03'];
      const refused = await cli(['sources', 'load', '--format', 'ofac-csv', main, ...flags]);
      expect(refused).toMatchObject({
        code: 2,
        stderr:
          'error: incomplete ofac-csv input: without alt.csv (the aliases), add.csv (the addresses), sdn_comments.csv (the rest of long remarks); give every file of the set (or its folder), or --allow-partial to load it without them\n',
      });
      const out = await load('ofac-csv', [main], ...flags, '--allow-partial');
      expect(out).toMatchObject({
        dataset: 'us_ofac_sdn_main',
        version: 1,
        entityCount: 14965,
        publishedAt: '2024-05-03T00:00:00.000Z',
        missingFiles: ['alt.csv', 'add.csv', 'sdn_comments.csv'],
      });
      const ids = await db.pool.query<{ entity_id: string }>(
        'SELECT entity_id FROM source_snapshot_entities WHERE snapshot_id = $1 LIMIT 1',
        [out.snapshotId],
      );
      expect(ids.rows[0]!.entity_id).toMatch(/^us_ofac_sdn_main:\d+$/);
    });
  });

  describe('small fixtures', () => {
    it('loads the UN fixture lists as versions, a malformed one fails with file and line and changes nothing', async () => {
      const v1 = await load('un-xml', [fixture('un-xml', 'snapshots', 'list-v1.xml')], '--dataset', 'fx_un');
      expect(v1).toMatchObject({
        unchanged: false,
        dataset: 'fx_un',
        version: 1,
        entityCount: 3,
        publishedAt: '2026-01-05T00:00:09.000Z',
        countsByKind: { person: 2 },
        countsByTopic: { sanction: 3 },
      });

      const malformed = fixture('un-xml', 'snapshots', 'malformed.xml');
      const failed = await cli(['sources', 'load', '--format', 'un-xml', malformed, '--dataset', 'fx_un']);
      expectLoadFailure(failed, malformed, 27);
      expect(failed.stderr).toContain('malformed XML: unexpected close tag');
      expect(await datasetStatus('fx_un')).toMatchObject({ snapshotId: v1.snapshotId, version: 1 });

      const v2 = await load('un-xml', [fixture('un-xml', 'snapshots', 'list-v2.xml')], '--dataset', 'fx_un');
      // Failed attempts take no version number.
      expect(v2).toMatchObject({ version: 2, entityCount: 3, publishedAt: '2026-02-10T00:00:09.000Z' });

      const attempts = await snapshotsOf('fx_un');
      expect(attempts.map((s) => [s.version, s.status, s.current])).toEqual([
        [2, 'ready', true],
        [null, 'failed', false],
        [1, 'ready', false],
      ]);
      const table = await cli(['sources', 'snapshots', '--dataset', 'fx_un']);
      expect(table.code).toBe(0);
      expect(table.stdout.split('\n')[0]).toMatch(
        /^DATASET\s+VERSION\s+SNAPSHOT\s+STATUS\s+CURRENT\s+ENTITIES/,
      );
      expect(table.stdout).toMatch(/fx_un\s+-\s+snap_[0-9a-f]{32}\s+failed\s+-\s+.*malformed\.xml:27: /);
    });

    it('fails an OFAC CSV set with a short row by file and line and keeps the loaded set current', async () => {
      // A copy of the fixture set whose main file has a row with one column too few.
      const set = path.join(dir, 'ofac-short-row');
      await mkdir(set);
      for (const name of ['sdn.csv', 'add.csv', 'alt.csv', 'sdn_comments.csv']) {
        await copyFile(fixture('ofac-csv', 'set', name), path.join(set, name));
      }
      const good = await load('ofac-csv', [set], '--dataset', 'fx_ofac', '--published-at', '2026-01-05');
      expect(good).toMatchObject({ version: 1, entityCount: 7, publishedAt: '2026-01-05T00:00:00.000Z' });

      const main = path.join(set, 'sdn.csv');
      const lines = (await readFile(main, 'utf8')).split('\r\n');
      expect(lines[1]).toMatch(/^173,.*,-0- $/);
      lines[1] = lines[1]!.replace(/,-0- $/, '');
      await writeFile(main, lines.join('\r\n'));
      const failed = await cli([
        'sources',
        'load',
        '--format',
        'ofac-csv',
        set,
        '--dataset',
        'fx_ofac',
        '--published-at',
        '2026-01-06',
      ]);
      expectLoadFailure(failed, main, 2);
      expect(failed.stderr).toContain('expected 12 columns, found 11');
      expect(await datasetStatus('fx_ofac')).toMatchObject({ snapshotId: good.snapshotId, version: 1 });
    });

    it('makes a new version of unchanged content only when given a newer publisher date', async () => {
      const list = fixture('un-xml', 'snapshots', 'list-v1.xml');
      const loadAs = (...flags: string[]) => load('un-xml', [list], '--dataset', 'fx_republished', ...flags);
      const first = await loadAs();
      expect(first).toMatchObject({ version: 1, publishedAt: '2026-01-05T00:00:09.000Z' });

      // The date the file states, or an older one, changes nothing.
      expect(await loadAs('--published-at', '2026-01-05T00:00:09Z')).toMatchObject({
        unchanged: true,
        snapshotId: first.snapshotId,
      });
      expect(await loadAs('--published-at', '2025-12-01')).toMatchObject({ unchanged: true, version: 1 });

      // The publisher vouches for the same list at a later date: the snapshot, immutable, cannot take
      // the date, so a new version with the same entities does, and its age counts from there.
      const today = new Date().toISOString().slice(0, 10);
      const republished = await loadAs('--published-at', today);
      expect(republished).toMatchObject({
        unchanged: false,
        version: 2,
        contentHash: first.contentHash,
        entityCount: first.entityCount,
        countsByKind: first.countsByKind,
        publishedAt: `${today}T00:00:00.000Z`,
      });
      expect(await datasetStatus('fx_republished')).toMatchObject({ version: 2, stale: false });
      expect(await loadAs('--published-at', today)).toMatchObject({ unchanged: true, version: 2 });
      expect(await loadAs()).toMatchObject({ unchanged: true, version: 2 });
    });

    it('refuses a list published before the current one, naming both dates, unless --allow-older', async () => {
      const newer = await load(
        'un-xml',
        [fixture('un-xml', 'snapshots', 'list-v2.xml')],
        '--dataset',
        'fx_rollback',
      );
      const older = fixture('un-xml', 'snapshots', 'list-v1.xml');
      const refused = await cli(['sources', 'load', '--format', 'un-xml', older, '--dataset', 'fx_rollback']);
      expect(refused).toMatchObject({ code: 1, stdout: '' });
      expect(refused.stderr).toBe(
        `error: load failed: the list is published 2026-01-05T00:00:09.000Z, before the current fx_rollback version 1 (${newer.snapshotId}), published 2026-02-10T00:00:09.000Z: loading it would roll the dataset back; nothing was loaded\n` +
          '  to replace a bad publication with this older one on purpose, add --allow-older\n',
      );
      expect(await datasetStatus('fx_rollback')).toMatchObject({ snapshotId: newer.snapshotId, version: 1 });
      // A given date is compared as the file's is.
      const givenOlder = await cli([
        'sources',
        'load',
        '--format',
        'un-xml',
        fixture('un-xml', 'consolidated.xml'),
        '--dataset',
        'fx_rollback',
        '--published-at',
        '2026-02-01',
      ]);
      expect(givenOlder.code).toBe(1);
      expect(givenOlder.stderr).toContain(
        'the list is published 2026-02-01T00:00:00.000Z, before the current',
      );

      const rolledBack = await load('un-xml', [older], '--dataset', 'fx_rollback', '--allow-older');
      expect(rolledBack).toMatchObject({ version: 2, publishedAt: '2026-01-05T00:00:09.000Z' });
      expect(await datasetStatus('fx_rollback')).toMatchObject({ snapshotId: rolledBack.snapshotId });
    });

    it('prints the net change of FtM deltas and refuses a delta not newer than the current snapshot', async () => {
      await load(
        'ftm',
        [fixture('ftm', 'entities.ftm.jsonl')],
        '--dataset',
        'fx_ftm',
        '--published-at',
        '2024-05-27',
      );
      const applied = await cli([
        'sources',
        'load',
        '--format',
        'ftm-delta',
        fixture('ftm', 'deltas'),
        '--dataset',
        'fx_ftm',
      ]);
      expect(applied.code, applied.stderr).toBe(0);
      // NK-gone is added, then deleted: it is no part of the change, nor a deletion of an unknown id.
      expect(applied.stdout).toMatch(
        /\n {2}delta on snap_[0-9a-f]{32}: 0 added, 1 modified, 0 deleted, 1 deletions of unknown ids ignored\n/,
      );
      expect(applied.stdout).toContain('  published 2024-05-28T01:47:02.000Z\n');
      const current = await datasetStatus('fx_ftm');

      const first = fixture('ftm', 'deltas', '20240527194702-wnk.entities.delta.jsonl');
      const refused = await cli(['sources', 'load', '--format', 'ftm-delta', first, '--dataset', 'fx_ftm']);
      expect(refused).toMatchObject({ code: 1, stdout: '' });
      expect(refused.stderr).toMatch(
        /^error: load failed: the delta is published 2024-05-27T19:47:02.000Z, not after its base fx_ftm version 2 /,
      );
      expect(refused.stderr).not.toContain('--allow-older');
      expect(await datasetStatus('fx_ftm')).toMatchObject({ snapshotId: current.snapshotId, version: 2 });
      const forced = await cli([
        'sources',
        'load',
        '--format',
        'ftm-delta',
        first,
        '--dataset',
        'fx_ftm',
        '--allow-older',
      ]);
      expect(forced).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/^error: --allow-older: not for a delta/),
      });
    });

    it('says a load interrupted by Ctrl-C was interrupted and left the current version as it was', async () => {
      const list = fixture('un-xml', 'snapshots', 'list-v1.xml');
      const v1 = await load('un-xml', [list], '--dataset', 'fx_interrupted');
      const interrupted = new AbortController();
      interrupted.abort();
      const stdout = captureOutput();
      const stderr = captureOutput();
      const code = await runCli(
        [
          'sources',
          'load',
          '--format',
          'un-xml',
          fixture('un-xml', 'snapshots', 'list-v2.xml'),
          '--dataset',
          'fx_interrupted',
        ],
        { stdout, stderr, env: { DATABASE_URL: db.url }, signal: interrupted.signal },
      );
      expect({ code, stdout: stdout.text(), stderr: stderr.text() }).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'error: load interrupted: nothing was loaded and nothing became current; the current version stays as it was\n',
      });
      expect(await datasetStatus('fx_interrupted')).toMatchObject({ snapshotId: v1.snapshotId, version: 1 });
    });

    it('fails at once with exit code 1 while another load of the dataset holds its lock', async () => {
      const key = 'casescreen:source-dataset:fx_busy';
      const holder = await db.pool.connect();
      try {
        await holder.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
        const busy = await cli([
          'sources',
          'load',
          '--format',
          'un-xml',
          fixture('un-xml', 'snapshots', 'list-v1.xml'),
          '--dataset',
          'fx_busy',
        ]);
        expect(busy).toMatchObject({
          code: 1,
          stdout: '',
          stderr: 'error: load failed: another load of dataset fx_busy is in progress\n',
        });
      } finally {
        await holder.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
        holder.release();
      }
      expect(await snapshotsOf('fx_busy')).toEqual([]);
    });

    it('refuses unknown formats, missing files and bad flags before touching the database', async () => {
      const snapshotCount = async () =>
        (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM source_snapshots')).rows[0]!.n;
      const before = await snapshotCount();
      const unknown = await cli(['sources', 'load', '--format', 'ofac-cvs', fixture('ofac-csv', 'set')]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/^error: unknown format "ofac-cvs"; known formats: .*ofac-csv.*un-xml/);

      const missing = path.join(dir, 'nowhere.xml');
      expect(await cli(['sources', 'load', '--format', 'un-xml', missing])).toMatchObject({
        code: 2,
        stderr: `error: no such file: ${missing}\n`,
      });
      const badDataset = await cli([
        'sources',
        'load',
        '--format',
        'un-xml',
        fixture('un-xml', 'snapshots', 'list-v1.xml'),
        '--dataset',
        'UN List',
      ]);
      expect(badDataset).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: --dataset: /) });
      const badDate = await cli([
        'sources',
        'load',
        '--format',
        'un-xml',
        fixture('un-xml', 'snapshots', 'list-v1.xml'),
        '--published-at',
        '03/05/2024',
      ]);
      expect(badDate).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: --published-at: /) });
      const tomorrow = new Date(Date.now() + 2 * day).toISOString().slice(0, 10);
      for (const [date, message] of [
        ['2024-02-30', 'must be a real date (2024-05-03) or an ISO 8601 date-time with a time zone'],
        [
          '2024-02-30T00:00:00Z',
          'must be a real date (2024-05-03) or an ISO 8601 date-time with a time zone',
        ],
        ['0001-01-01', 'must not be before 1990-01-01'],
        ['2999-01-01', 'must not be more than a day in the future'],
        [tomorrow, 'must not be more than a day in the future'],
      ]) {
        const result = await cli([
          'sources',
          'load',
          '--format',
          'un-xml',
          fixture('un-xml', 'snapshots', 'list-v1.xml'),
          '--published-at',
          date!,
        ]);
        expect(result, date).toMatchObject({ code: 2, stderr: `error: --published-at: ${message}\n` });
      }
      const folder = await cli(['sources', 'load', '--format', 'un-xml', fixture('un-xml', 'snapshots')]);
      expect(folder).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(
          /^error: --format un-xml reads files, not a folder: .*snapshots; give the list file itself \(formats that take a folder: everypolitician-csv, ftm, ftm-delta, ofac-csv, us-congress-yaml\)\n$/,
        ),
      });
      // The limit is the service's (SOURCE_STALE_AFTER), not a flag of its own.
      const ownLimit = await cli(['sources', 'status', '--stale-after', '7d']);
      expect(ownLimit).toMatchObject({
        code: 2,
        stderr: expect.stringContaining("unknown option '--stale-after'"),
      });

      expect(await snapshotCount()).toBe(before);
    });

    it('shows version, age and staleness per dataset, against the publisher date and SOURCE_STALE_AFTER', async () => {
      // Published two days ago: the age counts from there, not from the load a moment ago.
      const twoDaysAgo = new Date(Date.now() - 2 * day).toISOString();
      const dated = await load(
        'un-xml',
        [fixture('un-xml', 'consolidated.xml')],
        '--dataset',
        'fx_dated',
        '--published-at',
        twoDaysAgo,
      );
      expect(dated.publishedAt).toBe(twoDaysAgo);

      const report = await status();
      expect(report).toMatchObject({ staleAfterMs: 14 * day, staleAfter: '14d' });
      const datedStatus = report.datasets.find((d) => d.dataset === 'fx_dated')!;
      expect(datedStatus).toMatchObject({
        snapshotId: dated.snapshotId,
        version: 1,
        format: 'un-xml',
        publishedAt: twoDaysAgo,
        missingFiles: [],
        age: '2d',
        stale: false,
      });
      expect(datedStatus.ageMs).toBeGreaterThanOrEqual(2 * day);
      expect(datedStatus.ageMs).toBeLessThan(2 * day + 60_000);
      // The UN fixture of January 2026 is long past 14 days.
      expect(report.datasets.find((d) => d.dataset === 'fx_un')).toMatchObject({ version: 2, stale: true });

      const strict = await cliJson<StatusJson>(['sources', 'status'], { SOURCE_STALE_AFTER: '36h' });
      expect(strict).toMatchObject({ staleAfterMs: 36 * 3_600_000, staleAfter: '1d 12h' });
      expect(strict.datasets.find((d) => d.dataset === 'fx_dated')).toMatchObject({ stale: true });
      const lenient = await cliJson<StatusJson>(['sources', 'status'], { SOURCE_STALE_AFTER: '2d1h' });
      expect(lenient.datasets.find((d) => d.dataset === 'fx_dated')).toMatchObject({ stale: false });

      const table = await cli(['sources', 'status'], { SOURCE_STALE_AFTER: '1d' });
      expect(table.code).toBe(0);
      expect(table.stdout.split('\n')[0]).toMatch(
        /^DATASET\s+VERSION\s+SNAPSHOT\s+FORMAT\s+ENTITIES\s+PUBLISHED\s+LOADED\s+AGE\s+STALE$/,
      );
      expect(table.stdout).toMatch(
        /\nfx_dated\s+1\s+snap_[0-9a-f]{32}\s+un-xml\s+\d+\s+\S+\s+\S+\s+2d\s+yes\n/,
      );
      expect(table.stdout).toMatch(
        /\nStale after 1d \(SOURCE_STALE_AFTER\), counted from the publisher's date of each list\n/,
      );
      // fx_un (stale at any threshold) refuses sanctions checks, whatever else is fresh.
      expect(table.stdout).toMatch(/\nsanctions\s+no \(stale\)\s+\S+\s+\S*fx_un\b/);
    });

    it('refuses a list whose files state no date without --published-at, before opening the database', async () => {
      const snapshotCount = async () =>
        (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM source_snapshots')).rows[0]!.n;
      const before = await snapshotCount();
      // A database that cannot be reached: the refusal comes before any connection is tried.
      const unreachable = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/nowhere' };
      const remedy =
        'pass --published-at <date>, the date the publisher issued this list (2024-05-03, or an ISO 8601 date-time with a time zone)';
      for (const [format, input] of [
        ['ofac-csv', fixture('ofac-csv', 'set')],
        ['csl-csv', fixture('csl-csv', 'consolidated.csv')],
        ['ca-sema-xml', fixture('ca-sema-xml', 'sema.xml')],
        ['ftm', fixture('ftm', 'entities.ftm.jsonl')],
        ['us-congress-yaml', fixture('us-congress-yaml', 'set')],
        ['ebrd-csv', fixture('ebrd-csv', 'ineligible.csv')],
        ['bis-dpl', fixture('bis-dpl', 'dpl.txt')],
      ] as const) {
        expect(await cli(['sources', 'load', '--format', format, input], unreachable), format).toEqual({
          code: 2,
          stdout: '',
          stderr: `error: the ${format} files state no publication date, and staleness is measured from it: ${remedy}\n`,
        });
      }
      expect(await snapshotCount()).toBe(before);

      // A format that reads the date from its files, given files without one: refused once read.
      const noIndex = fixture('everypolitician-csv', 'no-index');
      const unstated = await cli([
        'sources',
        'load',
        '--format',
        'everypolitician-csv',
        noIndex,
        '--dataset',
        'fx_ep',
      ]);
      expect(unstated).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: load failed: the list states no publication date (everypolitician-csv reads it from the lastmod dates in countries.json), and staleness is measured from it: ${remedy}\n`,
      });
      expect(await snapshotsOf('fx_ep')).toMatchObject([{ status: 'failed', current: false }]);
      const given = await load(
        'everypolitician-csv',
        [noIndex],
        '--dataset',
        'fx_ep',
        '--published-at',
        '2015-11-23',
      );
      expect(given).toMatchObject({ version: 1, publishedAt: '2015-11-23T00:00:00.000Z' });
    });

    it('refuses an OFAC CSV set with files missing, naming them, unless --allow-partial; then records the load as partial', async () => {
      const main = fixture('ofac-csv', 'main-only', 'sdn_2024-05-02.csv');
      const flags = ['--dataset', 'fx_partial', '--published-at', '2024-05-02'];
      const refused = await cli(['sources', 'load', '--format', 'ofac-csv', main, ...flags]);
      expect(refused).toEqual({
        code: 2,
        stdout: '',
        stderr:
          'error: incomplete ofac-csv input: without alt.csv (the aliases), add.csv (the addresses), sdn_comments.csv (the rest of long remarks); give every file of the set (or its folder), or --allow-partial to load it without them\n',
      });
      // Some of the set given: only the others are named.
      const someOfSet = await cli([
        'sources',
        'load',
        '--format',
        'ofac-csv',
        fixture('ofac-csv', 'set', 'sdn.csv'),
        fixture('ofac-csv', 'set', 'alt.csv'),
        ...flags,
      ]);
      expect(someOfSet).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(
          /^error: incomplete ofac-csv input: without add.csv \(the addresses\), sdn_comments.csv \(/,
        ),
      });
      // The consolidated (non-SDN) set under its own file names.
      const consolidated = await cli([
        'sources',
        'load',
        '--format',
        'ofac-csv',
        fixture('ofac-csv', 'cons-partial'),
        ...flags,
      ]);
      expect(consolidated).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(
          /^error: incomplete ofac-csv input: without cons_add.csv \(the addresses\), cons_comments.csv \(the rest of long remarks\); /,
        ),
      });
      expect(await snapshotsOf('fx_partial')).toEqual([]);

      const partial = await cli([
        'sources',
        'load',
        '--format',
        'ofac-csv',
        main,
        ...flags,
        '--allow-partial',
      ]);
      expect(partial.code, partial.stderr).toBe(0);
      expect(partial.stderr).toBe(
        'warning: partial load (--allow-partial): without alt.csv (the aliases), add.csv (the addresses), sdn_comments.csv (the rest of long remarks); the snapshot records them as missing\n',
      );
      expect(partial.stdout).toMatch(/^Loaded fx_partial version 1: snap_[0-9a-f]{32}, 3 entities/);
      expect(partial.stdout).toContain('\n  partial: without alt.csv, add.csv, sdn_comments.csv\n');
      expect(await datasetStatus('fx_partial')).toMatchObject({
        version: 1,
        missingFiles: ['alt.csv', 'add.csv', 'sdn_comments.csv'],
      });
      expect((await cli(['sources', 'status'])).stdout).toContain(
        '\nfx_partial: version 1 is a partial load, without alt.csv, add.csv, sdn_comments.csv\n',
      );
      expect(await snapshotsOf('fx_partial')).toMatchObject([
        { version: 1, missingFiles: ['alt.csv', 'add.csv', 'sdn_comments.csv'] },
      ]);

      // Not for a format that has no companion files.
      expect(
        await cli([
          'sources',
          'load',
          '--format',
          'un-xml',
          fixture('un-xml', 'consolidated.xml'),
          '--allow-partial',
        ]),
      ).toMatchObject({
        code: 2,
        stderr: 'error: --allow-partial: un-xml has no companion files that could be missing\n',
      });
    });
  });
});

describe('casescreen sources status on an empty database', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('says nothing is loaded yet, and lists no datasets as JSON', async () => {
    const env = { DATABASE_URL: db.url };
    expect(await runCliCaptured(['sources', 'status'], env)).toMatchObject({
      code: 0,
      stdout: 'No source snapshots loaded yet (casescreen sources load / sync)\n',
    });
    const json = await runCliCaptured(['sources', 'status', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({
      staleAfter: '14d',
      datasets: [],
      checkTypes: [
        { checkType: 'sanctions', available: false, datasets: [], staleDatasets: [] },
        { checkType: 'pep', available: false, datasets: [], staleDatasets: [] },
        { checkType: 'business_entity_risk', available: false, datasets: [], staleDatasets: [] },
      ],
    });
  });
});

describe('casescreen sources retire, and check type availability in sources status', () => {
  let db: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(path.join(os.tmpdir(), 'sources-retire-'));
  });
  afterAll(async () => {
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  });

  // No sync config by default, so that the shipped one's datasets do not matter.
  const cli = (argv: string[], env: Record<string, string> = {}) =>
    runCliCaptured(argv, {
      DATABASE_URL: db.url,
      SOURCES_CONFIG: path.join(dir, 'no-such-config.json'),
      ...env,
    });
  async function cliJson<T = Record<string, unknown>>(argv: string[], env?: Record<string, string>) {
    const result = await cli([...argv, '--json'], env);
    expect(result, result.stderr).toMatchObject({ code: 0 });
    return JSON.parse(result.stdout) as T;
  }
  const today = new Date().toISOString().slice(0, 10);
  const checkTypes = async () => (await cliJson<StatusJson>(['sources', 'status'])).checkTypes;

  it('refuses sanctions while one sanctions list is stale, until that dataset is retired or reloaded', async () => {
    // A fresh sanctions list (published today) and a stale one (the UN fixture of January 2026).
    await cliJson([
      'sources',
      'load',
      '--format',
      'ofac-csv',
      fixture('ofac-csv', 'set'),
      '--dataset',
      'cli_ofac',
      '--published-at',
      today,
    ]);
    const old = await cliJson([
      'sources',
      'load',
      '--format',
      'un-xml',
      fixture('un-xml', 'snapshots', 'list-v1.xml'),
      '--dataset',
      'cli_un',
    ]);
    expect(await checkTypes()).toEqual([
      { checkType: 'sanctions', available: false, datasets: ['cli_ofac'], staleDatasets: ['cli_un'] },
      { checkType: 'pep', available: false, datasets: [], staleDatasets: [] },
      { checkType: 'business_entity_risk', available: false, datasets: [], staleDatasets: [] },
    ]);
    const table = await cli(['sources', 'status']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/\n\nCHECK TYPE\s+AVAILABLE\s+FRESH DATASETS\s+STALE DATASETS\n/);
    expect(table.stdout).toMatch(/\nsanctions\s+no \(stale\)\s+cli_ofac\s+cli_un\n/);
    expect(table.stdout).toMatch(/\npep\s+no \(no source\)\s+-\s+-\n/);

    const retired = await cli(['sources', 'retire', 'cli_un']);
    expect(retired).toMatchObject({
      code: 0,
      stdout:
        `Retired cli_un: version 1 (${old.snapshotId}, 3 entities) is no longer current\n` +
        '  its snapshots are kept; loading the dataset again makes it current as its next version\n',
      stderr: '',
    });
    expect((await checkTypes())[0]).toEqual({
      checkType: 'sanctions',
      available: true,
      datasets: ['cli_ofac'],
      staleDatasets: [],
    });
    expect(
      (await cli(['sources', 'status'])).stdout.match(/\nsanctions\s+yes\s+cli_ofac\s+-\n/),
    ).not.toBeNull();
    const snapshots = await cliJson<{ snapshots: Record<string, unknown>[] }>([
      'sources',
      'snapshots',
      '--dataset',
      'cli_un',
    ]);
    expect(snapshots.snapshots).toEqual([
      expect.objectContaining({ id: old.snapshotId, status: 'ready', version: 1, current: false }),
    ]);

    // Loaded again (the same list, vouched for today): current again, as version 2, and fresh.
    const back = await cliJson([
      'sources',
      'load',
      '--format',
      'un-xml',
      fixture('un-xml', 'snapshots', 'list-v1.xml'),
      '--dataset',
      'cli_un',
      '--published-at',
      today,
    ]);
    expect(back).toMatchObject({ unchanged: false, version: 2, contentHash: old.contentHash });
    expect((await checkTypes())[0]).toEqual({
      checkType: 'sanctions',
      available: true,
      datasets: ['cli_ofac', 'cli_un'],
      staleDatasets: [],
    });
  });

  it('prints the retired snapshot as JSON, and fails with exit 1 when there is nothing to retire', async () => {
    const loaded = await cliJson([
      'sources',
      'load',
      '--format',
      'un-xml',
      fixture('un-xml', 'consolidated.xml'),
      '--dataset',
      'cli_json',
    ]);
    const retired = await cliJson(['sources', 'retire', 'cli_json']);
    expect(retired).toEqual({
      dataset: 'cli_json',
      snapshotId: loaded.snapshotId,
      version: 1,
      format: 'un-xml',
      entityCount: loaded.entityCount,
      publishedAt: loaded.publishedAt,
      loadedAt: loaded.loadedAt,
      countsByTopic: loaded.countsByTopic,
    });

    for (const dataset of ['cli_json', 'never_loaded']) {
      for (const flags of [[], ['--json']]) {
        expect(await cli(['sources', 'retire', dataset, ...flags])).toEqual({
          code: 1,
          stdout: '',
          stderr: `error: dataset ${dataset} has no current snapshot (never loaded, or already retired); nothing to retire\n`,
        });
      }
    }
    expect(await cli(['sources', 'retire', 'UN List'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: <dataset>: /),
    });
  });

  it('warns when the sync config would load the retired dataset again', async () => {
    const config = path.join(dir, 'sources.json');
    await writeFile(
      config,
      JSON.stringify({
        sources: [
          { dataset: 'cli_synced', format: 'un-xml', urls: ['https://example.org/un.xml'] },
          { dataset: 'cli_unsynced', format: 'un-xml', urls: ['https://example.org/un.xml'], enabled: false },
        ],
      }),
    );
    for (const dataset of ['cli_synced', 'cli_unsynced']) {
      await cliJson([
        'sources',
        'load',
        '--format',
        'un-xml',
        fixture('un-xml', 'consolidated.xml'),
        '--dataset',
        dataset,
      ]);
    }
    const synced = await cli(['sources', 'retire', 'cli_synced'], { SOURCES_CONFIG: config });
    expect(synced.code).toBe(0);
    expect(synced.stdout).toMatch(/^Retired cli_synced: /);
    expect(synced.stderr).toBe(
      `warning: ${config} syncs cli_synced: the next sources sync makes it current again; remove it there or set "enabled": false\n`,
    );
    expect(await cli(['sources', 'retire', 'cli_unsynced'], { SOURCES_CONFIG: config })).toMatchObject({
      code: 0,
      stderr: '',
    });
  });
});
