import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DeltaFormat,
  type EntityDelta,
  type EntityKind,
  type ListedEntity,
  type ParseOptions,
  type SourceFormat,
  SourceParseError,
} from '../../../src/screening/model/listedEntity.js';
import {
  loadSnapshot,
  PartialInputError,
  SnapshotLoadError,
} from '../../../src/screening/snapshots/loadSnapshot.js';
import { retireDataset } from '../../../src/screening/snapshots/retireDataset.js';
import {
  currentSnapshots,
  listDatasets,
  listSnapshots,
  readSnapshotEntities,
} from '../../../src/screening/snapshots/snapshotStore.js';
import { sourceAvailability } from '../../../src/screening/snapshots/sourceAvailability.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';
import { createDatabaseWithUndatedSnapshot } from '../../support/undatedSnapshot.js';

/**
 * A tiny line format of our own, so the loader is tested apart from the real parsers:
 * `id|kind|name|topic,topic`; a first line `#published <iso>` states the publisher's date.
 * Anything else is a SourceParseError naming file and line.
 */
async function* readLines(file: string): AsyncGenerator<{ text: string; line: number }> {
  let line = 0;
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    line++;
    if (text.trim()) yield { text, line };
  }
}

function entityOf(file: string, line: number, text: string, dataset: string): ListedEntity {
  const fields = text.split('|');
  if (fields.length !== 4) throw new SourceParseError(file, 'expected 4 fields', { line });
  const [id, kind, name, topics] = fields as [string, EntityKind, string, string];
  return {
    id: `${dataset}:${id}`,
    kind,
    names: [{ full: name, kind: 'primary' }],
    birthDates: [],
    countries: [],
    nationalities: [],
    identifiers: [],
    topics: topics ? topics.split(',') : [],
    datasets: [dataset],
    sources: [{ name: 'Test list', url: null, dataset, priority: 1 }],
    programs: [],
    sourceRecordRef: `test:${id}`,
  };
}

const linesFormat: SourceFormat = {
  name: 'test-lines',
  defaultDataset: 'test_list',
  datedBy: 'a first line #published <iso>',
  async *parse(paths: string[], options: ParseOptions = {}) {
    const dataset = options.dataset ?? 'test_list';
    for (const file of paths) {
      for await (const { text, line } of readLines(file)) {
        if (text.startsWith('#published ')) {
          options.onPublishedAt?.(new Date(text.slice('#published '.length)));
          continue;
        }
        yield entityOf(file, line, text, dataset);
      }
    }
  },
};

/** `+id|kind|name|topics` upserts, `-id` deletes; `#published <iso>` as in the list format. */
const linesDeltaFormat: DeltaFormat = {
  name: 'test-lines-delta',
  defaultDataset: 'test_list',
  datedBy: 'a first line #published <iso>',
  async *parseDelta(paths: string[], options: ParseOptions = {}): AsyncGenerator<EntityDelta> {
    const dataset = options.dataset ?? 'test_list';
    for (const file of paths) {
      for await (const { text, line } of readLines(file)) {
        if (text.startsWith('#published '))
          options.onPublishedAt?.(new Date(text.slice('#published '.length)));
        else if (text.startsWith('-')) yield { op: 'delete', id: `${dataset}:${text.slice(1)}` };
        else if (text.startsWith('+'))
          yield { op: 'upsert', entity: entityOf(file, line, text.slice(1), dataset) };
        else throw new SourceParseError(file, 'a change starts with + or -', { line });
      }
    }
  },
};

