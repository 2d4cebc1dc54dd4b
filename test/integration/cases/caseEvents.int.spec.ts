import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseCommand } from '../../../src/cases/caseDecide.js';
import type { Actor } from '../../../src/cases/caseEvents.js';
import { caseEventResources } from '../../../src/cases/caseEventView.js';
import { loadCase, runCaseCommand } from '../../../src/cases/caseStream.js';
import { decodeEventCursor, encodeEventCursor } from '../../../src/cases/http/caseEventRoutes.js';
import { checkReference, matchId } from '../../../src/cases/references.js';
import { SCOPES, type Scope } from '../../../src/workspace/keyPolicy.js';
import type { CreatedApiKey, NewApiKey } from '../../../src/workspace/keyStore.js';
import {
  createCaseNow,
  createCaseWorkspace,
  createKey,
  createMember,
  getJson,
  runCase,
  startApiServer,
} from '../../support/caseApi.js';
import { complete, decideCheck, found, review, start } from '../../support/caseBuilders.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

interface Envelope {
  data?: {
    case_reference: string;
    group_id?: string;
    events: Record<string, unknown>[];
    next_cursor: string | null;
  };
  error?: { code: string; message: string; details: unknown };
  meta: { request_id: string };
}

type ListedEvent = Record<string, unknown> & { event_id: string; event_type: string };

