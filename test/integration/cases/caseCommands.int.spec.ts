import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseCommand } from '../../../src/cases/caseDecide.js';
import type { FoundMatch } from '../../../src/cases/caseEvents.js';
import { loadCase } from '../../../src/cases/caseStream.js';
import { matchId } from '../../../src/cases/references.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { idempotentEventId } from '../../../src/idempotency/deterministicIds.js';
import { beginRequest, fingerprintRequest } from '../../../src/idempotency/idempotencyStore.js';
import { everyPoliticianCsvFormat } from '../../../src/screening/parsers/everyPoliticianCsv.js';
import { unXmlFormat } from '../../../src/screening/parsers/unXml.js';
import { loadSnapshot } from '../../../src/screening/snapshots/loadSnapshot.js';
import { subjectReferenceFor, subjectStreamName } from '../../../src/subjects/subjectEvents.js';
import { subjectCommandHandler } from '../../../src/subjects/subjectStream.js';
import { SCOPES, type Scope } from '../../../src/workspace/keyPolicy.js';
import type { CreatedApiKey, NewApiKey } from '../../../src/workspace/keyStore.js';
import {
  createCaseWorkspace,
  createKey,
  createMember,
  DAY_MS,
  runCase,
  startApiServer,
} from '../../support/caseApi.js';
import { expireIdempotencyLease } from '../../support/idempotencyLeases.js';
import { fixturePath } from '../../support/parsedEntities.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/**
 * The case mutation endpoints over real HTTP, on a real PostgreSQL event store: POST /v1/cases,
 * the match review, the check and case decisions and materials (docs/cases.md, "Endpoints"). The
 * check runner is not part of the API server; checks are started and completed here through the
 * domain (`runCaseCommand`), as the runner does.
 */

interface Envelope<T = Record<string, unknown>> {
  data: T;
  error?: { code: string; message: string; details: Record<string, unknown> | null };
  meta: { request_id: string };
}

type CaseData = {
  case_reference: string;
  group_id: string;
  owner_user_id: string | null;
  collaborator_user_ids: string[];
  decision: string;
  decision_notes: string | null;
  resolved_by: string | null;
  external_reference: string | null;
  metadata: Record<string, unknown>;
  subject: {
    subject_reference: string;
    type: string;
    display_name: string;
    countries: string[];
    birth_date: { year: number; month?: number; day?: number } | null;
    external_reference: string | null;
    metadata: Record<string, unknown>;
  };
  checks: {
    check_reference: string;
    id: string;
    type: string;
    lifecycle_status: string;
    decision: string;
    match_count: number;
  }[];
  materials: unknown[];
  created_by_actor: { type: string; id: string | null; display_name: string | null };
  requires_human_review: boolean;
};