describe('source snapshots', () => {
  let db: TestDatabase;
  let dir: string;
  let fileCount = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(path.join(os.tmpdir(), 'snapshots-test-'));
  });
  afterAll(async () => {
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  });

  async function file(lines: string[], name = `list-${++fileCount}.txt`): Promise<string> {
    const target = path.join(dir, name);
    await writeFile(target, `${lines.join('\n')}\n`);
    return target;
  }

  async function entityIds(snapshotId: string): Promise<string[]> {
    const ids: string[] = [];
    for await (const entity of readSnapshotEntities(db.pool, snapshotId)) ids.push(entity.id);
    return ids;
  }

  async function rowsOf(snapshotId: string): Promise<number> {
    const { rows } = await db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM source_snapshot_entities WHERE snapshot_id = $1',
      [snapshotId],
    );
    return rows[0]!.n;
  }

  const sanctionsList = [
    '#published 2026-03-01T00:00:00Z',
    'p1|person|Ivan Testov|sanction',
    'c1|company|Example Trading LLC|sanction,sanction.linked',
    'v1|vessel|OCEAN STAR|sanction',
  ];

  it('loads a list into version 1, makes it current and reads it back in id order', async () => {
    const input = await file(sanctionsList);
    const result = await loadSnapshot(db.pool, { format: linesFormat, paths: [input], dataset: 'loads' });

    expect(result.unchanged).toBe(false);
    const { snapshot } = result;
    expect(snapshot).toMatchObject({
      id: expect.stringMatching(/^snap_[0-9a-f]{32}$/),
      dataset: 'loads',
      format: 'test-lines',
      status: 'ready',
      version: 1,
      baseSnapshotId: null,
      entityCount: 3,
      countsByKind: { person: 1, company: 1, vessel: 1 },
      countsByTopic: { sanction: 3, 'sanction.linked': 1 },
      publishedAt: new Date('2026-03-01T00:00:00Z'),
    });
    // The hash of a single file: sha256 over its sha256 hex digest and a newline.
    const fileDigest = createHash('sha256')
      .update(`${sanctionsList.join('\n')}\n`)
      .digest('hex');
    expect(snapshot.contentHash).toBe(createHash('sha256').update(`${fileDigest}\n`).digest('hex'));
    expect(await currentSnapshots(db.pool, ['loads'])).toEqual([snapshot]);
    expect(await entityIds(snapshot.id)).toEqual(['loads:c1', 'loads:p1', 'loads:v1']);

    const stored: ListedEntity[] = [];
    for await (const entity of readSnapshotEntities(db.pool, snapshot.id)) stored.push(entity);
    expect(stored.find((e) => e.id === 'loads:c1')).toEqual(
      entityOf(input, 3, 'c1|company|Example Trading LLC|sanction,sanction.linked', 'loads'),
    );
  });

  it('reports an identical re-load as unchanged, whatever the file is called, and versions a changed one', async () => {
    const first = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(sanctionsList)],
      dataset: 'reloads',
    });
    const again = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(sanctionsList, 'renamed.txt')],
      dataset: 'reloads',
    });
    expect(again).toEqual({ unchanged: true, snapshot: first.snapshot });
    expect(await listSnapshots(db.pool, { dataset: 'reloads' })).toHaveLength(1);

    const changed = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file([...sanctionsList, 'p2|person|Ahmad Exampli|sanction'])],
      dataset: 'reloads',
      publishedAt: new Date('2026-03-05T00:00:00Z'),
    });
    expect(changed.snapshot).toMatchObject({ version: 2, entityCount: 4 });
    // An explicit publisher date wins over the one the file states.
    expect(changed.snapshot.publishedAt).toEqual(new Date('2026-03-05T00:00:00Z'));
    expect((await currentSnapshots(db.pool, ['reloads']))[0]!.id).toBe(changed.snapshot.id);
    // The previous version stays readable, as it was.
    expect(await entityIds(first.snapshot.id)).toEqual(['reloads:c1', 'reloads:p1', 'reloads:v1']);
  });

  it('discards a load that fails half way: the previous version stays current, the attempt is recorded', async () => {
    const good = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(sanctionsList)],
      dataset: 'failures',
    });
    const many = Array.from({ length: 20 }, (_, i) => `e${i}|person|Person ${i}|sanction`);
    const malformed = await file([...many, 'broken line without fields', 'z|person|After|sanction']);

    const error = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [malformed],
      dataset: 'failures',
      batchSize: 3, // several batches are stored before the bad line
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceParseError);
    expect(error).toMatchObject({ file: malformed, location: { line: 21 }, reason: 'expected 4 fields' });

    expect((await currentSnapshots(db.pool, ['failures']))[0]!.id).toBe(good.snapshot.id);
    const [failed] = (await listSnapshots(db.pool, { dataset: 'failures' })).filter(
      (s) => s.status === 'failed',
    );
    expect(failed).toMatchObject({
      version: null,
      current: false,
      error: `${malformed}:21: expected 4 fields`,
    });
    expect(await rowsOf(failed!.id)).toBe(0);
    await expect(entityIds(failed!.id)).rejects.toThrow(/is failed/);

    // Failed attempts take no version number.
    const next = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(many)],
      dataset: 'failures',
      batchSize: 3,
      publishedAt: new Date('2026-03-02T00:00:00Z'),
    });
    expect(next.snapshot).toMatchObject({ version: 2, entityCount: 20 });
  });

  it('refuses duplicate ids, invalid entities and empty lists without touching the current version', async () => {
    const good = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(sanctionsList)],
      dataset: 'refusals',
    });
    const attempt = async (lines: string[], batchSize?: number) =>
      loadSnapshot(db.pool, {
        format: linesFormat,
        paths: [await file(lines)],
        dataset: 'refusals',
        batchSize,
      }).catch((e: unknown) => e);

    // Duplicates within one batch and across batches.
    for (const batchSize of [1000, 1]) {
      const duplicate = await attempt(
        ['a|person|A|sanction', 'b|person|B|sanction', 'a|person|A again|sanction'],
        batchSize,
      );
      expect(duplicate).toBeInstanceOf(SnapshotLoadError);
      expect(duplicate).toMatchObject({
        code: 'duplicate_entity',
        message: expect.stringContaining('refusals:a'),
      });
    }
    expect(await attempt(['x|dragon|Smaug|sanction'])).toMatchObject({ code: 'invalid_entity' });
    expect(await attempt(['#published 2026-03-01T00:00:00Z'])).toMatchObject({ code: 'empty' });

    expect((await currentSnapshots(db.pool, ['refusals']))[0]!.id).toBe(good.snapshot.id);
    const attempts = await listSnapshots(db.pool, { dataset: 'refusals' });
    expect(attempts.map((s) => s.status).sort()).toEqual(['failed', 'failed', 'failed', 'failed', 'ready']);
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM source_snapshot_entities e JOIN source_snapshots s ON s.id = e.snapshot_id
        WHERE s.dataset = 'refusals' AND s.status = 'failed'`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('refuses a list without a publication date: before reading it when its format states none', async () => {
    const good = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(sanctionsList)],
      dataset: 'undated',
    });
    const undatedFormat: SourceFormat = {
      name: 'test-undated-lines',
      defaultDataset: 'test_list',
      parse: linesFormat.parse,
    };
    const list = await file(['p2|person|Olga Testova|sanction']);
    const refused = await loadSnapshot(db.pool, {
      format: undatedFormat,
      paths: [list],
      dataset: 'undated',
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SnapshotLoadError);
    expect(refused).toMatchObject({
      code: 'no_publication_date',
      message: 'the test-undated-lines files state no publication date, and staleness is measured from it',
    });
    // Refused before anything was attempted.
    expect(await listSnapshots(db.pool, { dataset: 'undated' })).toHaveLength(1);

    const dated = await loadSnapshot(db.pool, {
      format: undatedFormat,
      paths: [list],
      dataset: 'undated',
      publishedAt: new Date('2026-03-02T00:00:00Z'),
    });
    expect(dated.snapshot).toMatchObject({ version: 2, publishedAt: new Date('2026-03-02T00:00:00Z') });

    // A format that reads the date from its files, given a file stating none: refused once read,
    // the attempt recorded as failed, the current version untouched.
    const unstated = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(['p3|person|Third Person|sanction'])],
      dataset: 'undated',
    }).catch((e: unknown) => e);
    expect(unstated).toBeInstanceOf(SnapshotLoadError);
    expect(unstated).toMatchObject({
      code: 'no_publication_date',
      message:
        'the list states no publication date (test-lines reads it from a first line #published <iso>), and staleness is measured from it',
    });
    expect((await currentSnapshots(db.pool, ['undated']))[0]!.id).toBe(dated.snapshot.id);
    const [failed] = await listSnapshots(db.pool, { dataset: 'undated' });
    expect(failed).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^the list states no publication date/),
    });
    expect(await rowsOf(failed!.id)).toBe(0);
    expect(good.snapshot.version).toBe(1);
  });

  it('refuses an input lacking companion files of its format unless allowed, and records what a partial load lacks', async () => {
    const withSideFile: SourceFormat = {
      ...linesFormat,
      name: 'test-lines-with-side',
      missingFiles: async (paths) =>
        paths.some((p) => path.basename(p) === 'side.txt')
          ? []
          : [{ name: 'side.txt', holds: 'the side facts' }],
    };
    const main = await file(sanctionsList);
    const refused = await loadSnapshot(db.pool, {
      format: withSideFile,
      paths: [main],
      dataset: 'partial',
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PartialInputError);
    expect(refused).toMatchObject({
      code: 'partial_input',
      message: 'incomplete test-lines-with-side input: without side.txt (the side facts)',
      missingFiles: [{ name: 'side.txt', holds: 'the side facts' }],
    });
    expect(await listSnapshots(db.pool, { dataset: 'partial' })).toEqual([]);

    const partial = await loadSnapshot(db.pool, {
      format: withSideFile,
      paths: [main],
      dataset: 'partial',
      allowPartial: true,
    });
    expect(partial.snapshot).toMatchObject({ version: 1, entityCount: 3, missingFiles: ['side.txt'] });
    const complete = await loadSnapshot(db.pool, {
      format: withSideFile,
      paths: [main, await file(['s1|person|Side Person|sanction'], 'side.txt')],
      dataset: 'partial',
    });
    expect(complete.snapshot).toMatchObject({ version: 2, entityCount: 4, missingFiles: [] });
  });

  it('applies a delta to the current snapshot as a new version and refuses one without a base', async () => {
    const delta = await file([
      '#published 2026-03-02T00:00:00Z',
      '+c1|company|Example Trading LLC (renamed)|sanction',
      '+n1|person|New Person|sanction',
      '-v1',
      '-gone',
    ]);
    const noBase = await loadSnapshot(db.pool, {
      format: linesDeltaFormat,
      paths: [delta],
      dataset: 'deltas',
    }).catch((e: unknown) => e);
    expect(noBase).toMatchObject({ code: 'no_current_snapshot', message: expect.stringContaining('deltas') });
    expect(await listSnapshots(db.pool, { dataset: 'deltas' })).toEqual([]);

    const base = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(sanctionsList)],
      dataset: 'deltas',
      batchSize: 2,
    });
    const applied = await loadSnapshot(db.pool, {
      format: linesDeltaFormat,
      paths: [delta],
      dataset: 'deltas',
      batchSize: 2,
    });
    expect(applied.delta).toEqual({ added: 1, modified: 1, deleted: 1, missingDeletes: 1 });
    expect(applied.snapshot).toMatchObject({
      version: 2,
      format: 'test-lines-delta',
      baseSnapshotId: base.snapshot.id,
      entityCount: 3,
      countsByKind: { person: 2, company: 1 },
      countsByTopic: { sanction: 3 },
      publishedAt: new Date('2026-03-02T00:00:00Z'),
    });
    expect(await entityIds(applied.snapshot.id)).toEqual(['deltas:c1', 'deltas:n1', 'deltas:p1']);
    const renamed: ListedEntity[] = [];
    for await (const entity of readSnapshotEntities(db.pool, applied.snapshot.id)) renamed.push(entity);
    expect(renamed[0]!.names[0]!.full).toBe('Example Trading LLC (renamed)');
    // The base version is untouched.
    expect(await entityIds(base.snapshot.id)).toEqual(['deltas:c1', 'deltas:p1', 'deltas:v1']);

    // The same delta again is no change; an add then delete of one id in one file nets to nothing.
    expect(
      (await loadSnapshot(db.pool, { format: linesDeltaFormat, paths: [delta], dataset: 'deltas' }))
        .unchanged,
    ).toBe(true);
    const netted = await loadSnapshot(db.pool, {
      format: linesDeltaFormat,
      paths: [await file(['#published 2026-03-03T00:00:00Z', '+t1|person|Transient|sanction', '-t1'])],
      dataset: 'deltas',
    });
    expect(netted.snapshot).toMatchObject({ version: 3, entityCount: 3 });
    expect(netted.delta).toEqual({ added: 0, modified: 0, deleted: 0, missingDeletes: 0 });
    expect(await entityIds(netted.snapshot.id)).toEqual(['deltas:c1', 'deltas:n1', 'deltas:p1']);
  });

  it('counts the net change from base to result, whatever the batch size', async () => {
    const steps = await file([
      '#published 2026-03-02T00:00:00Z',
      '+t1|person|Transient|sanction', // added, then deleted: no change
      '-t1',
      '-t1', // nothing left to delete: a missing delete
      '+c1|company|Example Trading LLC (renamed)|sanction,sanction.linked',
      '+c1|company|Example Trading LLC|sanction,sanction.linked', // back as in the base: not modified
      '-p1', // deleted, then added back changed: modified
      '+p1|person|Ivan Testov Jr|sanction',
      '-v1', // deleted
      '+n1|person|New Person|sanction', // added
      '+n1|person|New Person|sanction,role.pep',
    ]);
    for (const batchSize of [1, 2, 3, 1000]) {
      const dataset = `netdelta${batchSize}`;
      await loadSnapshot(db.pool, { format: linesFormat, paths: [await file(sanctionsList)], dataset });
      const applied = await loadSnapshot(db.pool, {
        format: linesDeltaFormat,
        paths: [steps],
        dataset,
        batchSize,
      });
      expect(applied.delta, `batch size ${batchSize}`).toEqual({
        added: 1,
        modified: 1,
        deleted: 1,
        missingDeletes: 1,
      });
      expect(await entityIds(applied.snapshot.id)).toEqual([
        `${dataset}:c1`,
        `${dataset}:n1`,
        `${dataset}:p1`,
      ]);
    }
  });

  it('refuses a delta not newer than its base and keeps the base current', async () => {
    const base = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(sanctionsList)], // published 2026-03-01
      dataset: 'olddeltas',
    });
    for (const published of ['2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z']) {
      const refused = await loadSnapshot(db.pool, {
        format: linesDeltaFormat,
        paths: [await file([`#published ${published}`, '+r1|person|Resurrected|sanction', '-p1'])],
        dataset: 'olddeltas',
      }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SnapshotLoadError);
      expect(refused).toMatchObject({
        code: 'outdated_publication',
        message: `the delta is published ${new Date(published).toISOString()}, not after its base olddeltas version 1 (${base.snapshot.id}), published 2026-03-01T00:00:00.000Z: applied on top it would undo later changes; nothing was loaded`,
      });
    }
    const attempts = await listSnapshots(db.pool, { dataset: 'olddeltas' });
    expect(attempts.map((s) => [s.status, s.current])).toEqual([
      ['failed', false],
      ['failed', false],
      ['ready', true],
    ]);
    for (const attempt of attempts.slice(0, 2)) expect(await rowsOf(attempt.id)).toBe(0);

    // An explicit date is compared the same way; a newer one is applied.
    const explicit = await loadSnapshot(db.pool, {
      format: linesDeltaFormat,
      paths: [await file(['+r1|person|Resurrected|sanction'])],
      dataset: 'olddeltas',
      publishedAt: new Date('2026-01-01T00:00:00Z'),
    }).catch((e: unknown) => e);
    expect(explicit).toMatchObject({ code: 'outdated_publication' });
    const newer = await loadSnapshot(db.pool, {
      format: linesDeltaFormat,
      paths: [await file(['#published 2026-03-02T00:00:00Z', '-p1'])],
      dataset: 'olddeltas',
    });
    expect(newer.snapshot).toMatchObject({ version: 2, publishedAt: new Date('2026-03-02T00:00:00Z') });
  });

  it('refuses a full list published before the current one unless told to, and with `newer` an equal one', async () => {
    const dataset = 'rollbacks';
    const current = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(sanctionsList)],
      dataset,
    });
    const older = ['#published 2026-02-01T00:00:00Z', 'p1|person|Ivan Testov|sanction'];
    const refused = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(older)],
      dataset,
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'outdated_publication',
      message: `the list is published 2026-02-01T00:00:00.000Z, before the current rollbacks version 1 (${current.snapshot.id}), published 2026-03-01T00:00:00.000Z: loading it would roll the dataset back; nothing was loaded`,
    });
    expect((await currentSnapshots(db.pool, [dataset]))[0]!.id).toBe(current.snapshot.id);

    // Equal dates pass by default (a corrected file of the same day); `newer` (sync) refuses them.
    const sameDay = [...sanctionsList, 'p2|person|Ahmad Exampli|sanction'];
    const equal = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(sameDay)],
      dataset,
      publicationOrder: 'newer',
    }).catch((e: unknown) => e);
    expect(equal).toMatchObject({
      code: 'outdated_publication',
      message: expect.stringMatching(
        /^the list is published 2026-03-01T00:00:00.000Z, not after the current /,
      ),
    });
    expect(
      await loadSnapshot(db.pool, { format: linesFormat, paths: [await file(sameDay)], dataset }),
    ).toMatchObject({ snapshot: { version: 2 } });

    // An operator replacing a bad publication loads the older one on purpose.
    const rolledBack = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(older)],
      dataset,
      publicationOrder: 'any',
    });
    expect(rolledBack.snapshot).toMatchObject({ version: 3, publishedAt: new Date('2026-02-01T00:00:00Z') });
    expect((await currentSnapshots(db.pool, [dataset]))[0]!.id).toBe(rolledBack.snapshot.id);
  });

  it('refuses a second concurrent load of a dataset and cleans up after a loader that died', async () => {
    const key = 'casescreen:source-dataset:busy';
    const holder = await db.pool.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
      const busy = await loadSnapshot(db.pool, {
        format: linesFormat,
        paths: [await file(sanctionsList)],
        dataset: 'busy',
      }).catch((e: unknown) => e);
      expect(busy).toMatchObject({ code: 'busy' });
    } finally {
      await holder.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
      holder.release();
    }

    // A loader that died left a `loading` snapshot with some rows.
    const orphan = `snap_${'0'.repeat(31)}1`;
    await db.pool.query(
      `INSERT INTO source_snapshots (id, dataset, format, content_hash) VALUES ($1, 'busy', 'test-lines', $2)`,
      [orphan, 'a'.repeat(64)],
    );
    await db.pool.query(
      `INSERT INTO source_snapshot_entities (snapshot_id, entity_id, entity) VALUES ($1, 'x', '{"id":"x"}')`,
      [orphan],
    );
    await loadSnapshot(db.pool, { format: linesFormat, paths: [await file(sanctionsList)], dataset: 'busy' });
    const [abandoned] = (await listSnapshots(db.pool, { dataset: 'busy' })).filter((s) => s.id === orphan);
    expect(abandoned).toMatchObject({ status: 'failed', error: expect.stringMatching(/^abandoned/) });
    expect(await rowsOf(orphan)).toBe(0);
  });

  it('stops on an abort signal and leaves nothing behind', async () => {
    const controller = new AbortController();
    const many = Array.from({ length: 50 }, (_, i) => `e${i}|person|Person ${i}|sanction`);
    await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(many)],
      dataset: 'aborts',
      publishedAt: new Date('2026-03-01T00:00:00Z'),
    });

    const second = loadSnapshot(db.pool, {
      format: {
        ...linesFormat,
        async *parse(paths, options) {
          let n = 0;
          for await (const entity of linesFormat.parse(paths, options)) {
            // Aborted (Ctrl-C) once several batches are stored.
            if (++n === 20) controller.abort();
            yield entity;
          }
        },
      },
      paths: [await file([...many, 'extra|person|Extra|sanction'])],
      dataset: 'aborts',
      batchSize: 5,
      signal: controller.signal,
    });
    await expect(second).rejects.toThrow(/abort/i);
    const snapshots = await listSnapshots(db.pool, { dataset: 'aborts' });
    expect(snapshots.map((s) => [s.status, s.current])).toEqual([
      ['failed', false],
      ['ready', true],
    ]);
    expect(await rowsOf(snapshots[0]!.id)).toBe(0);
  });

  it('keeps ready snapshots immutable and lets only ready snapshots become current', async () => {
    const { snapshot } = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(sanctionsList)],
      dataset: 'immutable',
    });
    await expect(
      db.pool.query('UPDATE source_snapshots SET entity_count = 0 WHERE id = $1', [snapshot.id]),
    ).rejects.toThrow(/immutable/);
    await expect(db.pool.query('DELETE FROM source_snapshots WHERE id = $1', [snapshot.id])).rejects.toThrow(
      /immutable/,
    );
    await expect(
      db.pool.query(`UPDATE source_snapshot_entities SET entity = '{}' WHERE snapshot_id = $1`, [
        snapshot.id,
      ]),
    ).rejects.toThrow(/immutable/);
    await expect(
      db.pool.query('DELETE FROM source_snapshot_entities WHERE snapshot_id = $1', [snapshot.id]),
    ).rejects.toThrow(/immutable/);
    await expect(
      db.pool.query(`INSERT INTO source_snapshot_entities VALUES ($1, 'sneaked', '{"id":"sneaked"}')`, [
        snapshot.id,
      ]),
    ).rejects.toThrow(/immutable/);

    const loading = `snap_${'0'.repeat(31)}2`;
    await db.pool.query(
      `INSERT INTO source_snapshots (id, dataset, format, content_hash) VALUES ($1, 'immutable', 'test-lines', $2)`,
      [loading, 'b'.repeat(64)],
    );
    await expect(
      db.pool.query(`UPDATE source_dataset_current SET snapshot_id = $1 WHERE dataset = 'immutable'`, [
        loading,
      ]),
    ).rejects.toThrow(/not ready/);
    expect(await rowsOf(snapshot.id)).toBe(3);
  });

  it('reads a snapshot page by page, every entity once, in id order', async () => {
    const lines = Array.from(
      { length: 11 },
      (_, i) => `k${String(i).padStart(2, '0')}|person|P ${i}|sanction`,
    );
    const { snapshot } = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(lines)],
      dataset: 'pages',
      publishedAt: new Date('2026-03-01T00:00:00Z'),
    });
    for (const pageSize of [1, 5, 11, 100]) {
      const ids: string[] = [];
      for await (const entity of readSnapshotEntities(db.pool, snapshot.id, { pageSize }))
        ids.push(entity.id);
      expect(ids).toEqual(lines.map((line) => `pages:${line.split('|')[0]}`));
    }
    // A consumer that stops early leaves nothing pending behind.
    for await (const entity of readSnapshotEntities(db.pool, snapshot.id, { pageSize: 2 })) {
      expect(entity.id).toBe('pages:k00');
      break;
    }
    await expect(entityIdsOf('snap_ffffffffffffffffffffffffffffffff')).rejects.toThrow(/no source snapshot/);

    async function entityIdsOf(id: string) {
      for await (const _ of readSnapshotEntities(db.pool, id)) {
        // nothing
      }
    }
  });
});

