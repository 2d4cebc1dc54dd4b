import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseViewsProjection } from '../../../projections/cases/caseProjection.js';
import { findCaseView, listCaseViews } from '../../../projections/cases/queries.js';
import { rebuildProjection } from '../../../projections/rebuild.js';
import { findProjection } from '../../../projections/registry.js';
import { installProjections, loadRegistryEntry } from '../../../projections/registryStore.js';
import { startProjections } from '../../../projections/startProjections.js';
import { type CaseCommand, queuedChecks } from '../../../src/cases/caseDecide.js';
import { type Actor, CASE_CATEGORY, caseStreamName } from '../../../src/cases/caseEvents.js';
import { loadCase, runCaseCommand } from '../../../src/cases/caseStream.js';
import { checkId, checkReference, matchId } from '../../../src/cases/references.js';
import type { EventStore, RecordedEvent } from '../../../src/eventStore/eventStore.js';
import { runCliCaptured } from '../../support/cli.js';
import { eventually } from '../../support/eventually.js';
import { fastRunnerOptions } from '../../support/subscriptionFixtures.js';
import type { TestDatabase } from '../../support/testDatabase.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const newCaseReference = () =>
  `${Array.from({ length: 3 }, () => LETTERS[randomInt(26)]).join('')}${String(randomInt(1_000_000)).padStart(6, '0')}`;

const ACTOR: Actor = { type: 'api_client', id: randomUUID(), displayName: 'test key' };
const V1 = { case_views: 'case_views_v1' };

interface Row {
  case_reference: string;
  account_id: string;
  group_id: string;
  revision: string;
  state: unknown;
  created_at: Date;
  updated_at: Date;
}

