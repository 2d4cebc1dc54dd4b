import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { type RunningProjections, startProjections } from '../../../projections/startProjections.js';
import { monitoringConfigId } from '../../../src/monitoring/monitoringReferences.js';
import { unXmlFormat } from '../../../src/screening/parsers/unXml.js';
import { loadSnapshot } from '../../../src/screening/snapshots/loadSnapshot.js';
import { SCOPES, type Scope } from '../../../src/workspace/keyPolicy.js';
import type { CreatedApiKey } from '../../../src/workspace/keyStore.js';
import { createGroup } from '../../../src/workspace/workspaceStore.js';
import {
  createCaseWorkspace,
  createKey,
  createMember,
  DAY_MS,
  freshSubjectReference,
  startApiServer,
} from '../../support/caseApi.js';
import { eventually } from '../../support/eventually.js';
import {
  changedRun,
  enrollNewSubject,
  recordRun,
  runMonitoringCommand,
} from '../../support/monitoringBuilders.js';
import { fixturePath } from '../../support/parsedEntities.js';
import { fastRunnerOptions } from '../../support/subscriptionFixtures.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

/**
 * The six monitoring endpoints over real HTTP (docs/monitoring.md, "API"): create-or-update,
 * idempotency, scopes, group scope, subject visibility, membership, validation, the list's filters
 * and cursor, PATCH, and the runs and alerts a run records (written to the stream as the run
 * worker writes them) as the monitoring_activity projection shows them.
 */

// biome-ignore lint/suspicious/noExplicitAny: response bodies are JSON read field by field in the assertions
type Json = Record<string, any>;
interface Envelope {
  data: Json;
  error?: { code: string; message: string; details: Json | null };
}