describe('staleness and source availability', () => {
  let db: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(path.join(os.tmpdir(), 'availability-test-'));
  });
  afterAll(async () => {
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  });

  async function load(dataset: string, lines: string[], publishedAt?: Date) {
    const target = path.join(dir, `${dataset}.txt`);
    await writeFile(target, `${lines.join('\n')}\n`);
    return (await loadSnapshot(db.pool, { format: linesFormat, paths: [target], dataset, publishedAt }))
      .snapshot;
  }

  const day = 86_400_000;

  it('measures age from the publisher date against the threshold', async () => {
    const published = await load('dated', ['a|person|A|sanction'], new Date('2026-01-01T00:00:00Z'));
    await load('other_topic', ['a|person|A|poi'], new Date('2026-01-07T00:00:00Z'));

    const now = new Date('2026-01-08T00:00:00Z');
    const statuses = await listDatasets(db.pool, now, 7 * day);
    expect(statuses.find((s) => s.dataset === 'dated')).toMatchObject({
      snapshot: { id: published.id },
      ageMs: 7 * day,
      stale: false,
    });
    expect(statuses.find((s) => s.dataset === 'other_topic')).toMatchObject({ ageMs: day, stale: false });
    expect((await listDatasets(db.pool, now, 7 * day - 1)).find((s) => s.dataset === 'dated')!.stale).toBe(
      true,
    );
  });

  const ref = (s: { id: string; dataset: string; version: number }) => ({
    id: s.id,
    dataset: s.dataset,
    version: s.version,
  });

  it('makes a check type available only when every current snapshot providing its topics is fresh', async () => {
    const fresh = await load(
      'fresh_sanctions',
      ['s|person|S|sanction', 'x|company|X|crime.fin'],
      new Date('2026-02-01'),
    );
    const staleSanctions = await load(
      'stale_sanctions',
      ['s|person|S|sanction.linked'],
      new Date('2025-01-01'),
    );
    const stalePep = await load('stale_pep', ['p|person|P|role.rca'], new Date('2025-01-01'));
    await load('other', ['o|person|O|poi'], new Date('2026-02-01'));
    // 'dated' of the test above provides sanctions too, published 2026-01-01: stale as well.
    const [dated] = await currentSnapshots(db.pool, ['dated']);

    const now = new Date('2026-02-03T00:00:00Z');
    const result = await sourceAvailability(
      db.pool,
      ['sanctions', 'pep', 'business_entity_risk'],
      now,
      14 * day,
    );
    expect(result).toEqual([
      {
        // One fresh list does not make up for a stale one: screening the fresh list alone would
        // answer "no match" for everyone only on the stale list.
        checkType: 'sanctions',
        available: false,
        snapshots: [ref(fresh)],
        staleSnapshots: [ref(dated!), ref(staleSanctions)],
      },
      { checkType: 'pep', available: false, snapshots: [], staleSnapshots: [ref(stalePep)] },
      { checkType: 'business_entity_risk', available: true, snapshots: [ref(fresh)], staleSnapshots: [] },
    ]);
    // Everything stale a year later; asking for one check type answers for that one only.
    expect(await sourceAvailability(db.pool, ['sanctions'], new Date('2027-03-01'), 14 * day)).toEqual([
      {
        checkType: 'sanctions',
        available: false,
        snapshots: [],
        staleSnapshots: [ref(dated!), ref(fresh), ref(staleSanctions)],
      },
    ]);

    // A newer version of the stale list is fresh, but 'dated' still refuses the check type ...
    const renewed = await load(
      'stale_sanctions',
      ['s|person|S|sanction.linked', 't|person|T|sanction'],
      new Date('2026-02-02'),
    );
    const [sanctions] = await sourceAvailability(db.pool, ['sanctions'], now, 14 * day);
    expect(sanctions).toEqual({
      checkType: 'sanctions',
      available: false,
      snapshots: [ref(fresh), ref(renewed)],
      staleSnapshots: [ref(dated!)],
    });
    // ... until it is retired: it no longer counts at all.
    expect(await retireDataset(db.pool, 'dated')).toMatchObject({ outcome: 'retired' });
    expect(await sourceAvailability(db.pool, ['sanctions'], now, 14 * day)).toEqual([
      {
        checkType: 'sanctions',
        available: true,
        snapshots: [ref(fresh), ref(renewed)],
        staleSnapshots: [],
      },
    ]);
    // The threshold counts: the same lists with a shorter one.
    expect((await sourceAvailability(db.pool, ['sanctions'], now, day))[0]).toMatchObject({
      available: false,
      snapshots: [ref(renewed)],
      staleSnapshots: [ref(fresh)],
    });
  });

  it('refuses a check type that no current snapshot provides, loaded or not', async () => {
    // Only 'other_topic' (topic poi) and 'other' provide nothing: no list for PEP checks is fresh or stale.
    const retired = await retireDataset(db.pool, 'stale_pep');
    expect(retired).toMatchObject({ outcome: 'retired' });
    expect(await sourceAvailability(db.pool, ['pep'], new Date('2026-02-03T00:00:00Z'), 14 * day)).toEqual([
      { checkType: 'pep', available: false, snapshots: [], staleSnapshots: [] },
    ]);
    // The retired snapshot is still there, and the entities it held.
    expect(
      (await listSnapshots(db.pool, { dataset: 'stale_pep' })).map((s) => [s.status, s.current]),
    ).toEqual([['ready', false]]);
  });
});