describe('case_views projection', () => {
  let opened: TestEventStore | undefined;
  let db: TestDatabase;
  let store: EventStore;
  const accountId = randomUUID();
  const groupId = randomUUID();

  beforeAll(async () => {
    opened = await openTestEventStore();
    ({ db, store } = opened);
    await installProjections(db.pool, [caseViewsProjection]);
  });
  afterAll(() => opened?.close());

  type CommandBody = CaseCommand extends infer C ? (C extends CaseCommand ? Omit<C, 'now'> : never) : never;

  async function run(caseReference: string, command: CommandBody) {
    // A command appends a few events at most; each id is fixed for all attempts of this command.
    const ids = Array.from({ length: 8 }, () => randomUUID());
    const outcome = await runCaseCommand(
      store,
      caseReference,
      { ...command, now: new Date().toISOString() } as CaseCommand,
      (index) => ids[index]!,
    );
    if (!outcome.ok) throw new Error(`${command.type} refused: ${outcome.rejection.message}`);
  }

  /** A case with a completed sanctions check (two matches, one reviewed) and a queued pep check. */
  async function writeCase(group = groupId): Promise<string> {
    const ref = newCaseReference();
    await run(ref, {
      type: 'CreateCase',
      groupMemberIds: [],
      caseReference: ref,
      accountId,
      groupId: group,
      subject: {
        subjectReference: 'sub_000000000000000000000001',
        type: 'company',
        displayName: 'Acme Trading LLC',
        countries: ['AE'],
        birthDate: null,
        externalReference: null,
        metadata: { zeta: 1, alpha: { nested: [1, 2] } },
      },
      ownerUserId: null,
      collaboratorUserIds: [],
      externalReference: null,
      notes: null,
      metadata: {},
      screeningProfileId: 'default',
      checks: queuedChecks(ref, ['sanctions', 'pep'], { reference: checkReference, id: checkId }),
      monitoring: { enable: false, ownerUserId: null, collaboratorUserIds: [] },
      actor: ACTOR,
    });
    const sanctions = checkReference(ref, 1);
    const matches = ['E-1', 'E-2'].map((entity, index) => ({
      matchId: matchId(sanctions, entity),
      rank: index + 1,
      displayName: `Acme Trading (${entity})`,
      score: 0.9 - index / 10,
      matchedEntityId: entity,
      matchType: 'name',
      reason: { tokens: ['acme', 'trading'] },
      sources: [{ name: 'UN', url: null, dataset: 'un_sc_sanctions', priority: 2 }],
      sourceRecordRef: null,
      sourceSnapshotId: null,
      supportingFields: {},
      topics: ['sanction'],
      datasets: ['un_sc_sanctions'],
    }));
    await run(ref, { type: 'StartCheck', checkReference: sanctions, attempt: 1, worker: 'w' });
    await run(ref, {
      type: 'CompleteCheck',
      checkReference: sanctions,
      attempt: 1,
      screeningProfileId: 'default',
      threshold: 0.7,
      snapshots: [],
      matches,
    });
    await run(ref, {
      type: 'ReviewMatch',
      matchId: matches[0]!.matchId,
      reviewStatus: 'confirmed_match',
      note: null,
      actor: ACTOR,
    });
    return ref;
  }

  /** The case's events as the feed delivers them (with positions), once they are on it. */
  async function feedEvents(refs: readonly string[]): Promise<RecordedEvent[]> {
    const streams = new Set(refs.map(caseStreamName));
    const expected = await Promise.all(
      refs.map(async (ref) => (await store.readStream(caseStreamName(ref))).events.length),
    );
    const total = expected.reduce((a, b) => a + b, 0);
    return eventually(async () => {
      const events: RecordedEvent[] = [];
      let after: RecordedEvent['position'] | null = null;
      for (;;) {
        const page = await store.readFeed({ after, categories: [CASE_CATEGORY], limit: 500 });
        if (page.length === 0) break;
        events.push(...page.filter((event) => streams.has(event.streamName)));
        after = page.at(-1)!.position;
      }
      if (events.length !== total) throw new Error(`${events.length} of ${total} events on the feed`);
      return events;
    });
  }

  async function handle(events: RecordedEvent[]) {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await caseViewsProjection.handle(events, client, V1);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }

  const rowsOf = async (table: string, refs: readonly string[]) =>
    (
      await db.pool.query<Row>(
        `SELECT * FROM ${table} WHERE case_reference = ANY($1) ORDER BY case_reference`,
        [[...refs]],
      )
    ).rows;

  it('folds each case with evolve, several cases interleaved in one batch', async () => {
    const first = await writeCase();
    const second = await writeCase();
    await run(first, {
      type: 'AddMaterial',
      materialId: 'material_000000000000000000000001',
      title: 'Registry extract',
      note: 'Different director',
      url: null,
      attachments: [],
      actor: ACTOR,
    });
    const events = await feedEvents([first, second]);
    await handle(events);

    for (const ref of [first, second]) {
      const stream = (await loadCase(store, ref)).state!;
      const view = await findCaseView(db.pool, ref);
      expect(view).toMatchObject({ caseReference: ref, accountId, groupId, revision: stream.revision });
      expect(view!.state).toEqual(stream);
      expect(view!.createdAt.toISOString()).toBe(stream.createdAt);
      expect(view!.updatedAt.toISOString()).toBe(stream.updatedAt);
    }
    expect((await findCaseView(db.pool, first))!.state.materials).toHaveLength(1);
    expect(
      (await listCaseViews(db.pool, { accountId, groupIds: [groupId] })).map((view) => view.caseReference),
    ).toEqual(expect.arrayContaining([first, second]));
    expect(await listCaseViews(db.pool, { accountId, groupIds: [randomUUID()] })).toEqual([]);
  });

  it('changes nothing when a batch is replayed, in whole or in part', async () => {
    const ref = await writeCase();
    const events = await feedEvents([ref]);
    await handle(events.slice(0, 2));
    await handle(events);
    const applied = await rowsOf('case_views_v1', [ref]);
    expect(applied).toHaveLength(1);
    expect(Number(applied[0]!.revision)).toBe(events.length - 1);

    const writer = async () =>
      (
        await db.pool.query<{ xmin: string }>(
          'SELECT xmin::text AS xmin FROM case_views_v1 WHERE case_reference = $1',
          [ref],
        )
      ).rows[0]!.xmin;
    const writtenBy = await writer();

    await handle(events);
    await handle(events.slice(0, 1));
    await handle([...events.slice(1), ...events.slice(1)]);
    expect(await rowsOf('case_views_v1', [ref])).toEqual(applied);
    // Not even rewritten with the same values: the row version is the one the first apply made.
    expect(await writer()).toBe(writtenBy);

    // A later event moves it on, from the stored state.
    await run(ref, {
      type: 'ReviewMatch',
      matchId: (await findCaseView(db.pool, ref))!.state.checks[0]!.matches[1]!.matchId,
      reviewStatus: 'not_relevant',
      note: 'Other company',
      actor: ACTOR,
    });
    const more = await feedEvents([ref]);
    await handle(more.slice(-1));
    expect((await findCaseView(db.pool, ref))!.state).toEqual((await loadCase(store, ref)).state);
  });

  it('refuses a batch that skips one of a case’s events instead of storing a state lacking it', async () => {
    const ref = await writeCase();
    const events = await feedEvents([ref]);
    await handle(events.slice(0, 1));
    await expect(handle(events.slice(2))).rejects.toThrow(/an event is missing/);
    expect(Number((await rowsOf('case_views_v1', [ref]))[0]!.revision)).toBe(0);
  });

  it('is registered, and rebuilds into a new version with the same rows', async () => {
    expect(findProjection('case_views')).toBe(caseViewsProjection);
    const refs = [await writeCase(), await writeCase(randomUUID())];
    const workers = await startProjections({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      definitions: [caseViewsProjection],
      runner: fastRunnerOptions,
    });
    try {
      // The rows themselves, not the feed's head: another test's open transaction on the shared
      // server may hold the latest appends back from the feed for a moment.
      await eventually(async () => {
        const { rows } = await db.pool.query('SELECT 1 FROM case_views WHERE case_reference = ANY($1)', [
          refs,
        ]);
        expect(rows).toHaveLength(refs.length);
      });
      // And every case of this database folded to its last event: the snapshot below is compared
      // whole. Not "up to the feed's head": an append committed while another test file's transaction
      // was open is not on the feed yet, so a head read then can come before it.
      await eventually(async () => {
        const { rows } = await db.pool.query<{ behind: number }>(
          `SELECT count(*)::int AS behind
             FROM (SELECT stream_name, max(stream_revision) AS revision FROM es_events
                    WHERE category = $1 GROUP BY stream_name) s
             LEFT JOIN case_views v ON v.case_reference = substr(s.stream_name, length($1) + 2)
            WHERE v.revision IS DISTINCT FROM s.revision`,
          [CASE_CATEGORY],
        );
        expect(rows[0]!.behind).toBe(0);
      });
    } finally {
      await workers.stop();
    }
    const allRows = async (table: string) =>
      (await db.pool.query<Row>(`SELECT * FROM ${table} ORDER BY case_reference`)).rows;
    const before = await allRows('case_views');
    expect(before.map((row) => row.case_reference)).toEqual(expect.arrayContaining(refs));
    expect(before.length).toBeGreaterThan(refs.length);
    const entry = await loadRegistryEntry(db.pool, 'case_views');

    const result = await rebuildProjection({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      definition: caseViewsProjection,
      runner: fastRunnerOptions,
      releaseWaitMs: 5_000,
    });
    expect(result).toMatchObject({ fromVersion: entry!.activeVersion, toVersion: entry!.activeVersion + 1 });
    expect(await loadRegistryEntry(db.pool, 'case_views')).toMatchObject({
      activeVersion: entry!.activeVersion + 1,
    });
    // Every row of the old version, the same in the new one (states, revisions, times).
    expect(await allRows('case_views')).toEqual(before);
    expect(await allRows(`case_views_v${entry!.activeVersion + 1}`)).toEqual(before);
    expect(result.oldVersionDropped).toBe(true);

    // The operator's command does the same.
    const cli = await runCliCaptured(['projections', 'rebuild', 'case_views'], {
      DATABASE_URL: db.url,
      FEED_POLL_INTERVAL_MS: '100',
      LOG_LEVEL: 'silent',
    });
    expect(cli).toMatchObject({ code: 0, stderr: '' });
    expect(cli.stdout).toContain(`Swapped case_views to v${entry!.activeVersion + 2}`);
    expect(await allRows('case_views')).toEqual(before);
  });
});