describe('GET /v1/cases/{case_reference}/events over HTTP', () => {
  let es: TestEventStore;
  let app: FastifyInstance;
  let url: string;
  let accountId: string;
  let defaultGroupId: string;
  let otherGroupId: string;
  let foreignAccountId: string;
  let foreignGroupId: string;
  let reviewer: Actor;
  let apiClient: Actor;
  const keys: Record<string, CreatedApiKey> = {};
  let caseCounter = 0;

  const newReference = () => `EVT${String(100000 + caseCounter++).padStart(6, '0')}`;

  beforeAll(async () => {
    es = await openTestEventStore();
    const { pool } = es.db;
    const workspace = await createCaseWorkspace(pool, {
      account: 'Events Co',
      groups: ['Other desk'],
      foreign: 'Elsewhere',
    });
    ({ accountId, defaultGroupId, foreignAccountId, foreignGroupId } = workspace);
    otherGroupId = workspace.groupIds[0]!;
    const userId = await createMember(
      pool,
      { accountId, email: 'rita@example.com', displayName: 'Rita Reviewer' },
      [defaultGroupId],
    );
    reviewer = { type: 'human', id: userId, displayName: 'Rita Reviewer' };

    const newKey = (scopes: readonly Scope[], groups: NewApiKey['groups'], account = accountId) =>
      createKey(pool, account, scopes, { groups });
    keys.reader = await newKey(['events:read'], { kind: 'default' });
    keys.all = await newKey(SCOPES, { kind: 'all' });
    keys.otherGroup = await newKey(['events:read'], { kind: 'ids', ids: [otherGroupId] });
    keys.noScope = await newKey(['cases:read', 'checks:read'], { kind: 'all' });
    keys.foreign = await newKey(SCOPES, { kind: 'all' }, foreignAccountId);
    apiClient = { type: 'api_client', id: keys.all.key.id, displayName: keys.all.key.name };

    // Pagination walks make many requests; the limit itself is tested elsewhere.
    ({ app, url } = await startApiServer({ pool, store: es.store, rateLimit: 100_000 }));
  });
  afterAll(async () => {
    await app?.close();
    await es?.close();
  });

  const get = (path: string, key: CreatedApiKey | null = keys.reader!) =>
    getJson<Envelope>(`${url}${path}`, key);

  const eventsPath = (reference: string, query: Record<string, string | number> = {}) => {
    const search = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    return `/v1/cases/${reference}/events${search ? `?${search}` : ''}`;
  };

  async function list(reference: string, query: Record<string, string | number> = {}, key = keys.reader!) {
    const result = await get(eventsPath(reference, query), key);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return result.body.data!;
  }

  const run = (reference: string, command: CaseCommand) => runCase(es.store, reference, command);

  const now = () => new Date().toISOString();

  async function createCase(
    options: { groupId?: string; account?: string; types?: ('sanctions' | 'pep')[] } = {},
  ) {
    const reference = newReference();
    await run(
      reference,
      createCaseNow(
        {
          caseReference: reference,
          accountId: options.account ?? accountId,
          groupId: options.groupId ?? defaultGroupId,
          notes: 'Onboarding screening',
          actor: apiClient,
        },
        {
          displayName: 'Ivan Example',
          countries: ['RU'],
          birthDate: null,
          externalReference: null,
          metadata: {},
        },
        options.types,
      ),
    );
    return reference;
  }

  const match = (check: string, n: number) =>
    found(check, `entity-${n}`, {
      rank: n,
      displayName: `Ivan Example ${n}`,
      score: 0.9 - n / 100,
      sourceSnapshotId: null,
      datasets: ['test'],
    });

  /**
   * A case through a review: check started (audit-only), completed with two matches, both
   * reviewed, the check decided, then a review changed, which withdraws the decision (audit-only).
   */
  async function reviewedCase() {
    const reference = await createCase();
    const check = checkReference(reference, 1);
    await run(reference, start(check, 1, { worker: 'w-1', now: now() }));
    await run(
      reference,
      complete(check, [match(check, 1), match(check, 2)], { threshold: 0.8, snapshots: [], now: now() }),
    );
    const [first, second] = [matchId(check, 'entity-1'), matchId(check, 'entity-2')];
    const by = () => ({ actor: reviewer, now: now() });
    for (const id of [first, second]) {
      await run(reference, review(id, 'not_relevant', 'different birth year', by()));
    }
    await run(reference, decideCheck(check, 'pass', null, by()));
    await run(reference, review(first, 'confirmed_match', 'same passport number', by()));
    return reference;
  }

  async function addNotes(reference: string, count: number, label = 'note') {
    for (let i = 0; i < count; i += 1) {
      const eventId = randomUUID();
      await runCaseCommand(
        es.store,
        reference,
        {
          type: 'AddMaterial',
          materialId: `material_${eventId.replaceAll('-', '').slice(0, 24)}`,
          title: `${label} ${i}`,
          note: `${label} body ${i}`,
          url: null,
          attachments: [],
          actor: reviewer,
          now: now(),
        },
        () => eventId,
      );
    }
  }

  /** What the API must show: the allowlisted events of the stream, newest first. */
  async function expectedEvents(reference: string) {
    const { events } = await loadCase(es.store, reference);
    return caseEventResources(events)
      .reverse()
      .map(({ revision: _revision, ...event }) => event);
  }

  it('lists the allowlisted events newest first, each with its actor', async () => {
    const reference = await reviewedCase();
    const data = await list(reference);
    expect(data.case_reference).toBe(reference);
    expect(data.group_id).toBe(defaultGroupId);
    expect(data.next_cursor).toBeNull();
    expect(data.events.map((e) => e.event_type)).toEqual([
      'match_disposition_recorded',
      'check_decision_recorded',
      'match_disposition_recorded',
      'match_disposition_recorded',
      'case_review_started',
      'check_completed',
      'case_created',
    ]);
    expect(data.events).toEqual(await expectedEvents(reference));

    const [changed, decided, , , started, completed, created] = data.events as ListedEvent[];
    expect(created).toMatchObject({
      object_type: 'case',
      object_reference: reference,
      case_reference: reference,
      group_id: defaultGroupId,
      actor: { type: 'api_client', id: keys.all!.key.id, display_name: keys.all!.key.name },
      comment: 'Onboarding screening',
    });
    expect(completed!.actor).toEqual({ type: 'system', id: null, display_name: 'Case screening service' });
    const human = { type: 'human', id: reviewer.id, display_name: 'Rita Reviewer' };
    for (const event of [changed, decided, started]) expect(event!.actor).toEqual(human);
    expect(changed).toMatchObject({
      comment: 'same passport number',
      payload: { review_status: 'confirmed_match', withdrawn_check_decision: 'pass' },
    });
    for (const event of data.events) {
      const actor = event.actor as Record<string, unknown>;
      expect(Object.keys(actor).sort()).toEqual(['display_name', 'id', 'type']);
      expect(['human', 'api_client', 'agent', 'system']).toContain(actor.type);
      for (const field of [actor.id, actor.display_name])
        expect([null, 'string']).toContain(field === null ? null : typeof field);
      expect(Date.parse(event.occurred_at as string)).not.toBeNaN();
      expect(Date.parse(event.created_at as string)).not.toBeNaN();
    }
  });

  it('hides the audit-only CheckStarted and CheckDecisionWithdrawn events', async () => {
    const reference = await reviewedCase();
    const { events: stream } = await loadCase(es.store, reference);
    const hidden = stream.filter(
      (e) => e.event.type === 'CheckStarted' || e.event.type === 'CheckDecisionWithdrawn',
    );
    expect(hidden.map((e) => e.event.type).sort()).toEqual(['CheckDecisionWithdrawn', 'CheckStarted']);
    const data = await list(reference, { limit: 100 });
    expect(data.events).toHaveLength(stream.length - 2);
    const listed = new Set(data.events.map((e) => e.event_id));
    for (const event of hidden) expect(listed.has(event.id)).toBe(false);
  });

  it('filters by event_type and refuses unknown types', async () => {
    const reference = await reviewedCase();
    const reviews = await list(reference, { event_type: 'match_disposition_recorded' });
    expect(reviews.events.map((e) => e.event_type)).toEqual(Array(3).fill('match_disposition_recorded'));
    expect(reviews.events).toEqual(
      (await expectedEvents(reference)).filter((e) => e.event_type === 'match_disposition_recorded'),
    );
    expect((await list(reference, { event_type: 'case_reopened' })).events).toEqual([]);

    for (const bad of ['CheckStarted', 'check_started', 'case_created,check_completed']) {
      const result = await get(eventsPath(reference, { event_type: bad }));
      expect(result.status).toBe(400);
      expect(result.body.error).toMatchObject({
        code: 'invalid_request',
        details: { fieldErrors: { event_type: [expect.any(String)] } },
      });
    }
  });

  it('takes limit 1 to 100, 25 by default, and refuses anything else', async () => {
    const reference = await createCase();
    await addNotes(reference, 30);
    const all = await expectedEvents(reference);
    expect(all).toHaveLength(31);

    const first = await list(reference);
    expect(first.events).toEqual(all.slice(0, 25));
    expect(first.next_cursor).toEqual(expect.any(String));
    expect((await list(reference, { limit: 1 })).events).toEqual(all.slice(0, 1));
    const hundred = await list(reference, { limit: 100 });
    expect(hundred.events).toEqual(all);
    expect(hundred.next_cursor).toBeNull();
    expect((await list(reference, { limit: 31 })).next_cursor).toBeNull();
    expect((await list(reference, { limit: 30 })).next_cursor).toEqual(expect.any(String));

    for (const bad of ['0', '101', 'x', '1.5', '-1', '']) {
      const result = await get(eventsPath(reference, { limit: bad }));
      expect(result.status, `limit=${bad}`).toBe(400);
      expect(result.body.error).toMatchObject({
        code: 'invalid_request',
        details: { fieldErrors: { limit: [expect.any(String)] } },
      });
    }
  });

  it('pages with a cursor while new events arrive: nothing lost, nothing repeated', async () => {
    const reference = await createCase();
    await addNotes(reference, 11);
    const before = await expectedEvents(reference);
    expect(before).toHaveLength(12);

    const seen: ListedEvent[] = [];
    let page = await list(reference, { limit: 5 });
    let pages = 1;
    for (;;) {
      seen.push(...(page.events as ListedEvent[]));
      // Others write to the case between every two pages.
      await addNotes(reference, 3, `late ${pages}`);
      if (page.next_cursor === null) break;
      page = await list(reference, { limit: 5, cursor: page.next_cursor });
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen.map((e) => e.event_id)).toEqual(before.map((e) => e.event_id));
    expect(new Set(seen.map((e) => e.event_id)).size).toBe(seen.length);

    // A new walk starts at the newest event: the nine that arrived meanwhile come first.
    const fresh = await list(reference, { limit: 100 });
    expect(fresh.events).toHaveLength(21);
    expect(fresh.events.slice(9).map((e) => e.event_id)).toEqual(before.map((e) => e.event_id));
  });

  it('pages a filtered list with a cursor of that filter', async () => {
    const reference = await reviewedCase();
    await addNotes(reference, 4);
    const expected = (await expectedEvents(reference)).filter((e) => e.event_type === 'comment_added');
    const seen: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const page: NonNullable<Envelope['data']> = await list(reference, {
        event_type: 'comment_added',
        limit: 3,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.events);
      await addNotes(reference, 1, 'interleaved');
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(expected);
  });

  it('refuses a cursor of another case or another filter, and one it did not issue', async () => {
    const reference = await createCase();
    await addNotes(reference, 3);
    const other = await createCase();
    await addNotes(other, 3);
    const cursor = (await list(reference, { limit: 1 })).next_cursor!;
    const filtered = (await list(reference, { limit: 1, event_type: 'comment_added' })).next_cursor!;
    expect(decodeEventCursor(cursor)).toMatchObject({ caseReference: reference, eventType: null });

    const refused = async (path: string, message: RegExp) => {
      const result = await get(path);
      expect(result.status, path).toBe(400);
      expect(result.body.error).toMatchObject({
        code: 'invalid_request',
        details: { fieldErrors: { cursor: [expect.stringMatching(message)] } },
      });
    };
    await refused(eventsPath(other, { cursor }), /another case/);
    await refused(eventsPath(reference, { cursor, event_type: 'comment_added' }), /another event_type/);
    await refused(eventsPath(reference, { cursor: filtered }), /another event_type/);
    await refused(
      eventsPath(reference, { cursor: filtered, event_type: 'case_created' }),
      /another event_type/,
    );
    const garbage = [
      'garbage!',
      'abc',
      Buffer.from('{"v":1}').toString('base64url'),
      Buffer.from(JSON.stringify({ v: 1, c: reference, t: null, r: -1 })).toString('base64url'),
      Buffer.from(JSON.stringify({ v: 2, c: reference, t: null, r: 1 })).toString('base64url'),
      `${cursor}x`,
    ];
    for (const value of garbage) await refused(eventsPath(reference, { cursor: value }), /Not a cursor/);

    // Paging on with the right filter works, and the cursor is no secret: any revision is allowed.
    const page = await list(reference, { cursor: filtered, event_type: 'comment_added' });
    expect(page.events.map((e) => e.event_type)).toEqual(['comment_added', 'comment_added']);
    const last = encodeEventCursor({ caseReference: reference, eventType: null, revision: 0 });
    expect(await list(reference, { cursor: last })).toMatchObject({ events: [], next_cursor: null });
  });

  it('answers 404 alike for an unknown case and for one outside the key account or groups', async () => {
    const inOtherGroup = await createCase({ groupId: otherGroupId });
    const foreignCase = await createCase({ account: foreignAccountId, groupId: foreignGroupId });
    const unknown = 'ZZZ999999';

    const notFound = async (reference: string, key: CreatedApiKey) => {
      const result = await get(eventsPath(reference), key);
      expect(result.status).toBe(404);
      expect(result.body.error).toEqual({
        code: 'not_found',
        message: `Case ${reference} was not found.`,
        details: null,
      });
    };
    await notFound(unknown, keys.reader!);
    await notFound(inOtherGroup, keys.reader!);
    await notFound(foreignCase, keys.reader!);
    await notFound(foreignCase, keys.all!);
    await notFound(inOtherGroup, keys.foreign!);

    expect((await list(inOtherGroup, {}, keys.otherGroup)).events).toHaveLength(1);
    expect((await list(inOtherGroup, {}, keys.all)).events).toHaveLength(1);
    expect((await list(foreignCase, {}, keys.foreign)).group_id).toBe(foreignGroupId);
  });

  it('follows the case into its new group; each event keeps the group it happened in', async () => {
    const reference = await createCase();
    await run(reference, {
      type: 'ChangeGroup',
      groupId: otherGroupId,
      groupMemberIds: [],
      actor: reviewer,
      now: now(),
    });
    await addNotes(reference, 1);
    expect((await get(eventsPath(reference), keys.reader)).status).toBe(404);
    const data = await list(reference, {}, keys.otherGroup);
    expect(data.group_id).toBe(otherGroupId);
    expect(data.events.map((e) => [e.event_type, e.group_id])).toEqual([
      ['comment_added', otherGroupId],
      ['case_group_changed', defaultGroupId],
      ['case_created', defaultGroupId],
    ]);
  });

  it('needs the events:read scope and a key', async () => {
    const reference = await createCase({ groupId: defaultGroupId });
    const forbidden = await get(eventsPath(reference), keys.noScope);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toMatchObject({
      code: 'forbidden',
      details: { required_scopes: ['events:read'] },
    });
    expect((await get(eventsPath(reference), null)).status).toBe(401);
    const badPath = await get('/v1/cases/abc123/events');
    expect(badPath.status).toBe(400);
    expect(badPath.body.error).toMatchObject({
      details: { fieldErrors: { case_reference: expect.any(Array) } },
    });
  });
});
