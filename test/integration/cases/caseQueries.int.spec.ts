import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCaseView } from '../../../projections/cases/queries.js';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { startProjections } from '../../../projections/startProjections.js';
import type { CaseCommand } from '../../../src/cases/caseDecide.js';
import type { Actor, FoundMatch } from '../../../src/cases/caseEvents.js';
import { readCase } from '../../../src/cases/caseReadModel.js';
import { loadCase } from '../../../src/cases/caseStream.js';
import { checkId, checkReference, matchId } from '../../../src/cases/references.js';
import type { EventStore, ReadStreamOptions } from '../../../src/eventStore/eventStore.js';
import type { CheckType } from '../../../src/screening/checkTypes.js';
import { SCOPES, type Scope } from '../../../src/workspace/keyPolicy.js';
import type { CreatedApiKey, NewApiKey } from '../../../src/workspace/keyStore.js';
import {
  createCaseNow,
  createCaseWorkspace,
  createKey,
  getJson,
  runCase,
  startApiServer,
} from '../../support/caseApi.js';
import { eventually } from '../../support/eventually.js';
import { fastRunnerOptions } from '../../support/subscriptionFixtures.js';
import type { TestDatabase } from '../../support/testDatabase.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

type Json = Record<string, unknown>;
interface Envelope {
  data?: Json & { checks?: Json[] };
  error?: { code: string; message: string; details: unknown };
  meta: { request_id: string };
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A fresh case reference; streams are global, so each test's cases are its own. */
const newCaseReference = () =>
  `${Array.from({ length: 3 }, () => LETTERS[randomInt(26)]).join('')}${String(randomInt(1_000_000)).padStart(6, '0')}`;

describe('GET /v1/cases/{case_reference} and GET /v1/checks/{check_reference}', () => {
  let opened: TestEventStore | undefined;
  let db: TestDatabase;
  let store: EventStore;
  let app: FastifyInstance | undefined;
  let url: string;
  let accountId: string;
  let defaultGroupId: string;
  let otherGroupId: string;
  const keys: Record<string, CreatedApiKey> = {};

  beforeAll(async () => {
    opened = await openTestEventStore();
    ({ db, store } = opened);
    // As every process does at start-up: the read model's views exist before anything serves.
    await installProjections(db.pool, projections);
    const workspace = await createCaseWorkspace(db.pool, {
      account: 'Queries Co',
      groups: ['Payments EU'],
      foreign: 'Elsewhere Ltd',
    });
    ({ accountId, defaultGroupId } = workspace);
    otherGroupId = workspace.groupIds[0]!;

    const newKey = (scopes: readonly Scope[], more: Partial<NewApiKey> = {}) =>
      createKey(db.pool, accountId, scopes, more);
    keys.full = await newKey(SCOPES, { finalDecision: true, groups: { kind: 'all' } });
    keys.agent = await newKey(SCOPES, { actorType: 'agent', groups: { kind: 'all' } });
    keys.reader = await newKey(['cases:read', 'checks:read']);
    keys.casesOnly = await newKey(['cases:read']);
    keys.checksOnly = await newKey(['checks:read']);
    keys.otherGroup = await newKey(SCOPES, { groups: { kind: 'ids', ids: [otherGroupId] } });
    keys.foreign = await createKey(db.pool, workspace.foreignAccountId, SCOPES, {
      finalDecision: true,
      groups: { kind: 'all' },
    });

    ({ app, url } = await startApiServer({ pool: db.pool, store }));
  });
  afterAll(async () => {
    await app?.close();
    await opened?.close();
  });

  const get = (path: string, key: CreatedApiKey | null = keys.full!) =>
    getJson<Envelope>(`${url}${path}`, key);

  // ---- writing cases the way the command side does ------------------------------------------

  const actorOf = (key: CreatedApiKey): Actor => ({
    type: key.key.actorType,
    id: key.key.id,
    displayName: key.key.name,
  });
  const now = () => new Date().toISOString();

  type CommandBody = CaseCommand extends infer C ? (C extends CaseCommand ? Omit<C, 'now'> : never) : never;

  /** Runs the command now. */
  const run = (caseReference: string, command: CommandBody) =>
    runCase(store, caseReference, { ...command, now: now() } as CaseCommand);

  async function createCase(types: CheckType[], groupId = defaultGroupId) {
    const caseReference = newCaseReference();
    await run(
      caseReference,
      createCaseNow(
        {
          caseReference,
          accountId,
          groupId,
          externalReference: 'onboarding-7',
          notes: 'New customer',
          metadata: { channel: 'api' },
          actor: actorOf(keys.full!),
        },
        {
          displayName: 'Ivan Petrov',
          countries: ['RU'],
          birthDate: { year: 1970, month: 3 },
          externalReference: 'crm-42',
          metadata: { segment: 'retail' },
        },
        types,
      ),
    );
    return caseReference;
  }

  function found(check: string, entityId: string, rank: number, score: number): FoundMatch {
    return {
      matchId: matchId(check, entityId),
      rank,
      displayName: `Ivan Petrov (${entityId})`,
      score,
      matchedEntityId: entityId,
      matchType: 'name_and_birth_date',
      reason: { name_score: score },
      sources: [
        {
          name: 'OFAC SDN',
          url: 'https://sanctionslist.ofac.treas.gov/',
          dataset: 'us_ofac_sdn',
          priority: 1,
        },
      ],
      sourceRecordRef: `SDN-${rank}`,
      sourceSnapshotId: 'snap_1',
      supportingFields: { birth_year: 1970 },
      topics: ['sanction'],
      datasets: ['us_ofac_sdn'],
    };
  }

  const complete = (caseReference: string, ordinal: number, matches: FoundMatch[]) =>
    run(caseReference, {
      type: 'CompleteCheck',
      checkReference: checkReference(caseReference, ordinal),
      attempt: 1,
      screeningProfileId: 'default',
      threshold: 0.7,
      snapshots: [{ id: 'snap_1', dataset: 'us_ofac_sdn', version: 3 }],
      matches,
    });

  /** Sanctions completed with two matches (one dismissed), pep completed clean, business risk queued. */
  async function caseUnderReview() {
    const ref = await createCase(['sanctions', 'pep', 'business_entity_risk']);
    const sanctions = checkReference(ref, 1);
    const matches = [found(sanctions, 'Q-1', 1, 0.92), found(sanctions, 'Q-2', 2, 0.81)];
    await run(ref, { type: 'StartCheck', checkReference: sanctions, attempt: 1, worker: 'w1' });
    await complete(ref, 1, matches);
    await complete(ref, 2, []);
    await run(ref, {
      type: 'ReviewMatch',
      matchId: matches[1]!.matchId,
      reviewStatus: 'not_relevant',
      note: 'Different birth year',
      actor: actorOf(keys.full!),
    });
    return { ref, sanctions, matches };
  }

  // ---- 200 ------------------------------------------------------------------------------------

  it('returns the case with subject, checks, matches and guidance', async () => {
    const { ref, sanctions, matches } = await caseUnderReview();
    const { status, body } = await get(`/v1/cases/${ref}`);
    expect(status).toBe(200);
    expect(body.meta.request_id).toMatch(/^req_/);
    const data = body.data!;
    expect(data).toMatchObject({
      case_reference: ref,
      subject: {
        type: 'person',
        display_name: 'Ivan Petrov',
        countries: ['RU'],
        birth_date: { year: 1970, month: 3 },
        external_reference: 'crm-42',
        metadata: { segment: 'retail' },
      },
      group_id: defaultGroupId,
      owner_user_id: null,
      collaborator_user_ids: [],
      decision: 'pending_decision',
      decision_notes: null,
      resolved_by: null,
      resolved_at: null,
      external_reference: 'onboarding-7',
      metadata: { channel: 'api' },
      materials: [],
      created_by_actor: { type: 'api_client', id: keys.full!.key.id, display_name: keys.full!.key.name },
      requires_human_review: true,
    });
    expect(data.created_at).toEqual(expect.any(String));
    expect(data.updated_at).toEqual(expect.any(String));
    // Checks run: nothing can be decided yet, so no final decision is offered even to this key.
    expect(data.allowed_actions).toEqual(['add_material', 'review_matches', 'decide_check']);
    expect(data.allowed_actions).not.toContain('record_case_decision');
    expect(data.recommended_next_actions).toEqual(['wait_for_checks', 'review_matches']);

    const checks = data.checks!;
    expect(
      checks.map((c) => [c.check_reference, c.type, c.lifecycle_status, c.decision, c.match_count]),
    ).toEqual([
      [sanctions, 'sanctions', 'completed', 'pending_review', 2],
      [checkReference(ref, 2), 'pep', 'completed', 'no_matches_found', 0],
      [checkReference(ref, 3), 'business_entity_risk', 'queued', 'pending_review', 0],
    ]);
    expect(checks[0]).toMatchObject({
      id: checkId(sanctions),
      case_reference: ref,
      top_score: 0.92,
      failure_reason: null,
      blocking_items: [`match_pending_review:${matches[0]!.matchId}`],
      allowed_actions: ['review_matches', 'add_material'],
      recommended_next_actions: ['review_matches'],
      result_summary: { screening_profile_id: 'default', threshold: 0.7, match_count: 2, attempts: 1 },
    });
    expect(checks[0]!.started_at).toEqual(expect.any(String));
    expect(checks[0]!.checked_at).toEqual(expect.any(String));
    expect(checks[0]!.matches).toMatchObject([
      {
        match_id: matches[0]!.matchId,
        rank: 1,
        score: 0.92,
        review_status: 'pending_review',
        matched_entity_id: 'Q-1',
        sources: [{ name: 'OFAC SDN', dataset: 'us_ofac_sdn', priority: 1 }],
        review: {},
      },
      {
        match_id: matches[1]!.matchId,
        review_status: 'not_relevant',
        review: { status: 'not_relevant', note: 'Different birth year' },
      },
    ]);
    expect(checks[2]).toMatchObject({ top_score: null, matches: [], blocking_items: ['check_queued'] });
    expect(checks[2]!.started_at).toBeNull();

    // The check endpoint answers with the same Check the case holds.
    const check = await get(`/v1/checks/${sanctions}`);
    expect(check.status).toBe(200);
    expect(check.body.data).toEqual(checks[0]);
  });

  it('forms the guidance for the calling key: an agent is never offered record_case_decision', async () => {
    const ref = await createCase(['sanctions']);
    await complete(ref, 1, []);

    const client = (await get(`/v1/cases/${ref}`, keys.full!)).body.data!;
    expect(client.allowed_actions).toContain('record_case_decision');
    expect(client.recommended_next_actions).toEqual(['record_case_decision']);
    expect(client.requires_human_review).toBe(false);

    const agent = (await get(`/v1/cases/${ref}`, keys.agent!)).body.data!;
    expect(agent.allowed_actions).not.toContain('record_case_decision');
    expect(agent.recommended_next_actions).toEqual(['escalate_to_human']);
    expect(agent.requires_human_review).toBe(false);
    // Same facts, other guidance: an agent is not offered the check decision either.
    expect(agent.checks?.[0]?.allowed_actions).not.toContain('decide_check');
    expect(client.checks?.[0]?.allowed_actions).toContain('decide_check');
    const facts = (body: typeof agent) => ({
      ...body,
      allowed_actions: null,
      recommended_next_actions: null,
      checks: body.checks?.map((check) => ({
        ...check,
        allowed_actions: null,
        recommended_next_actions: null,
      })),
    });
    expect(facts(agent)).toEqual(facts(client));

    // With matches to look at, the agent is told to escalate at check level; the case waits for
    // its other check first (nothing is up for a person's decision while checks run).
    const { ref: reviewed, sanctions } = await caseUnderReview();
    const agentCase = (await get(`/v1/cases/${reviewed}`, keys.agent!)).body.data!;
    expect(agentCase.recommended_next_actions).toEqual(['wait_for_checks', 'review_matches']);
    const agentCheck = (await get(`/v1/checks/${sanctions}`, keys.agent!)).body.data!;
    expect(agentCheck.recommended_next_actions).toEqual(['review_matches', 'escalate_to_human']);
    for (const body of [agentCase, agentCheck, ...(agentCase.checks ?? [])]) {
      expect(body.allowed_actions).not.toContain('record_case_decision');
      expect(body.recommended_next_actions).not.toContain('record_case_decision');
    }

    // A key with only the read scopes may do nothing and is offered nothing it cannot do.
    const reader = (await get(`/v1/cases/${reviewed}`, keys.reader!)).body.data!;
    expect(reader.allowed_actions).toEqual([]);
  });

  // ---- read-your-writes ---------------------------------------------------------------------

  it('reflects every append at once while no projection runs (the stream is folded on read)', async () => {
    const ref = await createCase(['sanctions']);
    expect(await findCaseView(db.pool, ref)).toBeUndefined();
    expect((await get(`/v1/cases/${ref}`)).body.data!.checks![0]!.lifecycle_status).toBe('queued');

    await run(ref, { type: 'StartCheck', checkReference: checkReference(ref, 1), attempt: 1, worker: 'w1' });
    expect((await get(`/v1/checks/${checkReference(ref, 1)}`)).body.data!.lifecycle_status).toBe('running');

    await complete(ref, 1, [found(checkReference(ref, 1), 'Q-9', 1, 0.77)]);
    const check = (await get(`/v1/checks/${checkReference(ref, 1)}`)).body.data!;
    expect(check).toMatchObject({
      lifecycle_status: 'completed',
      decision: 'pending_review',
      match_count: 1,
    });
    expect(await findCaseView(db.pool, ref)).toBeUndefined();
  });

  it('reads the projection row and folds only what it lacks, running or stopped', async () => {
    const { ref, sanctions, matches } = await caseUnderReview();
    const workers = await startProjections({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      runner: fastRunnerOptions,
    });
    try {
      // While the projection runs, a GET right after each append reflects it.
      await run(ref, {
        type: 'ReviewMatch',
        matchId: matches[0]!.matchId,
        reviewStatus: 'confirmed_match',
        note: 'Same passport number',
        actor: actorOf(keys.full!),
      });
      expect((await get(`/v1/cases/${ref}`)).body.data!.checks![0]!.matches).toMatchObject([
        { review_status: 'confirmed_match' },
        { review_status: 'not_relevant' },
      ]);
      await run(ref, {
        type: 'DecideCheck',
        checkReference: sanctions,
        decision: 'conditional_pass',
        notes: 'Confirmed; enhanced due diligence',
        actor: actorOf(keys.full!),
      });
      expect((await get(`/v1/checks/${sanctions}`)).body.data).toMatchObject({
        decision: 'conditional_pass',
        decision_notes: 'Confirmed; enhanced due diligence',
        decided_by: `api_client:${keys.full!.key.id}`,
        blocking_items: [],
      });

      // Wait for the row itself: another test's open transaction on the shared server may hold the
      // latest appends back from the feed for a moment, so the feed's head is no promise.
      const target = (await loadCase(store, ref)).state!.revision;
      await eventually(async () => {
        expect((await findCaseView(db.pool, ref))?.revision).toBe(target);
      });
    } finally {
      await workers.stop();
    }
    const streamState = (await loadCase(store, ref)).state!;
    const caughtUp = await findCaseView(db.pool, ref);
    expect(caughtUp).toMatchObject({ accountId, groupId: defaultGroupId, revision: streamState.revision });
    expect(caughtUp!.state).toEqual(streamState);

    // The projection is stopped now: the row falls behind, the GET does not.
    await complete(ref, 3, []);
    await run(ref, {
      type: 'DecideCase',
      decision: 'fail',
      notes: 'Sanctioned party',
      actor: actorOf(keys.full!),
    });
    // On the PostgreSQL store: the row and the newer events in one statement.
    expect(await readCase(db.pool, store, ref)).toEqual((await loadCase(store, ref)).state);
    // Any other store: the row, then one stream read from the revision after it (the store is
    // presented as another kind so that the generic path runs on the same data).
    const reads: ReadStreamOptions[] = [];
    const watched = new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'kind') return 'esdb';
        if (property === 'readStream') {
          return (name: string, options: ReadStreamOptions = {}) => {
            reads.push(options);
            return target.readStream(name, options);
          };
        }
        return Reflect.get(target, property, receiver);
      },
    });
    const state = await readCase(db.pool, watched, ref);
    expect(state).toEqual((await loadCase(store, ref)).state);
    expect(state!.revision).toBe(caughtUp!.revision + 2);
    // One stream read, from the revision after the row's.
    expect(reads).toEqual([{ fromRevision: BigInt(caughtUp!.revision + 1) }]);
    expect((await findCaseView(db.pool, ref))!.revision).toBe(caughtUp!.revision);