describe('retiring a dataset', () => {
  const day = 86_400_000;
  let db: TestDatabase;
  let dir: string;
  let fileCount = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(path.join(os.tmpdir(), 'retire-test-'));
  });
  afterAll(async () => {
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  });

  async function file(lines: string[]): Promise<string> {
    const target = path.join(dir, `list-${++fileCount}.txt`);
    await writeFile(target, `${lines.join('\n')}\n`);
    return target;
  }

  const list = [
    '#published 2026-03-01T00:00:00Z',
    'p1|person|Ivan Testov|sanction',
    'p2|person|Olga Testova|sanction',
  ];

  it('takes the dataset out of screening, keeps its snapshots, and a later load makes it current as the next version', async () => {
    const input = await file(list);
    const v1 = (await loadSnapshot(db.pool, { format: linesFormat, paths: [input], dataset: 'retired' }))
      .snapshot;
    const v2 = (
      await loadSnapshot(db.pool, {
        format: linesFormat,
        paths: [await file([...list, 'p3|person|Third Person|sanction'])],
        dataset: 'retired',
      })
    ).snapshot;
    await loadSnapshot(db.pool, { format: linesFormat, paths: [await file(list)], dataset: 'kept' });

    expect(await retireDataset(db.pool, 'retired')).toEqual({ outcome: 'retired', snapshot: v2 });
    expect((await currentSnapshots(db.pool)).map((s) => s.dataset)).toEqual(['kept']);
    expect((await listDatasets(db.pool, new Date(), 14 * day)).map((d) => d.dataset)).toEqual(['kept']);
    // Both versions are kept as they were, readable (matches refer to them), none current.
    expect(
      (await listSnapshots(db.pool, { dataset: 'retired' })).map((s) => [s.id, s.status, s.current]),
    ).toEqual([
      [v2.id, 'ready', false],
      [v1.id, 'ready', false],
    ]);
    const ids: string[] = [];
    for await (const entity of readSnapshotEntities(db.pool, v2.id)) ids.push(entity.id);
    expect(ids).toEqual(['retired:p1', 'retired:p2', 'retired:p3']);

    // Twice, or a dataset never loaded: nothing to retire.
    expect(await retireDataset(db.pool, 'retired')).toEqual({ outcome: 'no_current_snapshot' });
    expect(await retireDataset(db.pool, 'never_loaded')).toEqual({ outcome: 'no_current_snapshot' });
    // A delta has no base any more.
    const delta = await loadSnapshot(db.pool, {
      format: linesDeltaFormat,
      paths: [await file(['-p1'])],
      dataset: 'retired',
    }).catch((e: unknown) => e);
    expect(delta).toMatchObject({ code: 'no_current_snapshot' });

    // The same bytes as version 1 again are not "unchanged" (nothing is current): version 3.
    const back = await loadSnapshot(db.pool, { format: linesFormat, paths: [input], dataset: 'retired' });
    expect(back.unchanged).toBe(false);
    expect(back.snapshot).toMatchObject({ version: 3, contentHash: v1.contentHash, entityCount: 2 });
    expect((await currentSnapshots(db.pool, ['retired']))[0]!.id).toBe(back.snapshot.id);
  });

  it('refuses to retire a dataset while a load of it runs, which would make it current again', async () => {
    await loadSnapshot(db.pool, { format: linesFormat, paths: [await file(list)], dataset: 'in_flight' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const parsing = new Promise<void>((resolve) => {
      started = resolve;
    });
    const gated: SourceFormat = {
      ...linesFormat,
      async *parse(paths, options) {
        started();
        await gate;
        yield* linesFormat.parse(paths, options);
      },
    };
    const loading = loadSnapshot(db.pool, {
      format: gated,
      paths: [await file([...list, 'p9|person|Late Person|sanction'])],
      dataset: 'in_flight',
    });
    try {
      await parsing;
      expect(await retireDataset(db.pool, 'in_flight')).toEqual({ outcome: 'busy' });
      // Other datasets are not held up.
      await loadSnapshot(db.pool, { format: linesFormat, paths: [await file(list)], dataset: 'beside' });
      expect(await retireDataset(db.pool, 'beside')).toMatchObject({ outcome: 'retired' });
    } finally {
      release();
    }
    const loaded = await loading;
    expect(loaded.snapshot).toMatchObject({ dataset: 'in_flight', version: 2 });
    expect(await retireDataset(db.pool, 'in_flight')).toEqual({
      outcome: 'retired',
      snapshot: loaded.snapshot,
    });
    // The lock went with the retire's transaction: the dataset loads again at once.
    const again = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [await file(list)],
      dataset: 'in_flight',
    });
    expect(again.snapshot.version).toBe(3);
  });
});