describe('case commands over HTTP', () => {
  let db: TestDatabase;
  let store: EventStore;
  let app: FastifyInstance;
  let staleApp: FastifyInstance;
  let url: string;
  let staleUrl: string;
  let accountId: string;
  let defaultGroupId: string;
  let paymentsGroupId: string;
  let alphaGroupId: string;
  let foreignGroupId: string;
  const users: Record<'owner' | 'colleague' | 'payer' | 'outsider', string> = {
    owner: '',
    colleague: '',
    payer: '',
    outsider: '',
  };
  const keys: Record<string, CreatedApiKey> = {};

  beforeAll(async () => {
    db = await createTestDatabase();
    store = createPostgresEventStore({ pool: db.pool, connectionString: db.url, pollIntervalMs: 100 });
    const workspace = await createCaseWorkspace(db.pool, {
      account: 'Screening Co',
      groups: ['Payments EU', 'Alpha Desk'],
      foreign: 'Elsewhere Ltd',
    });
    ({ accountId, defaultGroupId, foreignGroupId } = workspace);
    [paymentsGroupId, alphaGroupId] = workspace.groupIds as [string, string];

    const memberships: Record<keyof typeof users, string[]> = {
      owner: [defaultGroupId],
      colleague: [defaultGroupId],
      payer: [paymentsGroupId],
      outsider: [],
    };
    for (const name of Object.keys(users) as (keyof typeof users)[]) {
      users[name] = await createMember(
        db.pool,
        { accountId, email: `${name}@example.test` },
        memberships[name],
      );
    }

    const newKey = (scopes: readonly Scope[], more: Partial<NewApiKey> = {}) =>
      createKey(db.pool, accountId, scopes, {
        name: 'Onboarding backend',
        finalDecision: true,
        groups: { kind: 'all' },
        ...more,
      });
    keys.all = await newKey(SCOPES);
    keys.defaultOnly = await newKey(SCOPES, { groups: { kind: 'default' } });
    keys.paymentsAndAlpha = await newKey(SCOPES, {
      groups: { kind: 'ids', ids: [paymentsGroupId, alphaGroupId] },
    });
    keys.agent = await newKey(SCOPES, { actorType: 'agent', finalDecision: false, name: 'Research agent' });
    keys.noFinal = await newKey(SCOPES, { finalDecision: false });
    keys.reader = await newKey(['cases:read'], { finalDecision: false });
    keys.foreign = await createKey(db.pool, workspace.foreignAccountId, SCOPES, { finalDecision: true });

    // Fresh sources for sanctions (UN) and pep (EveryPolitician); none for business_entity_risk.
    const publishedAt = new Date(Date.now() - DAY_MS);
    await loadSnapshot(db.pool, {
      format: unXmlFormat,
      paths: [fixturePath('un-xml', 'consolidated.xml')],
      publishedAt,
    });
    await loadSnapshot(db.pool, {
      format: everyPoliticianCsvFormat,
      paths: [fixturePath('everypolitician-csv', 'ep')],
      publishedAt,
    });

    // The rate limit has its own tests; these make hundreds of requests with one key.
    const server = (sourceStaleAfterMs: number) =>
      startApiServer({ pool: db.pool, store, sourceStaleAfterMs, rateLimit: 100_000 });
    ({ app, url } = await server(14 * DAY_MS));
    // The same data, judged by a server for which a day-old list is stale.
    ({ app: staleApp, url: staleUrl } = await server(60 * 60 * 1000));
  });

  afterAll(async () => {
    await app?.close();
    await staleApp?.close();
    await store?.close();
    await db?.drop();
  });

  // ---- helpers -----------------------------------------------------------------------------

  interface CallOptions {
    key?: CreatedApiKey;
    body?: unknown;
    /** A fresh one for every POST and PATCH unless given; `null` sends none. */
    idempotencyKey?: string | null;
    base?: string;
  }

  async function call<T = Record<string, unknown>>(method: string, path: string, options: CallOptions = {}) {
    const headers: Record<string, string> = {
      authorization: `Bearer ${(options.key ?? keys.all!).rawKey}`,
    };
    const idempotencyKey =
      options.idempotencyKey === undefined && method !== 'GET' ? freshKey() : options.idempotencyKey;
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(`${options.base ?? url}${path}`, { method, headers, body });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Envelope<T>,
    };
  }

  const freshKey = () => `idem-${randomUUID()}`;

  function expectError(
    result: { status: number; body: Envelope<unknown> },
    status: number,
    code: string,
  ): Record<string, unknown> | null {
    expect(result.status, JSON.stringify(result.body)).toBe(status);
    expect(result.body.error?.code).toBe(code);
    return result.body.error?.details ?? null;
  }

  function fieldErrors(result: { status: number; body: Envelope<unknown> }): Record<string, string[]> {
    const details = expectError(result, 400, 'invalid_request');
    return (details?.fieldErrors ?? {}) as Record<string, string[]>;
  }

  async function eventCount(): Promise<number> {
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM es_events');
    return rows[0]!.n;
  }

  async function streamTypes(stream: string): Promise<string[]> {
    return (await store.readStream(stream)).events.map((event) => event.type);
  }

  const sanctionsCase = (subject: Record<string, unknown> = {}, more: Record<string, unknown> = {}) => ({
    subject: { name: 'Ada Lovelace', ...subject },
    checks: { types: ['sanctions'] },
    ...more,
  });

  async function createCase(body: unknown = sanctionsCase(), key: CreatedApiKey = keys.all!) {
    const created = await call<CaseData>('POST', '/v1/cases', { key, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data;
  }

  const runDomain = (caseReference: string, command: CaseCommand) => runCase(store, caseReference, command);

  function foundMatch(checkReference: string, entityId: string, rank: number): FoundMatch {
    return {
      matchId: matchId(checkReference, entityId),
      rank,
      displayName: `Listed party ${rank}`,
      score: 0.9 - rank / 100,
      matchedEntityId: entityId,
      matchType: 'name',
      reason: { name: 'similar' },
      sources: [{ name: 'UN', url: null, dataset: 'un_sc_sanctions', priority: 1 }],
      sourceRecordRef: null,
      sourceSnapshotId: null,
      supportingFields: {},
      topics: ['sanction'],
      datasets: ['un_sc_sanctions'],
    };
  }

  /** What the check runner does: start the check, then complete it with these listed parties. */
  async function completeCheck(caseReference: string, checkReference: string, entityIds: string[]) {
    const now = new Date().toISOString();
    await runDomain(caseReference, { type: 'StartCheck', now, checkReference, attempt: 1, worker: 'test' });
    await runDomain(caseReference, {
      type: 'CompleteCheck',
      now,
      checkReference,
      attempt: 1,
      screeningProfileId: 'default',
      threshold: 0.63,
      snapshots: [],
      matches: entityIds.map((id, index) => foundMatch(checkReference, id, index + 1)),
    });
    return entityIds.map((id) => matchId(checkReference, id));
  }

  // ---- POST /v1/cases ----------------------------------------------------------------------

  describe('POST /v1/cases', () => {
    it('creates the case with queued checks, in the default group, from the decided state', async () => {
      const before = await eventCount();
      const created = await call<CaseData>('POST', '/v1/cases', {
        body: {
          subject: {
            name: '  Ada   Lovelace ',
            countries: ['gb', 'GB', 'us'],
            birth_date: { year: 1815, month: 12, day: 10 },
            metadata: { source: 'onboarding' },
          },
          case: {
            owner_user_id: users.owner,
            collaborator_user_ids: [users.colleague],
            external_reference: 'app-1001',
            notes: 'Onboarding',
            metadata: { channel: 'web' },
          },
          checks: { types: ['pep', 'sanctions'] },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const data = created.body.data;
      expect(data.case_reference).toMatch(/^[A-Z]{3}[0-9]{6}$/);
      expect(data).toMatchObject({
        group_id: defaultGroupId,
        owner_user_id: users.owner,
        collaborator_user_ids: [users.colleague],
        decision: 'pending_decision',
        external_reference: 'app-1001',
        metadata: { channel: 'web' },
        subject: {
          type: 'person',
          display_name: 'Ada Lovelace',
          countries: ['GB', 'US'],
          birth_date: { year: 1815, month: 12, day: 10 },
          external_reference: null,
          metadata: { source: 'onboarding' },
        },
        created_by_actor: { type: 'api_client', id: keys.all!.key.id, display_name: 'Onboarding backend' },
        requires_human_review: true,
      });
      expect(data.subject.subject_reference).toMatch(/^sub_[0-9a-f]{24}$/);
      // One check per type, numbered in the order requested, all queued.
      expect(data.checks.map((c) => [c.check_reference, c.type, c.lifecycle_status, c.decision])).toEqual([
        [`${data.case_reference}-1`, 'pep', 'queued', 'pending_review'],
        [`${data.case_reference}-2`, 'sanctions', 'queued', 'pending_review'],
      ]);
      // The subject and the case: one event each.
      expect(await eventCount()).toBe(before + 2);
      expect(await streamTypes(subjectStreamName(data.subject.subject_reference))).toEqual([
        'SubjectCreated',
      ]);
      expect(await streamTypes(`case-${data.case_reference}`)).toEqual(['CaseCreated']);
    });

    it('accepts every limit at its maximum and real dates only', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 50; i++) {
        ids.push(
          await createMember(db.pool, { accountId, email: `member-${i}@example.test` }, [defaultGroupId]),
        );
      }
      const data = await createCase({
        subject: {
          name: 'N'.repeat(240),
          countries: [
            'AD',
            'AE',
            'AF',
            'AG',
            'AI',
            'AL',
            'AM',
            'AO',
            'AQ',
            'AR',
            'AS',
            'AT',
            'AU',
            'AW',
            'AX',
            'AZ',
            'BA',
            'BB',
            'BD',
            'xk',
          ],
          birth_date: { year: 2024, month: 2, day: 29 },
          external_reference: 'E'.repeat(200),
        },
        case: {
          collaborator_user_ids: ids,
          external_reference: 'C'.repeat(200),
          notes: 'n'.repeat(4000),
        },
        checks: { types: ['sanctions', 'pep'], screening_profile_id: 'strict' },
        monitoring: { enable: true, owner_user_id: ids[0], collaborator_user_ids: ids },
      });
      expect(data.collaborator_user_ids).toHaveLength(50);
      expect(data.subject.countries).toHaveLength(20);
      expect(data.subject.countries.at(-1)).toBe('XK');
      expect(data.subject.birth_date).toEqual({ year: 2024, month: 2, day: 29 });
      const { state } = await loadCase(store, data.case_reference);
      expect(state?.screeningProfileId).toBe('strict');
      expect(state?.monitoring).toEqual({ enable: true, ownerUserId: ids[0], collaboratorUserIds: ids });
    });

    const over = (n: number, c = 'x') => c.repeat(n);
    const uuids = (n: number) => Array.from({ length: n }, () => randomUUID());
    const limits: [string, Record<string, unknown>, string][] = [
      ['a name over 240 characters', sanctionsCase({ name: over(241) }), 'subject.name'],
      ['a blank name', sanctionsCase({ name: '   ' }), 'subject.name'],
      ['no name for a new subject', { subject: {}, checks: { types: ['sanctions'] } }, 'subject.name'],
      ['an unknown subject type', sanctionsCase({ type: 'robot' }), 'subject.type'],
      ['an unknown mode', sanctionsCase({ mode: 'sometimes' }), 'subject.mode'],
      ['21 countries', sanctionsCase({ countries: Array(21).fill('GB') }), 'subject.countries'],
      ['a three-letter country', sanctionsCase({ countries: ['GB', 'GBR'] }), 'subject.countries.1'],
      ['a country that is no ISO code', sanctionsCase({ countries: ['UK'] }), 'subject.countries.0'],
      ['a padded country code', sanctionsCase({ countries: [' G'] }), 'subject.countries.0'],
      ['birth year 1799', sanctionsCase({ birth_date: { year: 1799 } }), 'subject.birth_date.year'],
      ['birth year 2101', sanctionsCase({ birth_date: { year: 2101 } }), 'subject.birth_date.year'],
      ['a fractional year', sanctionsCase({ birth_date: { year: 1980.5 } }), 'subject.birth_date.year'],
      ['no birth year', sanctionsCase({ birth_date: { month: 3 } }), 'subject.birth_date.year'],
      ['month 0', sanctionsCase({ birth_date: { year: 1980, month: 0 } }), 'subject.birth_date.month'],
      ['month 13', sanctionsCase({ birth_date: { year: 1980, month: 13 } }), 'subject.birth_date.month'],
      ['day 0', sanctionsCase({ birth_date: { year: 1980, month: 1, day: 0 } }), 'subject.birth_date.day'],
      ['day 32', sanctionsCase({ birth_date: { year: 1980, month: 1, day: 32 } }), 'subject.birth_date.day'],
      [
        '30 February',
        sanctionsCase({ birth_date: { year: 1980, month: 2, day: 30 } }),
        'subject.birth_date.day',
      ],
      [
        '29 February 2023',
        sanctionsCase({ birth_date: { year: 2023, month: 2, day: 29 } }),
        'subject.birth_date.day',
      ],
      [
        '31 April',
        sanctionsCase({ birth_date: { year: 1980, month: 4, day: 31 } }),
        'subject.birth_date.day',
      ],
      [
        'a day without a month',
        sanctionsCase({ birth_date: { year: 1980, day: 3 } }),
        'subject.birth_date.day',
      ],
      [
        'a subject external reference over 200',
        sanctionsCase({ external_reference: over(201) }),
        'subject.external_reference',
      ],
      [
        'an empty subject external reference',
        sanctionsCase({ external_reference: '' }),
        'subject.external_reference',
      ],
      ['metadata that is no object', sanctionsCase({ metadata: ['a'] }), 'subject.metadata'],
      ['an unknown subject field', sanctionsCase({ nmae: 'Ada' }), 'subject.nmae'],
      [
        'existing without a reference',
        { subject: { mode: 'existing' }, checks: { types: ['sanctions'] } },
        'subject.subject_reference',
      ],
      [
        'existing with details',
        {
          subject: { mode: 'existing', subject_reference: 'sub_000000000000000000000000', name: 'Ada' },
          checks: { types: ['sanctions'] },
        },
        'subject.name',
      ],
      ['a group id that is no UUID', sanctionsCase({}, { case: { group_id: 'payments' } }), 'case.group_id'],
      [
        'an owner id that is no UUID',
        sanctionsCase({}, { case: { owner_user_id: '42' } }),
        'case.owner_user_id',
      ],
      [
        '51 collaborators',
        sanctionsCase({}, { case: { collaborator_user_ids: uuids(51) } }),
        'case.collaborator_user_ids',
      ],
      [
        'a collaborator twice',
        sanctionsCase(
          {},
          {
            case: {
              collaborator_user_ids: [
                '6a1f0c5e-3b1d-4c0e-9a57-2f4b8d0e7c31',
                '6A1F0C5E-3B1D-4C0E-9A57-2F4B8D0E7C31',
              ],
            },
          },
        ),
        'case.collaborator_user_ids.1',
      ],
      [
        'a case external reference over 200',
        sanctionsCase({}, { case: { external_reference: over(201) } }),
        'case.external_reference',
      ],
      ['notes over 4000', sanctionsCase({}, { case: { notes: over(4001) } }), 'case.notes'],
      ['case metadata that is no object', sanctionsCase({}, { case: { metadata: 'x' } }), 'case.metadata'],
      ['no checks', { subject: { name: 'Ada' } }, 'checks'],
      ['no check types', sanctionsCase({}, { checks: { types: [] } }), 'checks.types'],
      [
        'four check types',
        sanctionsCase({}, { checks: { types: ['pep', 'sanctions', 'business_entity_risk', 'pep'] } }),
        'checks.types',
      ],
      ['a check type twice', sanctionsCase({}, { checks: { types: ['pep', 'pep'] } }), 'checks.types.1'],
      ['an unknown check type', sanctionsCase({}, { checks: { types: ['kyc'] } }), 'checks.types.0'],
      [
        'a profile id over 120',
        sanctionsCase({}, { checks: { types: ['pep'], screening_profile_id: over(121) } }),
        'checks.screening_profile_id',
      ],
      [
        'monitoring.enable not a boolean',
        sanctionsCase({}, { monitoring: { enable: 'yes' } }),
        'monitoring.enable',
      ],
      [
        'a monitoring owner that is no UUID',
        sanctionsCase({}, { monitoring: { owner_user_id: 'me' } }),
        'monitoring.owner_user_id',
      ],
      [
        '51 monitoring collaborators',
        sanctionsCase({}, { monitoring: { collaborator_user_ids: uuids(51) } }),
        'monitoring.collaborator_user_ids',
      ],
      ['an unknown top-level field', sanctionsCase({}, { priority: 'high' }), 'priority'],
    ];

    it.each(limits)('refuses %s with 400 and its fieldErrors key', async (_name, body, key) => {
      const before = await eventCount();
      const errors = fieldErrors(await call('POST', '/v1/cases', { body }));
      expect(Object.keys(errors)).toContain(key);
      expect(await eventCount()).toBe(before);
    });

    it('reports every problem at once, the Idempotency-Key included, and stores no 400', async () => {
      const idempotencyKey = 'short';
      const body = {
        subject: { name: 'x'.repeat(300), countries: ['ZZ'], birth_date: { year: 1990, month: 2, day: 30 } },
        case: { notes: 'n'.repeat(4001), collaborator_user_ids: ['nope'] },
        checks: { types: [] },
        monitoring: { enable: 1 },
      };
      const errors = fieldErrors(await call('POST', '/v1/cases', { body, idempotencyKey }));
      expect(Object.keys(errors).sort()).toEqual(
        [
          'Idempotency-Key',
          'case.collaborator_user_ids.0',
          'case.notes',
          'checks.types',
          'monitoring.enable',
          'subject.birth_date.day',
          'subject.countries.0',
          'subject.name',
        ].sort(),
      );
      // A 400 is not stored: the corrected request may reuse a (valid) key that failed validation.
      const key = freshKey();
      fieldErrors(await call('POST', '/v1/cases', { body, idempotencyKey: key }));
      const fixed = await call<CaseData>('POST', '/v1/cases', { body: sanctionsCase(), idempotencyKey: key });
      expect(fixed.status).toBe(201);
    });

    it('needs the cases:create scope (403), and lets agents create cases', async () => {
      const denied = expectError(
        await call('POST', '/v1/cases', { key: keys.reader, body: sanctionsCase() }),
        403,
        'forbidden',
      );
      expect(denied).toEqual({ required_scopes: ['cases:create'] });
      const byAgent = await createCase(sanctionsCase(), keys.agent);
      expect(byAgent.created_by_actor).toEqual({
        type: 'agent',
        id: keys.agent!.key.id,
        display_name: 'Research agent',
      });
    });

    describe('group', () => {
      it('takes case.group_id when the key can see it', async () => {
        const data = await createCase(
          sanctionsCase({}, { case: { group_id: paymentsGroupId, owner_user_id: users.payer } }),
        );
        expect(data.group_id).toBe(paymentsGroupId);
      });

      it("defaults to the key's first group by name when the key cannot see the account's default group", async () => {
        expect((await createCase(sanctionsCase(), keys.paymentsAndAlpha)).group_id).toBe(alphaGroupId);
        expect((await createCase(sanctionsCase(), keys.defaultOnly)).group_id).toBe(defaultGroupId);
      });

      it.each([
        ['a group the key cannot see', () => paymentsGroupId, () => keys.defaultOnly!],
        ['a group of another account', () => foreignGroupId, () => keys.all!],
        ['an unknown group', () => randomUUID(), () => keys.all!],
      ])('answers 404 for %s, with one body for all', async (_name, groupId, key) => {
        const id = groupId();
        const result = await call('POST', '/v1/cases', {
          key: key(),
          body: sanctionsCase({}, { case: { group_id: id } }),
        });
        expectError(result, 404, 'not_found');
        expect(result.body.error).toEqual({
          code: 'not_found',
          message: `Group ${id} was not found.`,
          details: null,
        });
      });
    });

    describe('business rules (422)', () => {
      it('refuses an owner or collaborator who is not a member of the case group', async () => {
        const before = await eventCount();
        const outsider = await call('POST', '/v1/cases', {
          body: sanctionsCase(
            { external_reference: 'not-created' },
            { case: { owner_user_id: users.outsider, collaborator_user_ids: [users.owner, users.payer] } },
          ),
        });
        const details = expectError(outsider, 422, 'unprocessable_entity');
        expect(details).toEqual({
          group_id: defaultGroupId,
          non_member_user_ids: [users.outsider, users.payer],
        });
        // Refused before anything was written: not even the subject.
        expect(await eventCount()).toBe(before);
      });

      it('refuses monitoring owners and collaborators outside the group', async () => {
        const result = await call('POST', '/v1/cases', {
          body: sanctionsCase(
            {},
            {
              monitoring: { enable: true, owner_user_id: users.owner, collaborator_user_ids: [users.payer] },
            },
          ),
        });
        expect(expectError(result, 422, 'unprocessable_entity')).toMatchObject({
          non_member_user_ids: [users.payer],
        });
      });

      it('refuses an unknown screening profile', async () => {
        const result = await call('POST', '/v1/cases', {
          body: sanctionsCase({}, { checks: { types: ['sanctions'], screening_profile_id: 'lenient' } }),
        });
        const details = expectError(result, 422, 'unprocessable_entity');
        expect(details?.fieldErrors).toHaveProperty(['checks.screening_profile_id']);
        expect(details?.known_profile_ids).toContain('default');
      });
    });

    describe('sources (503)', () => {
      it('refuses a check type without any source, creating nothing, and frees the key', async () => {
        const before = await eventCount();
        const idempotencyKey = freshKey();
        const body = sanctionsCase(
          { external_reference: 'ber-1' },
          { checks: { types: ['sanctions', 'business_entity_risk'] } },
        );
        const result = await call('POST', '/v1/cases', { body, idempotencyKey });
        const details = expectError(result, 503, 'source_unavailable');
        expect(details).toMatchObject({
          check_types: ['business_entity_risk'],
          unavailable: [{ check_type: 'business_entity_risk', reason: 'missing', stale_datasets: [] }],
        });
        expect(await eventCount()).toBe(before);
        // A 5xx is not stored: the same request may be retried (it is refused again, not replayed).
        const again = await call('POST', '/v1/cases', { body, idempotencyKey });
        expectError(again, 503, 'source_unavailable');
        expect(again.headers.get('idempotent-replayed')).toBeNull();
      });

      it('refuses stale sources, naming the stale datasets, and the retry succeeds once they are fresh', async () => {
        const before = await eventCount();
        const idempotencyKey = freshKey();
        const body = sanctionsCase(
          { external_reference: 'stale-1' },
          { checks: { types: ['pep', 'sanctions'] } },
        );
        const result = await call('POST', '/v1/cases', { body, idempotencyKey, base: staleUrl });
        const details = expectError(result, 503, 'source_unavailable');
        expect(details).toMatchObject({
          check_types: ['pep', 'sanctions'],
          unavailable: [
            {
              check_type: 'pep',
              reason: 'stale',
              stale_datasets: [{ dataset: everyPoliticianCsvFormat.defaultDataset }],
            },
            { check_type: 'sanctions', reason: 'stale', stale_datasets: [{ dataset: 'un_sc_sanctions' }] },
          ],
        });
        expect(await eventCount()).toBe(before);
        // Same key, same request, on a server for which the lists are fresh.
        const retried = await call<CaseData>('POST', '/v1/cases', { body, idempotencyKey });
        expect(retried.status).toBe(201);
      });
    });

    describe('subjects', () => {
      it('reuses the subject of an external reference and updates its details', async () => {
        const first = await createCase(
          sanctionsCase({ name: 'Grace Hopper', external_reference: 'cust-7', countries: ['US'] }),
        );
        const stream = subjectStreamName(first.subject.subject_reference);
        // The same details: the subject is reused as it is.
        const same = await createCase(
          sanctionsCase({ name: 'Grace Hopper', external_reference: 'cust-7', countries: ['US'] }),
        );
        expect(same.subject.subject_reference).toBe(first.subject.subject_reference);
        expect(await streamTypes(stream)).toEqual(['SubjectCreated']);
        // Changed details: SubjectUpdated; fields not sent keep their values.
        const changed = await createCase(
          sanctionsCase({
            name: 'Grace B. Hopper',
            external_reference: 'cust-7',
            birth_date: { year: 1906 },
          }),
        );
        expect(changed.subject).toMatchObject({
          subject_reference: first.subject.subject_reference,
          display_name: 'Grace B. Hopper',
          countries: ['US'],
          birth_date: { year: 1906 },
          external_reference: 'cust-7',
        });
        expect(await streamTypes(stream)).toEqual(['SubjectCreated', 'SubjectUpdated']);
        // The earlier case keeps the subject as it was screened.
        const { state } = await loadCase(store, first.case_reference);
        expect(state?.subject.displayName).toBe('Grace Hopper');
      });

      it('reuses a subject by subject_reference, and screens an existing one as stored', async () => {
        const first = await createCase(
          sanctionsCase({ name: 'Acme Trading', type: 'company', countries: ['DE'] }),
        );
        const reference = first.subject.subject_reference;
        const reused = await createCase({
          subject: { subject_reference: reference, countries: ['de', 'at'] },
          checks: { types: ['sanctions'] },
        });
        expect(reused.subject).toMatchObject({
          subject_reference: reference,
          type: 'company',
          display_name: 'Acme Trading',
          countries: ['DE', 'AT'],
        });
        expect(await streamTypes(subjectStreamName(reference))).toEqual(['SubjectCreated', 'SubjectUpdated']);

        const before = await eventCount();
        const existing = await createCase({
          subject: { mode: 'existing', subject_reference: reference },
          checks: { types: ['pep'] },
        });
        expect(existing.subject).toMatchObject({ subject_reference: reference, countries: ['DE', 'AT'] });
        // The case only: the subject is untouched.
        expect(await eventCount()).toBe(before + 1);
      });

      it.each([
        ['existing', 'an unknown reference', () => 'sub_0123456789abcdef01234567'],
        ['existing', 'a malformed reference', () => 'customer 7'],
        ['create_or_reuse', 'an unknown reference', () => 'sub_0123456789abcdef01234567'],
      ])('answers 404 for mode %s with %s', async (mode, _name, reference) => {
        const subject_reference = reference();
        const result = await call('POST', '/v1/cases', {
          body: { subject: { mode, subject_reference }, checks: { types: ['sanctions'] } },
        });
        expectError(result, 404, 'not_found');
        expect(result.body.error?.message).toBe(`Subject ${subject_reference} was not found.`);
      });

      it("answers 404 for another account's subject, as for an unknown one", async () => {
        const foreign = await createCase(sanctionsCase({ name: 'Foreign Party' }), keys.foreign);
        for (const mode of ['existing', 'create_or_reuse']) {
          const result = await call('POST', '/v1/cases', {
            body: {
              subject: { mode, subject_reference: foreign.subject.subject_reference },
              checks: { types: ['sanctions'] },
            },
          });
          expectError(result, 404, 'not_found');
        }
      });

      it('refuses to change the external reference of a reused subject (422)', async () => {
        const first = await createCase(sanctionsCase({ external_reference: 'cust-fixed' }));
        const result = await call('POST', '/v1/cases', {
          body: {
            subject: { subject_reference: first.subject.subject_reference, external_reference: 'cust-other' },
            checks: { types: ['sanctions'] },
          },
        });
        const details = expectError(result, 422, 'unprocessable_entity');
        expect(details).toMatchObject({ external_reference: 'cust-fixed' });
        expect(details?.fieldErrors).toHaveProperty(['subject.external_reference']);
      });
    });

    describe('idempotency', () => {
      it('replays a retry with the same key: the same case, nothing appended', async () => {
        const idempotencyKey = freshKey();
        const body = sanctionsCase({ name: 'Retry Person' });
        const first = await call<CaseData>('POST', '/v1/cases', { body, idempotencyKey });
        expect(first.status).toBe(201);
        const before = await eventCount();
        const retry = await call<CaseData>('POST', '/v1/cases', { body, idempotencyKey });
        expect(retry.status).toBe(201);
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.body).toEqual(first.body);
        expect(await eventCount()).toBe(before);
      });

      it('answers 409 idempotency_conflict for another body with the same key', async () => {
        const idempotencyKey = freshKey();
        await call('POST', '/v1/cases', { body: sanctionsCase({ name: 'First Body' }), idempotencyKey });
        const before = await eventCount();
        const other = await call('POST', '/v1/cases', {
          body: sanctionsCase({ name: 'Second Body' }),
          idempotencyKey,
        });
        expectError(other, 409, 'idempotency_conflict');
        expect(await eventCount()).toBe(before);
      });

      it('answers a recovered retry (the first attempt died before answering) with its case, appending nothing', async () => {
        const idempotencyKey = freshKey();
        const body = sanctionsCase({ name: 'Crash Person' });
        const first = await call<CaseData>('POST', '/v1/cases', { body, idempotencyKey });
        expect(first.status).toBe(201);
        // As if the process died after its appends: the key is in flight, its lease run out.
        await db.pool.query(
          `UPDATE idempotency_keys
              SET state = 'in_flight', response_status = NULL, response_body = NULL, completed_at = NULL,
                  lease_id = gen_random_uuid(), locked_until = now() - interval '1 second'
            WHERE api_key_id = $1 AND idempotency_key = $2`,
          [keys.all!.key.id, idempotencyKey],
        );
        const before = await eventCount();
        const recovered = await call<CaseData>('POST', '/v1/cases', { body, idempotencyKey });
        expect(recovered.status).toBe(201);
        expect(recovered.headers.get('idempotent-replayed')).toBeNull();
        expect(recovered.body.data.case_reference).toBe(first.body.data.case_reference);
        expect(recovered.body.data.subject.subject_reference).toBe(first.body.data.subject.subject_reference);
        expect(await eventCount()).toBe(before);
      });

      it('finishes a case whose first attempt died after writing the subject, writing the subject once', async () => {
        const idempotencyKey = freshKey();
        const body = sanctionsCase({ name: 'Half Written', external_reference: 'half-1' });
        const apiKeyId = keys.all!.key.id;
        const reference = subjectReferenceFor(
          { accountId, externalReference: 'half-1' },
          { apiKeyId, idempotencyKey },
        );
        // The first attempt: claimed the key, wrote the subject, died.
        await beginRequest(db.pool, {
          apiKeyId,
          key: idempotencyKey,
          fingerprint: fingerprintRequest({ method: 'POST', path: '/v1/cases', body }),
          method: 'POST',
          path: '/v1/cases',
          leaseMs: 600_000,
        });
        await subjectCommandHandler.handle(
          store,
          reference,
          () => ({
            ok: true,
            events: [
              {
                type: 'SubjectCreated',
                data: {
                  subjectReference: reference,
                  accountId,
                  type: 'person',
                  displayName: 'Half Written',
                  countries: [],
                  birthDate: null,
                  externalReference: 'half-1',
                  metadata: {},
                  occurredAt: new Date().toISOString(),
                },
              },
            ],
          }),
          (index: number) =>
            idempotentEventId(
              apiKeyId,
              idempotencyKey,
              index,
              fingerprintRequest({ method: 'POST', path: '/v1/cases', body }),
            ),
        );
        await expireIdempotencyLease(db.pool, apiKeyId, idempotencyKey);
        const recovered = await call<CaseData>('POST', '/v1/cases', { body, idempotencyKey });
        expect(recovered.status, JSON.stringify(recovered.body)).toBe(201);
        expect(recovered.body.data.subject.subject_reference).toBe(reference);
        expect(await streamTypes(subjectStreamName(reference))).toEqual(['SubjectCreated']);
        expect(await streamTypes(`case-${recovered.body.data.case_reference}`)).toEqual(['CaseCreated']);
      });
    });
  });

  // ---- review, decisions, materials --------------------------------------------------------

  describe('match review and decisions', () => {
    it('runs from queued checks to a recorded case decision', async () => {
      const created = await createCase(
        sanctionsCase({ name: 'Flow Person' }, { case: { owner_user_id: users.owner } }),
      );
      const caseReference = created.case_reference;
      const checkReference = `${caseReference}-1`;

      // Deciding before the check completed: 409, for the check and for the case.
      const early = await call('PATCH', `/v1/checks/${checkReference}/decision`, {
        body: { decision: 'pass' },
      });
      expect(expectError(early, 409, 'conflict')).toEqual({ lifecycle_status: 'queued' });
      const earlyCase = await call('PATCH', `/v1/cases/${caseReference}/decision`, {
        body: { decision: 'pass' },
      });
      expect(expectError(earlyCase, 409, 'conflict')).toEqual({ running_check_references: [checkReference] });

      const [first, second] = await completeCheck(caseReference, checkReference, ['un:1', 'un:2']);

      // Unreviewed matches block the check decision: 422 naming them.
      const unreviewed = await call('PATCH', `/v1/checks/${checkReference}/decision`, {
        body: { decision: 'pass' },
      });
      expect(expectError(unreviewed, 422, 'unprocessable_entity')).toEqual({
        pending_review_match_ids: [first, second],
      });

      // Reviews (the agent may review).
      const reviewed = await call<{
        match_id: string;
        review_status: string;
        review: Record<string, unknown>;
      }>('PATCH', `/v1/matches/${first}/review`, {
        key: keys.agent,
        body: { review_status: 'not_relevant', note: 'Different birth year.' },
      });
      expect(reviewed.status, JSON.stringify(reviewed.body)).toBe(200);
      expect(reviewed.body.data).toMatchObject({
        match_id: first,
        review_status: 'not_relevant',
        review: {
          status: 'not_relevant',
          note: 'Different birth year.',
          reviewed_by: { type: 'agent', id: keys.agent!.key.id },
        },
      });
      const confirmed = await call('PATCH', `/v1/matches/${second}/review`, {
        body: { review_status: 'confirmed_match' },
      });
      expect(confirmed.status).toBe(200);

      // Deciding the check stays with people and API clients: an agent key is refused whatever its scopes.
      const byAgent = await call('PATCH', `/v1/checks/${checkReference}/decision`, {
        key: keys.agent,
        body: { decision: 'fail', decision_notes: 'Confirmed UN listing.' },
      });
      expect(expectError(byAgent, 403, 'forbidden')).toEqual({ actor_type: 'agent' });
      // A fail needs notes (422); with them it is recorded.
      const noNotes = await call('PATCH', `/v1/checks/${checkReference}/decision`, {
        body: { decision: 'fail', decision_notes: '  ' },
      });
      expect(expectError(noNotes, 422, 'unprocessable_entity')).toEqual({
        fieldErrors: { decision_notes: [expect.stringContaining('Decision notes are required')] },
      });
      const decided = await call<{
        check_reference: string;
        decision: string;
        decided_by: string;
        decision_notes: string;
      }>('PATCH', `/v1/checks/${checkReference}/decision`, {
        body: { decision: 'fail', decision_notes: 'Confirmed UN listing.' },
      });
      expect(decided.status).toBe(200);
      expect(decided.body.data).toMatchObject({
        check_reference: checkReference,
        decision: 'fail',
        decision_notes: 'Confirmed UN listing.',
        decided_by: `api_client:${keys.all!.key.id}`,
      });

      // The case decision: never an agent, never without the permission; notes for a fail.
      expectError(
        await call('PATCH', `/v1/cases/${caseReference}/decision`, {
          key: keys.agent,
          body: { decision: 'fail', decision_notes: 'x' },
        }),
        403,
        'forbidden',
      );
      expectError(
        await call('PATCH', `/v1/cases/${caseReference}/decision`, {
          key: keys.noFinal,
          body: { decision: 'fail', decision_notes: 'x' },
        }),
        403,
        'forbidden',
      );
      expectError(
        await call('PATCH', `/v1/cases/${caseReference}/decision`, {
          key: keys.reader,
          body: { decision: 'fail', decision_notes: 'x' },
        }),
        403,
        'forbidden',
      );
      const caseNoNotes = await call('PATCH', `/v1/cases/${caseReference}/decision`, {
        body: { decision: 'fail' },
      });
      expect(expectError(caseNoNotes, 422, 'unprocessable_entity')).toEqual({
        fieldErrors: { decision_notes: [expect.stringContaining('Decision notes are required')] },
      });
      const idempotencyKey = freshKey();
      const caseDecided = await call<CaseData>('PATCH', `/v1/cases/${caseReference}/decision`, {
        body: { decision: 'fail', decision_notes: 'Sanctioned party.' },
        idempotencyKey,
      });
      expect(caseDecided.status).toBe(200);
      expect(caseDecided.body.data).toMatchObject({
        case_reference: caseReference,
        decision: 'fail',
        decision_notes: 'Sanctioned party.',
        resolved_by: `api_client:${keys.all!.key.id}`,
      });
      // A retry records nothing more.
      const count = (await store.readStream(`case-${caseReference}`)).events.length;
      const retry = await call('PATCH', `/v1/cases/${caseReference}/decision`, {
        body: { decision: 'fail', decision_notes: 'Sanctioned party.' },
        idempotencyKey,
      });
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect((await store.readStream(`case-${caseReference}`)).events.length).toBe(count);

      // A changed review withdraws the check decision and reopens the case.
      const changed = await call('PATCH', `/v1/matches/${second}/review`, {
        body: { review_status: 'not_relevant' },
      });
      expect(changed.status).toBe(200);
      const { state } = await loadCase(store, caseReference);
      expect(state?.decision).toBe('pending_decision');
      expect(state?.checks[0]?.decision).toBe('pending_review');
      const passed = await call<{ decision: string }>('PATCH', `/v1/checks/${checkReference}/decision`, {
        body: { decision: 'pass' },
      });
      expect(passed.body.data.decision).toBe('pass');
      const casePassed = await call<CaseData>('PATCH', `/v1/cases/${caseReference}/decision`, {
        body: { decision: 'pass' },
      });
      expect(casePassed.status, JSON.stringify(casePassed.body)).toBe(200);
      expect(casePassed.body.data.decision).toBe('pass');
    });

    it('signs off a check without matches, and refuses a pass of a case with a failed check', async () => {
      const created = await createCase(
        sanctionsCase({ name: 'Quiet Person' }, { checks: { types: ['sanctions', 'pep'] } }),
      );
      const reference = created.case_reference;
      await completeCheck(reference, `${reference}-1`, []);
      await runDomain(reference, {
        type: 'StartCheck',
        now: new Date().toISOString(),
        checkReference: `${reference}-2`,
        attempt: 1,
        worker: 'test',
      });
      await runDomain(reference, {
        type: 'FailCheck',
        now: new Date().toISOString(),
        checkReference: `${reference}-2`,
        attempt: 1,
        failureReason: 'index unavailable',
      });
      const signed = await call<{ decision: string }>('PATCH', `/v1/checks/${reference}-1/decision`, {
        body: { decision: 'pass' },
      });
      expect(signed.body.data.decision).toBe('pass');
      const failedCheck = await call('PATCH', `/v1/checks/${reference}-2/decision`, {
        body: { decision: 'pass' },
      });
      expect(expectError(failedCheck, 409, 'conflict')).toMatchObject({ lifecycle_status: 'failed' });
      const casePass = await call('PATCH', `/v1/cases/${reference}/decision`, { body: { decision: 'pass' } });
      expect(expectError(casePass, 422, 'unprocessable_entity')).toEqual({
        failed_check_references: [`${reference}-2`],
      });
    });

    it('refuses a case decision while a check with matches is undecided (422)', async () => {
      const created = await createCase(sanctionsCase({ name: 'Pending Person' }));
      const reference = created.case_reference;
      await completeCheck(reference, `${reference}-1`, ['un:9']);
      const result = await call('PATCH', `/v1/cases/${reference}/decision`, { body: { decision: 'pass' } });
      expect(expectError(result, 422, 'unprocessable_entity')).toEqual({
        pending_review_check_references: [`${reference}-1`],
      });
    });

    describe('not found, with one body per kind of object', () => {
      let reference: string;
      let match: string;
      let foreignReference: string;
      beforeAll(async () => {
        reference = (await createCase(sanctionsCase({ name: 'Scoped Person' }))).case_reference;
        match = (await completeCheck(reference, `${reference}-1`, ['un:3']))[0]!;
        foreignReference = (await createCase(sanctionsCase({ name: 'Foreign Person' }), keys.foreign))
          .case_reference;
      });

      it('matches: unknown, malformed, in another group, in another account', async () => {
        const unknown = matchId(`${reference}-1`, 'un:unknown');
        const expectMissing = async (id: string, key: CreatedApiKey = keys.all!) => {
          const result = await call('PATCH', `/v1/matches/${encodeURIComponent(id)}/review`, {
            key,
            body: { review_status: 'confirmed_match' },
          });
          expectError(result, 404, 'not_found');
          expect(result.body.error).toEqual({
            code: 'not_found',
            message: `Match ${id} was not found.`,
            details: null,
          });
        };
        await expectMissing(unknown);
        await expectMissing('not-a-match');
        await expectMissing(`${reference}-1.ABCDEF012345`);
        await expectMissing(match, keys.paymentsAndAlpha);
        await expectMissing(match, keys.foreign);
      });

      it('checks and cases: unknown, in another group, in another account', async () => {
        for (const [key, ref] of [
          [keys.all!, 'ZZZ000000'],
          [keys.paymentsAndAlpha!, reference],
          [keys.all!, foreignReference],
        ] as const) {
          const check = await call('PATCH', `/v1/checks/${ref}-1/decision`, {
            key,
            body: { decision: 'pass' },
          });
          expect(check.status).toBe(404);
          expect(check.body.error).toEqual({
            code: 'not_found',
            message: `Check ${ref}-1 was not found.`,
            details: null,
          });
          const decided = await call('PATCH', `/v1/cases/${ref}/decision`, {
            key,
            body: { decision: 'pass' },
          });
          expect(decided.body.error).toEqual({
            code: 'not_found',
            message: `Case ${ref} was not found.`,
            details: null,
          });
          const material = await call('POST', `/v1/cases/${ref}/materials`, {
            key,
            body: { title: 'T', note: 'n' },
          });
          expect(material.body.error).toEqual({
            code: 'not_found',
            message: `Case ${ref} was not found.`,
            details: null,
          });
        }
        // A check number the case does not have.
        const missingCheck = await call('PATCH', `/v1/checks/${reference}-7/decision`, {
          body: { decision: 'pass' },
        });
        expect(missingCheck.body.error).toEqual({
          code: 'not_found',
          message: `Check ${reference}-7 was not found.`,
          details: null,
        });
      });
    });

    it.each([
      ['PATCH', '/v1/matches/ABC123456-1.0123456789ab/review', { review_status: 'maybe' }, 'review_status'],
      ['PATCH', '/v1/matches/ABC123456-1.0123456789ab/review', {}, 'review_status'],
      [
        'PATCH',
        '/v1/matches/ABC123456-1.0123456789ab/review',
        { review_status: 'not_relevant', note: 'n'.repeat(2001) },
        'note',
      ],
      ['PATCH', '/v1/checks/ABC123456-1/decision', { decision: 'approve' }, 'decision'],
      [
        'PATCH',
        '/v1/checks/ABC123456-1/decision',
        { decision: 'pass', decision_notes: 'n'.repeat(4001) },
        'decision_notes',
      ],
      ['PATCH', '/v1/checks/ABC123456/decision', { decision: 'pass' }, 'check_reference'],
      ['PATCH', '/v1/cases/ABC123456/decision', { decision: 'pending_decision' }, 'decision'],
      [
        'PATCH',
        '/v1/cases/ABC123456/decision',
        { decision: 'fail', decision_notes: 'n'.repeat(4001) },
        'decision_notes',
      ],
      ['PATCH', '/v1/cases/abc123456/decision', { decision: 'pass' }, 'case_reference'],
    ])('%s %s refuses %j with 400 on %s', async (method, path, body, key) => {
      expect(Object.keys(fieldErrors(await call(method, path, { body })))).toContain(key);
    });

    it('checks the scopes of the review and the check decision (403)', async () => {
      const reviewOnly = await createKey(db.pool, accountId, ['cases:read'], { groups: { kind: 'all' } });
      expectError(
        await call('PATCH', '/v1/matches/ABC123456-1.0123456789ab/review', {
          key: reviewOnly,
          body: { review_status: 'not_relevant' },
        }),
        403,
        'forbidden',
      );
      expectError(
        await call('PATCH', '/v1/checks/ABC123456-1/decision', {
          key: reviewOnly,
          body: { decision: 'pass' },
        }),
        403,
        'forbidden',
      );
      expectError(
        await call('POST', '/v1/cases/ABC123456/materials', {
          key: reviewOnly,
          body: { title: 'T', note: 'n' },
        }),
        403,
        'forbidden',
      );
    });
  });

  describe('POST /v1/cases/{case_reference}/materials', () => {
    let reference: string;
    beforeAll(async () => {
      reference = (await createCase(sanctionsCase({ name: 'Material Person' }))).case_reference;
    });

    it('adds notes, links and both, available at once', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ title: 'Call notes', note: 'Spoke to the customer.' }, 'note'],
        [{ title: 'Registry', url: 'https://registry.example/acme', note: null }, 'link'],
        [{ title: 'Listing', note: 'Same birth year.', url: 'http://lists.example/x?id=1' }, 'mixed'],
      ];
      for (const [body, type] of cases) {
        const added = await call<Record<string, unknown>>('POST', `/v1/cases/${reference}/materials`, {
          key: keys.agent,
          body,
        });
        expect(added.status, JSON.stringify(added.body)).toBe(201);
        expect(added.body.data).toMatchObject({
          material_id: expect.stringMatching(/^material_[0-9a-f]{24}$/),
          case_reference: reference,
          type,
          status: 'available',
          title: body.title,
          attachments: [],
          group_id: defaultGroupId,
          note: body.note ?? null,
          url: body.url ?? null,
          check_id: null,
          created_by_actor: { type: 'agent', id: keys.agent!.key.id },
        });
      }
    });

    it('adds a material once however often the request is retried', async () => {
      const idempotencyKey = freshKey();
      const body = { title: 'Once', note: 'Only once.' };
      const first = await call<{ material_id: string }>('POST', `/v1/cases/${reference}/materials`, {
        body,
        idempotencyKey,
      });
      const retry = await call<{ material_id: string }>('POST', `/v1/cases/${reference}/materials`, {
        body,
        idempotencyKey,
      });
      expect(retry.body.data.material_id).toBe(first.body.data.material_id);
      const { state } = await loadCase(store, reference);
      expect(state?.materials.filter((m) => m.materialId === first.body.data.material_id)).toHaveLength(1);
    });

    it.each([
      ['neither note nor url', { title: 'Empty' }, ['note', 'url']],
      ['null note and url', { title: 'Empty', note: null, url: null }, ['note', 'url']],
      ['no title', { note: 'n' }, ['title']],
      ['an empty title', { title: '', note: 'n' }, ['title']],
      ['a blank title', { title: '   ', note: 'n' }, ['title']],
      ['a title over 160', { title: 't'.repeat(161), note: 'n' }, ['title']],
      ['a note over 4000', { title: 'T', note: 'n'.repeat(4001) }, ['note']],
      ['a blank note', { title: 'T', note: ' ' }, ['note']],
      ['a url over 1000', { title: 'T', url: `https://example.com/${'a'.repeat(981)}` }, ['url']],
      ['a relative url', { title: 'T', url: '/docs/1' }, ['url']],
      ['an ftp url', { title: 'T', url: 'ftp://files.example/x' }, ['url']],
      ['a javascript url', { title: 'T', url: 'javascript:alert(1)' }, ['url']],
      ['a file', { title: 'T', note: 'n', file: 'x' }, ['file']],
    ])('refuses %s with 400', async (_name, body, keysExpected) => {
      const errors = fieldErrors(await call('POST', `/v1/cases/${reference}/materials`, { body }));
      expect(Object.keys(errors).sort()).toEqual([...keysExpected].sort());
    });

    it('takes a url of exactly 1000 characters and a title of 160', async () => {
      const url = `https://example.com/${'a'.repeat(1000 - 'https://example.com/'.length)}`;
      const added = await call('POST', `/v1/cases/${reference}/materials`, {
        body: { title: 't'.repeat(160), url },
      });
      expect(added.status).toBe(201);
    });
  });
});