    // Rows folded by another code version of the projection (a deploy that changed the fold, before
    // its rebuild) are never caught up with this code's fold: the whole stream is folded instead.
    const bump = (by: number) =>
      db.pool.query(
        "UPDATE projection_registry SET active_code_version = active_code_version + $1 WHERE name = 'case_views'",
        [by],
      );
    await bump(100);
    try {
      reads.length = 0;
      expect(await readCase(db.pool, watched, ref)).toEqual(state);
      expect(reads).toEqual([{ fromRevision: 0n }]);
      expect(await readCase(db.pool, store, ref)).toEqual(state);
    } finally {
      await bump(-100);
    }

    const decided = (await get(`/v1/cases/${ref}`)).body.data!;
    expect(decided).toMatchObject({
      decision: 'fail',
      decision_notes: 'Sanctioned party',
      resolved_by: `api_client:${keys.full!.key.id}`,
      resolved_at: expect.any(String),
      requires_human_review: true,
    });
    expect(decided.checks!.map((c) => c.lifecycle_status)).toEqual(['completed', 'completed', 'completed']);
  });

  it('applies the latest group even when the projection row still has the old one', async () => {
    const ref = await createCase(['pep']);
    const workers = await startProjections({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      runner: fastRunnerOptions,
    });
    try {
      await eventually(async () => {
        expect(await findCaseView(db.pool, ref)).toBeDefined();
      });
    } finally {
      await workers.stop();
    }
    expect((await findCaseView(db.pool, ref))!.groupId).toBe(defaultGroupId);
    expect((await get(`/v1/cases/${ref}`, keys.reader!)).status).toBe(200);

    await run(ref, {
      type: 'ChangeGroup',
      groupId: otherGroupId,
      groupMemberIds: [],
      actor: { type: 'human', id: randomUUID(), displayName: 'Reviewer' },
    });
    expect((await findCaseView(db.pool, ref))!.groupId).toBe(defaultGroupId);
    expect((await get(`/v1/cases/${ref}`, keys.reader!)).status).toBe(404);
    const moved = await get(`/v1/cases/${ref}`, keys.otherGroup!);
    expect(moved.status).toBe(200);
    expect(moved.body.data!.group_id).toBe(otherGroupId);
  });

  // ---- errors -------------------------------------------------------------------------------

  /** The error part of a 404, with the reference asked for written as `<ref>`. */
  const notFoundBody = (body: Envelope, reference: string) => ({
    ...body.error,
    message: body.error?.message.replaceAll(reference, '<ref>'),
  });

  it('answers 404 not_found alike for unknown cases and cases outside the key’s account or groups', async () => {
    const ref = await createCase(['sanctions']);
    const inOtherGroup = await createCase(['sanctions'], otherGroupId);
    const unknown = newCaseReference();

    const missing = await get(`/v1/cases/${unknown}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'not_found' });
    expect(missing.body.meta.request_id).toMatch(/^req_/);
    const expected = notFoundBody(missing.body, unknown);

    const hidden = [
      [ref, keys.foreign!],
      [ref, keys.otherGroup!],
      [inOtherGroup, keys.reader!],
    ] as const;
    for (const [reference, key] of hidden) {
      const response = await get(`/v1/cases/${reference}`, key);
      expect(response.status).toBe(404);
      expect(notFoundBody(response.body, reference)).toEqual(expected);
      expect(Object.keys(response.body).sort()).toEqual(['error', 'meta']);
    }
    // The same keys see what is theirs.
    expect((await get(`/v1/cases/${inOtherGroup}`, keys.otherGroup!)).status).toBe(200);
    expect((await get(`/v1/cases/${ref}`, keys.reader!)).status).toBe(200);
  });

  it('answers 404 not_found alike for unknown checks and checks outside the key’s scope', async () => {
    const ref = await createCase(['sanctions', 'pep']);
    const unknown = `${newCaseReference()}-1`;
    const missing = await get(`/v1/checks/${unknown}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error?.code).toBe('not_found');
    const expected = notFoundBody(missing.body, unknown);

    const cases = [
      [`${ref}-3`, keys.full!], // no such check on a visible case
      [`${ref}-01`, keys.full!], // not the check's reference, though it parses
      [`${ref}-1`, keys.foreign!],
      [`${ref}-1`, keys.otherGroup!],
    ] as const;
    for (const [reference, key] of cases) {
      const response = await get(`/v1/checks/${reference}`, key);
      expect(response.status).toBe(404);
      expect(notFoundBody(response.body, reference)).toEqual(expected);
    }
    expect((await get(`/v1/checks/${ref}-2`, keys.reader!)).body.data).toMatchObject({
      check_reference: `${ref}-2`,
      type: 'pep',
    });
  });

  it('answers 403 forbidden to a key without the endpoint’s scope, 401 without a key', async () => {
    const ref = await createCase(['sanctions']);
    const noCasesRead = await get(`/v1/cases/${ref}`, keys.checksOnly!);
    expect(noCasesRead.status).toBe(403);
    expect(noCasesRead.body.error).toMatchObject({
      code: 'forbidden',
      details: { required_scopes: ['cases:read'] },
    });
    const noChecksRead = await get(`/v1/checks/${ref}-1`, keys.casesOnly!);
    expect(noChecksRead.status).toBe(403);
    expect(noChecksRead.body.error).toMatchObject({
      code: 'forbidden',
      details: { required_scopes: ['checks:read'] },
    });
    expect((await get(`/v1/checks/${ref}-1`, keys.checksOnly!)).status).toBe(200);
    const anonymous = await get(`/v1/cases/${ref}`, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error?.code).toBe('unauthorized');
  });

  it('answers 400 invalid_request to a malformed reference', async () => {
    const badCase = await get('/v1/cases/abc123456');
    expect(badCase.status).toBe(400);
    expect(badCase.body.error).toMatchObject({
      code: 'invalid_request',
      details: { fieldErrors: { case_reference: [expect.any(String)] } },
    });
    const badCheck = await get('/v1/checks/ABC123456');
    expect(badCheck.status).toBe(400);
    expect(badCheck.body.error).toMatchObject({
      code: 'invalid_request',
      details: { fieldErrors: { check_reference: [expect.any(String)] } },
    });
  });

  it('describes both operations in the OpenAPI document', async () => {
    const document = (await (await fetch(`${url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { tags: string[]; summary: string; responses: Json }>>;
    };
    const caseOperation = document.paths['/v1/cases/{case_reference}']?.get;
    const checkOperation = document.paths['/v1/checks/{check_reference}']?.get;
    expect(caseOperation).toMatchObject({ tags: ['Cases'], summary: 'Get a case' });
    expect(checkOperation).toMatchObject({ tags: ['Checks'], summary: 'Get a check' });
    // 503: every /v1 operation may be refused past capacity (service_unavailable).
    expect(Object.keys(caseOperation!.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '429',
      '503',
    ]);
  });

  it('types the URLs of sources and materials as URIs, as the spec does', async () => {
    const document = (await (await fetch(`${url}/v1/openapi.json`)).json()) as {
      components: { schemas: Record<string, { properties: Record<string, Json> }> };
    };
    const { Source, CaseMaterial } = document.components.schemas;
    expect(JSON.stringify(Source?.properties.url)).toContain('"format":"uri"');
    expect(JSON.stringify(CaseMaterial?.properties.url)).toContain('"format":"uri"');
  });
});