describe('a snapshot loaded before publication dates were required', () => {
  const day = 86_400_000;
  let db: TestDatabase;
  let dir: string;
  let list: string;
  let undatedId: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'undated-snapshot-'));
    list = path.join(dir, 'list.txt');
    // The lines format states no date without a #published line: loaded as loads were before.
    await writeFile(list, 'p1|person|Ivan Testov|sanction\nc1|company|Example Trading LLC|sanction\n');
    const legacy = await createDatabaseWithUndatedSnapshot({
      format: linesFormat,
      paths: [list],
      dataset: 'legacy',
    });
    db = legacy.db;
    undatedId = legacy.snapshotId;
  });
  afterAll(async () => {
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('is stale, of unknown age, at any threshold however recently it was loaded, and refuses its check type', async () => {
    const [current] = await currentSnapshots(db.pool, ['legacy']);
    expect(current).toMatchObject({ id: undatedId, version: 1, publishedAt: null, missingFiles: [] });
    const now = new Date(current!.loadedAt.getTime() + 1000);
    expect(await listDatasets(db.pool, now, 3650 * day)).toEqual([
      { dataset: 'legacy', snapshot: current, ageMs: null, stale: true },
    ]);
    expect(await sourceAvailability(db.pool, ['sanctions'], now, 3650 * day)).toEqual([
      {
        checkType: 'sanctions',
        available: false,
        snapshots: [],
        staleSnapshots: [{ id: undatedId, dataset: 'legacy', version: 1 }],
      },
    ]);
  });

  it('cannot be made again: the database refuses a ready snapshot without a publication date', async () => {
    const id = `snap_${'0'.repeat(31)}3`;
    await db.pool.query(
      `INSERT INTO source_snapshots (id, dataset, format, content_hash) VALUES ($1, 'legacy', 'test-lines', $2)`,
      [id, 'c'.repeat(64)],
    );
    await expect(
      db.pool.query(
        `UPDATE source_snapshots SET status = 'ready', version = 9, loaded_at = now(), entity_count = 0,
                counts_by_kind = '{}', counts_by_topic = '{}' WHERE id = $1`,
        [id],
      ),
    ).rejects.toThrow(/source_snapshots_ready_published/);
    await db.pool.query(`UPDATE source_snapshots SET status = 'failed', error = 'test' WHERE id = $1`, [id]);
  });

  it('takes no delta, whose date would make a list of unknown age look fresh', async () => {
    const deltaFile = path.join(dir, 'delta.txt');
    await writeFile(deltaFile, '#published 2026-03-02T00:00:00Z\n+n1|person|New Person|sanction\n');
    const refused = await loadSnapshot(db.pool, {
      format: linesDeltaFormat,
      paths: [deltaFile],
      dataset: 'legacy',
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'undated_base',
      message: `dataset legacy version 1 (${undatedId}) has no publication date (loaded before every load needed one), so a delta cannot be shown to follow it; load a full list first`,
    });
  });

  it('is replaced by the same bytes loaded again with a date, which are not "unchanged"', async () => {
    const unstated = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [list],
      dataset: 'legacy',
    }).catch((e: unknown) => e);
    expect(unstated).toMatchObject({ code: 'no_publication_date' });

    const today = new Date(new Date().toISOString().slice(0, 10));
    const dated = await loadSnapshot(db.pool, {
      format: linesFormat,
      paths: [list],
      dataset: 'legacy',
      publishedAt: today,
    });
    expect(dated).toMatchObject({ unchanged: false, snapshot: { version: 2, publishedAt: today } });
    const [status] = await listDatasets(db.pool, new Date(), 14 * day);
    expect(status).toMatchObject({ snapshot: { id: dated.snapshot.id }, stale: false });
  });
});