describe('monitoring configurations over HTTP', () => {
  let opened: TestEventStore;
  let app: FastifyInstance;
  let url: string;
  let workers: RunningProjections;
  let accountId: string;
  let defaultGroup: string;
  let groupA: string;
  let groupB: string;
  let owner: string;
  let outsider: string;
  const keys: Record<'a' | 'b' | 'both' | 'defaultAndA' | 'readOnly' | 'noMonitoring', CreatedApiKey> =
    {} as never;

  beforeAll(async () => {
    opened = await openTestEventStore();
    const { pool } = opened.db;
    await installProjections(pool, projections);
    const workspace = await createCaseWorkspace(pool, {
      account: 'Monitoring Co',
      groups: ['Desk A', 'Desk B'],
      foreign: 'Elsewhere Ltd',
    });
    accountId = workspace.accountId;
    defaultGroup = workspace.defaultGroupId;
    [groupA, groupB] = workspace.groupIds as [string, string];
    owner = await createMember(pool, { accountId, email: 'owner@example.test' }, [
      groupA,
      groupB,
      defaultGroup,
    ]);
    outsider = await createMember(pool, { accountId, email: 'outsider@example.test' }, [groupB]);
    const key = (ids: string[], scopes: readonly Scope[] = SCOPES) =>
      createKey(pool, accountId, scopes, { groups: { kind: 'ids', ids } });
    keys.a = await key([groupA]);
    keys.b = await key([groupB]);
    keys.both = await key([groupA, groupB]);
    keys.defaultAndA = await key([defaultGroup, groupA]);
    keys.readOnly = await key([groupA], ['monitoring:read']);
    keys.noMonitoring = await key(
      [groupA],
      SCOPES.filter((s) => !s.startsWith('monitoring:')),
    );
    await loadSnapshot(pool, {
      format: unXmlFormat,
      paths: [fixturePath('un-xml', 'consolidated.xml')],
      publishedAt: new Date(Date.now() - DAY_MS),
    });
    workers = await startProjections({
      pool,
      databaseUrl: opened.db.url,
      store: opened.store,
      definitions: projections,
      runner: fastRunnerOptions,
    });
    ({ app, url } = await startApiServer({ pool, store: opened.store, rateLimit: 100_000 }));
  });

  afterAll(async () => {
    await app?.close();
    await workers?.stop();
    await opened?.close();
  });

  async function call(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    key: CreatedApiKey,
    body?: unknown,
    idempotencyKey = `idem-${randomUUID()}`,
  ) {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key.rawKey}`,
        ...(method === 'GET'
          ? {}
          : { 'idempotency-key': idempotencyKey, 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.status,
      replayed: response.headers.get('idempotent-replayed'),
      body: (await response.json()) as Envelope,
    };
  }

  /** A subject of the group, made by a case the group's key creates: its reference. */
  async function subjectIn(key: CreatedApiKey, groupId: string, name = 'Ri Won Ho'): Promise<string> {
    const created = await call('POST', '/v1/cases', key, {
      subject: { name, countries: ['KP'] },
      case: { group_id: groupId },
      checks: { types: ['sanctions'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.subject.subject_reference;
  }

  async function caseIn(key: CreatedApiKey, groupId: string, subjectReference: string): Promise<string> {
    const created = await call('POST', '/v1/cases', key, {
      subject: { mode: 'existing', subject_reference: subjectReference },
      case: { group_id: groupId },
      checks: { types: ['sanctions'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.case_reference;
  }

  async function enroll(key: CreatedApiKey, body: Json) {
    const created = await call('POST', '/v1/monitoring-configs', key, body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data;
  }

  it('creates a configuration (201), then updates it for the same subject and group (200), and replays a retry', async () => {
    const subject = await subjectIn(keys.a, groupA);
    const body = {
      subject_reference: subject,
      check_types: ['sanctions', 'pep'],
      group_id: groupA,
      owner_user_id: owner,
      metadata: { tier: 'high' },
    };
    const idem = `idem-${randomUUID()}`;
    const created = await call('POST', '/v1/monitoring-configs', keys.a, body, idem);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const config = created.body.data;
    expect(config).toEqual({
      monitoring_config_id: monitoringConfigId(accountId, subject, groupA),
      group_id: groupA,
      owner_user_id: owner,
      status: 'active',
      check_types: ['sanctions', 'pep'],
      latest_result: 'not_checked',
      created_at: expect.any(String),
      updated_at: config.created_at,
      subject_reference: subject,
      subject: {
        subject_reference: subject,
        type: 'person',
        display_name: 'Ri Won Ho',
        countries: ['KP'],
        birth_date: null,
        external_reference: null,
      },
      group: { id: groupA, name: 'Desk A', slug: 'desk-a' },
      collaborator_user_ids: [],
      metadata: { tier: 'high' },
      last_checked_at: null,
      last_change_detected_at: null,
      latest_result_label: 'Not checked yet',
      latest_result_summary: null,
      latest_run_id: null,
      open_follow_up_case_count: 0,
      allowed_actions: ['update', 'pause'],
      recommended_next_actions: [],
    });

    // The same request again with the same key: the stored answer, not a second write.
    const retried = await call('POST', '/v1/monitoring-configs', keys.a, body, idem);
    expect(retried).toMatchObject({ status: 201, replayed: 'true' });
    expect(retried.body.data).toEqual(config);

    // Another request for the subject in the group: the existing configuration, updated.
    const updated = await call('POST', '/v1/monitoring-configs', keys.both, {
      subject_reference: subject,
      check_types: ['sanctions'],
      group_id: groupA,
      status: 'paused',
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toMatchObject({
      monitoring_config_id: config.monitoring_config_id,
      check_types: ['sanctions'],
      status: 'paused',
      owner_user_id: owner,
      metadata: { tier: 'high' },
      allowed_actions: ['update', 'resume'],
    });
    const read = await call('GET', `/v1/monitoring-configs/${config.monitoring_config_id}`, keys.readOnly);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ ...updated.body.data, allowed_actions: [] });
  });

  it("takes the key's default group when group_id is null or absent, as POST /v1/cases does", async () => {
    const subject = await subjectIn(keys.a, groupA);
    for (const group of [{ group_id: null }, {}]) {
      const answer = await call('POST', '/v1/monitoring-configs', keys.defaultAndA, {
        subject_reference: subject,
        check_types: ['sanctions'],
        ...group,
      });
      expect([200, 201]).toContain(answer.status);
      expect(answer.body.data.group_id).toBe(defaultGroup);
      expect(answer.body.data.monitoring_config_id).toBe(
        monitoringConfigId(accountId, subject, defaultGroup),
      );
    }
  });

  it('refuses keys without the monitoring scopes (403)', async () => {
    const subject = await subjectIn(keys.a, groupA);
    const post = await call('POST', '/v1/monitoring-configs', keys.readOnly, {
      subject_reference: subject,
      check_types: ['sanctions'],
    });
    expect(post.status).toBe(403);
    expect(post.body.error?.details).toEqual({ required_scopes: ['monitoring:write'] });
    const config = await enroll(keys.a, { subject_reference: subject, check_types: ['sanctions'] });
    const id = config.monitoring_config_id;
    for (const path of [
      '/v1/monitoring-configs',
      `/v1/monitoring-configs/${id}`,
      `/v1/monitoring-configs/${id}/runs`,
      `/v1/monitoring-configs/${id}/alerts`,
    ]) {
      const answer = await call('GET', path, keys.noMonitoring);
      expect(answer.status, path).toBe(403);
      expect(answer.body.error?.details).toEqual({ required_scopes: ['monitoring:read'] });
    }
    expect(
      (await call('PATCH', `/v1/monitoring-configs/${id}`, keys.readOnly, { status: 'paused' })).status,
    ).toBe(403);
  });

  it("answers another group's configuration exactly as a missing one (404), and a malformed id with 400", async () => {
    const subject = await subjectIn(keys.a, groupA);
    const config = await enroll(keys.a, { subject_reference: subject, check_types: ['sanctions'] });
    const id = config.monitoring_config_id;
    const missing = `mon_${'0'.repeat(24)}`;
    const requests = [
      ['GET', ''],
      ['PATCH', ''],
      ['GET', '/runs'],
      ['GET', '/alerts'],
    ] as const;
    for (const [method, suffix] of requests) {
      const body = method === 'PATCH' ? { status: 'paused' } : undefined;
      const hidden = await call(method, `/v1/monitoring-configs/${id}${suffix}`, keys.b, body);
      const absent = await call(method, `/v1/monitoring-configs/${missing}${suffix}`, keys.b, body);
      expect(hidden.status, `${method} ${suffix}`).toBe(404);
      expect(absent.status).toBe(404);
      expect(hidden.body.error).toEqual({
        code: 'not_found',
        message: `Monitoring configuration ${id} was not found.`,
        details: null,
      });
      expect(JSON.stringify(hidden.body.error).replaceAll(id, missing)).toBe(
        JSON.stringify(absent.body.error),
      );
      const malformed = await call(method, `/v1/monitoring-configs/MON_1${suffix}`, keys.a, body);
      expect(malformed.status).toBe(400);
      expect(malformed.body.error?.details?.fieldErrors).toHaveProperty('monitoring_config_id');
    }
    // Nothing changed through the PATCH of the other group's key.
    expect((await call('GET', `/v1/monitoring-configs/${id}`, keys.a)).body.data.status).toBe('active');
  });

  it('answers a hidden subject as a missing one, a hidden group with 404, and a non-member owner with 422', async () => {
    const theirs = await subjectIn(keys.b, groupB, 'Other Desk Party');
    const missing = freshSubjectReference();
    const hidden = await call('POST', '/v1/monitoring-configs', keys.a, {
      subject_reference: theirs,
      check_types: ['sanctions'],
    });
    const absent = await call('POST', '/v1/monitoring-configs', keys.a, {
      subject_reference: missing,
      check_types: ['sanctions'],
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error?.message).toBe(`Subject ${theirs} was not found.`);
    expect(JSON.stringify(hidden.body.error).replaceAll(theirs, missing)).toBe(
      JSON.stringify(absent.body.error),
    );

    const ours = await subjectIn(keys.a, groupA);
    const hiddenGroup = await call('POST', '/v1/monitoring-configs', keys.a, {
      subject_reference: ours,
      check_types: ['sanctions'],
      group_id: groupB,
    });
    expect(hiddenGroup.status).toBe(404);
    expect(hiddenGroup.body.error?.message).toBe(`Group ${groupB} was not found.`);

    const notMember = await call('POST', '/v1/monitoring-configs', keys.a, {
      subject_reference: ours,
      check_types: ['sanctions'],
      owner_user_id: outsider,
    });
    expect(notMember.status).toBe(422);
    expect(notMember.body.error?.details).toEqual({ group_id: groupA, non_member_user_ids: [outsider] });
    const collaborator = await call('POST', '/v1/monitoring-configs', keys.a, {
      subject_reference: ours,
      check_types: ['sanctions'],
      collaborator_user_ids: [outsider],
    });
    expect(collaborator.status).toBe(422);
    // Nothing was enrolled by the refusals.
    const id = monitoringConfigId(accountId, ours, groupA);
    expect((await call('GET', `/v1/monitoring-configs/${id}`, keys.a)).status).toBe(404);
  });

  it('validates check_types: 1 to 3 known types, each once (400 with every problem)', async () => {
    const subject = await subjectIn(keys.a, groupA);
    const cases: [unknown, string][] = [
      [[], 'check_types'],
      [['sanctions', 'sanctions'], 'check_types.1'],
      [['sanctions', 'adverse_media'], 'check_types.1'],
      [['sanctions', 'pep', 'business_entity_risk', 'pep'], 'check_types'],
      [undefined, 'check_types'],
    ];
    for (const [checkTypes, field] of cases) {
      const answer = await call('POST', '/v1/monitoring-configs', keys.a, {
        subject_reference: subject,
        check_types: checkTypes,
      });
      expect(answer.status, JSON.stringify(checkTypes)).toBe(400);
      expect(answer.body.error?.details?.fieldErrors, JSON.stringify(checkTypes)).toHaveProperty([field]);
    }
    const tooMany = await call('POST', '/v1/monitoring-configs', keys.a, {
      subject_reference: subject,
      check_types: ['pep'],
      collaborator_user_ids: Array.from({ length: 51 }, () => randomUUID()),
      colour: 'red',
    });
    expect(tooMany.status).toBe(400);
    expect(Object.keys(tooMany.body.error?.details?.fieldErrors ?? {}).sort()).toEqual([
      'collaborator_user_ids',
      'colour',
    ]);
    const patch = await call('PATCH', `/v1/monitoring-configs/mon_${'0'.repeat(24)}`, keys.a, {
      check_types: ['pep', 'pep'],
    });
    expect(patch.status).toBe(400);
  });

  it('lists newest first within the key’s groups, with filters, limit and a cursor', async () => {
    const subjects = [
      await subjectIn(keys.a, groupA, 'List One'),
      await subjectIn(keys.a, groupA, 'List Two'),
      await subjectIn(keys.a, groupA, 'List Three'),
    ];
    const ids: string[] = [];
    for (const subject of subjects)
      ids.push(
        (await enroll(keys.a, { subject_reference: subject, check_types: ['sanctions'] }))
          .monitoring_config_id,
      );
    await call('PATCH', `/v1/monitoring-configs/${ids[1]}`, keys.a, { status: 'paused' });
    const theirs = await enroll(keys.b, {
      subject_reference: await subjectIn(keys.b, groupB, 'List Theirs'),
      check_types: ['pep'],
    });

    const listed = async (query: string, key = keys.a) => {
      const answer = await call('GET', `/v1/monitoring-configs${query}`, key);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data as { monitoring_configs: Json[]; next_cursor: string | null };
    };
    // The list reads the read model: wait until all four are projected.
    await eventually(async () => {
      const all = (await listed('?limit=100')).monitoring_configs.map((c) => c.monitoring_config_id);
      expect(all).toEqual(expect.arrayContaining(ids));
      expect(
        (await listed('?status=paused')).monitoring_configs.map((c) => c.monitoring_config_id),
      ).toContain(ids[1]);
      expect(
        (await listed('?limit=100', keys.b)).monitoring_configs.map((c) => c.monitoring_config_id),
      ).toContain(theirs.monitoring_config_id);
    });
    const all = (await listed('?limit=100')).monitoring_configs;
    expect(all.map((c) => c.monitoring_config_id)).not.toContain(theirs.monitoring_config_id);
    expect(all.every((c) => c.group_id === groupA)).toBe(true);
    const order = all.map((c) => `${c.created_at} ${c.monitoring_config_id}`);
    expect(order).toEqual([...order].sort().reverse());
    expect(all.findIndex((c) => c.monitoring_config_id === ids[2])).toBeLessThan(
      all.findIndex((c) => c.monitoring_config_id === ids[0]),
    );

    expect(
      (await listed(`?subject_reference=${subjects[0]}`)).monitoring_configs.map(
        (c) => c.monitoring_config_id,
      ),
    ).toEqual([ids[0]]);
    // Another group's subject, monitored there (B's key lists it, above): nothing for A's key, the
    // same answer as for a subject that does not exist.
    expect(await listed(`?subject_reference=${theirs.subject_reference}`)).toEqual({
      monitoring_configs: [],
      next_cursor: null,
    });
    expect(await listed(`?subject_reference=${freshSubjectReference()}`)).toEqual({
      monitoring_configs: [],
      next_cursor: null,
    });
    expect(
      (await listed(`?subject_reference=${theirs.subject_reference}`, keys.b)).monitoring_configs.map(
        (c) => c.monitoring_config_id,
      ),
    ).toEqual([theirs.monitoring_config_id]);
    const paused = (await listed('?status=paused')).monitoring_configs;
    expect(paused.map((c) => c.monitoring_config_id)).toContain(ids[1]);
    expect(paused.every((c) => c.status === 'paused')).toBe(true);
    expect((await listed('?latest_result=no_change')).monitoring_configs).toEqual([]);
    expect(
      (await listed('?latest_result=not_checked&status=active&limit=100')).monitoring_configs.map(
        (c) => c.monitoring_config_id,
      ),
    ).toEqual(expect.arrayContaining([ids[0], ids[2]]));

    // Pages of one: every configuration once, in the same order, then no cursor.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await listed(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.monitoring_configs.length).toBeLessThanOrEqual(1);
      paged.push(...page.monitoring_configs.map((c) => c.monitoring_config_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(paged).toEqual(all.map((c) => c.monitoring_config_id));
    expect((await listed('?limit=2')).monitoring_configs).toHaveLength(2);

    const firstPage = await listed('?limit=1');
    const otherFilter = await call(
      'GET',
      `/v1/monitoring-configs?limit=1&status=active&cursor=${firstPage.next_cursor}`,
      keys.a,
    );
    expect(otherFilter.status).toBe(400);
    expect(otherFilter.body.error?.details?.fieldErrors).toHaveProperty('cursor');
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?status=stopped',
      '?latest_result=maybe',
      '?cursor=nope!',
      // A forged cursor of year 0: a date PostgreSQL refuses, so a 400 here and never a 500.
      `?cursor=${Buffer.from(JSON.stringify({ v: 1, c: '0000-01-01T00:00:00Z', i: 'mon_a', f: '[null,null,null]' })).toString('base64url')}`,
    ]) {
      expect((await call('GET', `/v1/monitoring-configs${query}`, keys.a)).status, query).toBe(400);
    }
    // A subject reference no subject can have matches nothing; one with a NUL byte is text the service
    // refuses everywhere (docs/api-conventions.md): 400, never a 500.
    const unknown = await call('GET', '/v1/monitoring-configs?subject_reference=not-a-reference', keys.a);
    expect(unknown.status).toBe(200);
    expect((unknown.body.data as { monitoring_configs: unknown[] }).monitoring_configs).toEqual([]);
    for (const reference of ['%00', 'sub_%00abc']) {
      const answer = await call('GET', `/v1/monitoring-configs?subject_reference=${reference}`, keys.a);
      expect(answer.status, reference).toBe(400);
    }
  });

  it('pages 25 configurations by default', async () => {
    const { pool } = opened.db;
    const desk = (await createGroup(pool, { accountId, name: 'Desk Paging' })).id;
    const deskKey = await createKey(pool, accountId, SCOPES, { groups: { kind: 'ids', ids: [desk] } });
    const ids: string[] = [];
    for (let i = 0; i < 26; i++) {
      const { configId } = await enrollNewSubject(
        { pool, store: opened.store },
        { accountId, groupId: desk },
        { name: `Paging Subject ${i}` },
      );
      ids.push(configId);
    }
    const listed = async (query: string) => {
      const answer = await call('GET', `/v1/monitoring-configs${query}`, deskKey);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data as { monitoring_configs: Json[]; next_cursor: string | null };
    };
    await eventually(async () => expect((await listed('?limit=100')).monitoring_configs).toHaveLength(26));
    const first = await listed('');
    expect(first.monitoring_configs).toHaveLength(25);
    expect(first.next_cursor).not.toBeNull();
    const rest = await listed(`?cursor=${first.next_cursor}`);
    expect(rest).toEqual({ monitoring_configs: [expect.any(Object)], next_cursor: null });
    expect(
      [...first.monitoring_configs, ...rest.monitoring_configs].map((c) => c.monitoring_config_id).sort(),
    ).toEqual([...ids].sort());
  });

  it("shows the subject's birth date as the case resource does: a BirthDate object, or null", async () => {
    for (const birthDate of [{ year: 1964, month: 7, day: 17 }, { year: 1950 }]) {
      const created = await call('POST', '/v1/cases', keys.a, {
        subject: { name: 'Born Person', birth_date: birthDate },
        case: { group_id: groupA },
        checks: { types: ['sanctions'] },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const subject = created.body.data.subject;
      expect(subject.birth_date).toEqual(birthDate);
      const config = await enroll(keys.a, {
        subject_reference: subject.subject_reference,
        check_types: ['sanctions'],
      });
      expect(config.subject.birth_date).toEqual(subject.birth_date);
      const read = await call('GET', `/v1/monitoring-configs/${config.monitoring_config_id}`, keys.a);
      expect(read.body.data.subject.birth_date).toEqual(birthDate);
    }
  });

  it('PATCHes status, check types and the group, refusing a move to a group where the subject is monitored (409)', async () => {
    const subject = await subjectIn(keys.a, groupA);
    const config = await enroll(keys.a, {
      subject_reference: subject,
      check_types: ['sanctions'],
      owner_user_id: owner,
    });
    const id = config.monitoring_config_id;
    const path = `/v1/monitoring-configs/${id}`;

    const paused = await call('PATCH', path, keys.a, { status: 'paused', check_types: ['pep', 'sanctions'] });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body.data).toMatchObject({
      status: 'paused',
      check_types: ['pep', 'sanctions'],
      allowed_actions: ['update', 'resume'],
    });
    const unchanged = await call('PATCH', path, keys.a, {});
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.data.updated_at).toBe(paused.body.data.updated_at);
    expect((await call('PATCH', path, keys.a, { collaborator_user_ids: [outsider] })).status).toBe(422);

    // A move needs a group the key can see.
    const hidden = await call('PATCH', path, keys.a, { group_id: groupB });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error?.message).toBe(`Group ${groupB} was not found.`);

    const moved = await call('PATCH', path, keys.both, { group_id: groupB });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({
      monitoring_config_id: id,
      group_id: groupB,
      group: { id: groupB, name: 'Desk B' },
    });
    // Now the other group's key sees it, and the first group's does not.
    expect((await call('GET', path, keys.b)).status).toBe(200);
    expect((await call('GET', path, keys.a)).status).toBe(404);

    // Its stream is the subject's in group A: enrolling there again must not touch the moved one.
    const again = await call('POST', '/v1/monitoring-configs', keys.a, {
      subject_reference: subject,
      check_types: ['business_entity_risk'],
    });
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(again.body.error?.code).toBe('conflict');
    expect((await call('GET', path, keys.b)).body.data.check_types).toEqual(['pep', 'sanctions']);

    // A subject monitored in both groups: moving one configuration onto the other is a conflict.
    const both = await subjectIn(keys.a, groupA, 'Both Desks');
    const inA = await enroll(keys.both, {
      subject_reference: both,
      check_types: ['sanctions'],
      group_id: groupA,
    });
    const inB = await enroll(keys.both, { subject_reference: both, check_types: ['pep'], group_id: groupB });
    const conflict = await call('PATCH', `/v1/monitoring-configs/${inA.monitoring_config_id}`, keys.both, {
      group_id: groupB,
    });
    expect(conflict.status, JSON.stringify(conflict.body)).toBe(409);
    expect(conflict.body.error).toMatchObject({
      code: 'conflict',
      details: { monitoring_config_id: inB.monitoring_config_id },
    });
    expect(
      (await call('GET', `/v1/monitoring-configs/${inA.monitoring_config_id}`, keys.a)).body.data.group_id,
    ).toBe(groupA);
  });

  it('lists no runs or alerts before the first run', async () => {
    const subject = await subjectIn(keys.a, groupA);
    const config = await enroll(keys.a, { subject_reference: subject, check_types: ['sanctions'] });
    const id = config.monitoring_config_id;
    for (const [suffix, list] of [
      ['/runs', 'runs'],
      ['/alerts', 'alerts'],
    ] as const) {
      const answer = await call('GET', `/v1/monitoring-configs/${id}${suffix}`, keys.a);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({
        monitoring_config_id: id,
        subject_reference: subject,
        group_id: groupA,
        [list]: [],
      });
    }
    for (const query of ['/runs?limit=0', '/alerts?limit=101', '/alerts?resolution_status=done']) {
      expect((await call('GET', `/v1/monitoring-configs/${id}${query}`, keys.a)).status, query).toBe(400);
    }
  });

  it('shows the runs and alerts a run records, through the follow-up case, and moves them with the group', async () => {
    const { store } = opened;
    const subject = await subjectIn(keys.a, groupA);
    const config = await enroll(keys.a, { subject_reference: subject, check_types: ['sanctions'] });
    const id = config.monitoring_config_id;
    const base = new Date(Date.parse(config.created_at) + 1000);
    const run = changedRun(id, subject, 'snapshot:1', base);
    await recordRun(store, id, run.events);

    const runsOf = async (key = keys.a, query = '') => {
      const answer = await call('GET', `/v1/monitoring-configs/${id}/runs${query}`, key);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data;
    };
    const alertsOf = async (query = '', key = keys.a) => {
      const answer = await call('GET', `/v1/monitoring-configs/${id}/alerts${query}`, key);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data;
    };
    await eventually(async () =>
      expect((await alertsOf()).alerts.map((a: Json) => a.resolution_status).sort()).toEqual([
        'creating_follow_up_case',
        'no_action_required',
      ]),
    );

    const runs = (await runsOf()).runs;
    expect(runs).toEqual([
      {
        monitoring_run_id: run.runId,
        monitoring_config_id: id,
        group_id: groupA,
        status: 'completed',
        check_types: ['sanctions'],
        source_snapshot_ids: [
          'snap_00000000000000000000000000000002',
          'snap_00000000000000000000000000000003',
        ],
        source_snapshot_version: 'un_sc_sanctions@2,us_ofac_sdn@7',
        started_at: run.at(0),
        completed_at: run.at(100),
        result: 'changed_matches',
        result_label: 'Changed matches',
        result_summary: '2 changed matches',
        match_count: 1,
        new_match_count: 0,
        changed_match_count: 2,
        unchanged_match_count: 0,
        created_case_reference: null,
        error_message: null,
        created_at: run.at(0),
        updated_at: run.at(100),
      },
    ]);
    const alerts = (await alertsOf()).alerts as Json[];
    const changed = alerts.find((a) => a.alert_id === run.changedAlert)!;
    expect(changed).toMatchObject({
      monitoring_config_id: id,
      monitoring_run_id: run.runId,
      group_id: groupA,
      check_type: 'sanctions',
      screening_type: 'sanctions',
      matched_entity_id: 'un_sc_sanctions:6908555',
      source: { name: 'UN Security Council Consolidated List', record_reference: 'KPi.033' },
      display_name: 'RI WON HO',
      score: 93,
      confidence_band: 'high',
      changes: [
        { field: 'names', previous: ['RI WON HO'], current: ['RI WON HO', 'RI WON-HO'] },
        { field: 'identifiers', previous: [], current: ['passport:381310014'] },
      ],
      previous_snapshot: {
        names: ['RI WON HO'],
        identifiers: [],
        score: 93,
        listed: true,
        matched_entity_id: 'un_sc_sanctions:6908555',
      },
      current_snapshot: {
        names: ['RI WON HO', 'RI WON-HO'],
        identifiers: ['passport:381310014'],
        source_snapshot_id: 'snap_00000000000000000000000000000002',
      },
      current_match: { score: 0.934, match_type: 'exact_name', source_record_ref: 'KPi.033' },
      resolution_status: 'creating_follow_up_case',
      resolution_note: null,
      resolved_at: null,
      created_case_reference: null,
      allowed_actions: [],
      recommended_next_actions: ['wait_for_follow_up_case'],
    });
    expect(alerts.find((a) => a.alert_id === run.delistedAlert)).toMatchObject({
      score: null,
      confidence_band: null,
      current_match: null,
      current_snapshot: { listed: false, score: null },
      resolution_status: 'no_action_required',
      resolution_note: 'Delisting of a match reviewed not relevant.',
      resolved_at: run.at(103),
      recommended_next_actions: [],
    });
    expect(
      (await alertsOf('?resolution_status=no_action_required')).alerts.map((a: Json) => a.alert_id),
    ).toEqual([run.delistedAlert]);
    expect((await alertsOf('?limit=1')).alerts).toHaveLength(1);

    // The follow-up case is created: a real case of the subject in the group, still pending a decision.
    const followUp = await caseIn(keys.a, groupA, subject);
    await runMonitoringCommand(store, id, {
      type: 'RecordFollowUpCase',
      runId: run.runId,
      caseReference: followUp,
      now: run.at(200),
    });
    await eventually(async () =>
      expect((await alertsOf('?resolution_status=follow_up_case_created')).alerts).toHaveLength(1),
    );
    // What to do next reads the follow-up case's decision from case_views, which may be a moment
    // behind the alert's own projection.
    await eventually(async () =>
      expect((await alertsOf('?resolution_status=follow_up_case_created')).alerts[0]).toMatchObject({
        alert_id: run.changedAlert,
        created_case_reference: followUp,
        resolution_note: `Follow-up case ${followUp} was opened for review.`,
        resolved_at: run.at(200),
        recommended_next_actions: ['review_follow_up_case'],
      }),
    );
    expect((await runsOf()).runs[0]).toMatchObject({
      created_case_reference: followUp,
      updated_at: run.at(200),
    });
    await eventually(async () => {
      const read = (await call('GET', `/v1/monitoring-configs/${id}`, keys.a)).body.data;
      expect(read).toMatchObject({
        latest_result: 'changed_matches',
        latest_result_label: 'Changed matches',
        latest_result_summary: '2 changed matches',
        latest_run_id: run.runId,
        last_checked_at: run.at(100),
        last_change_detected_at: run.at(100),
        open_follow_up_case_count: 1,
        recommended_next_actions: ['review_follow_up_case'],
      });
    });

    // Later runs: one skipped, one failed, newest first.
    const skippedRun = `run_${'1'.repeat(24)}`;
    const failedRun = `run_${'2'.repeat(24)}`;
    await recordRun(store, id, [
      {
        type: 'MonitoringRunStarted',
        data: {
          runId: skippedRun,
          trigger: { kind: 'schedule' },
          checkTypes: ['sanctions'],
          occurredAt: run.at(1000),
        },
      },
      {
        type: 'MonitoringRunSkipped',
        data: {
          runId: skippedRun,
          reason: 'The sanctions sources are stale.',
          staleDatasets: ['un_sc_sanctions'],
          occurredAt: run.at(1001),
        },
      },
      {
        type: 'MonitoringRunStarted',
        data: {
          runId: failedRun,
          trigger: { kind: 'operator' },
          checkTypes: ['sanctions'],
          occurredAt: run.at(2000),
        },
      },
      {
        type: 'MonitoringRunFailed',
        data: { runId: failedRun, errorMessage: 'index build failed', occurredAt: run.at(2001) },
      },
    ]);
    await eventually(async () => expect((await runsOf()).runs).toHaveLength(3));
    const [failed, skipped] = (await runsOf()).runs;
    expect(failed).toMatchObject({
      monitoring_run_id: failedRun,
      status: 'failed',
      result: 'failed',
      result_label: 'Run failed',
      error_message: 'index build failed',
      completed_at: run.at(2001),
    });
    expect(skipped).toMatchObject({
      monitoring_run_id: skippedRun,
      status: 'skipped',
      result: 'skipped',
      result_summary: 'The sanctions sources are stale.',
      error_message: null,
      source_snapshot_version: null,
    });
    expect((await runsOf(keys.a, '?limit=1')).runs.map((r: Json) => r.monitoring_run_id)).toEqual([
      failedRun,
    ]);

    // Moved to group B: its runs and alerts go with it, for B's key only.
    const move = await call('PATCH', `/v1/monitoring-configs/${id}`, keys.both, { group_id: groupB });
    expect(move.status, JSON.stringify(move.body)).toBe(200);
    await eventually(async () => {
      const { rows } = await opened.db.pool.query(
        `SELECT group_id FROM monitoring_runs WHERE monitoring_config_id = $1
         UNION ALL SELECT group_id FROM monitoring_alerts WHERE monitoring_config_id = $1`,
        [id],
      );
      expect(rows.map((row) => row.group_id)).toEqual(Array(5).fill(groupB));
    });
    expect((await runsOf(keys.b)).runs.every((r: Json) => r.group_id === groupB)).toBe(true);
    expect((await alertsOf('', keys.b)).group_id).toBe(groupB);
    expect((await call('GET', `/v1/monitoring-configs/${id}/alerts`, keys.a)).status).toBe(404);
  });
});
