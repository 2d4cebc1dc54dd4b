import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceFormats } from '../../src/screening/parsers/registry.js';
import { loadSnapshot } from '../../src/screening/snapshots/loadSnapshot.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { createWebhookEndpoint } from '../../src/webhooks/webhookEndpoints.js';
import { SCOPES } from '../../src/workspace/keyPolicy.js';
import { createApiKey } from '../../src/workspace/keyStore.js';
import { addMembership, createUser, createWorkspace } from '../../src/workspace/workspaceStore.js';
import { eventually } from '../support/eventually.js';
import { fixturePath } from '../support/parsedEntities.js';
import { screeningData } from '../support/screeningData.js';
import { type ServiceProcess, servingUrl, startServiceProcess } from '../support/serviceProcess.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

/**
 * The spec's recommended flow, end to end over real HTTP against the real service process
 * (src/main.ts, role `all`: HTTP, projections and the check runner): groups, a case created with an
 * Idempotency-Key (and retried), polling until the checks complete, each check read, its matches
 * reviewed, a material added, the check decided, the case decision refused to an agent and
 * recorded by a permitted API client, the case events read back, and the webhooks a receiver on
 * loopback got for each step (its endpoint takes every type, expanded). Screening runs against the
 * real UN and OFAC lists of SCREENING_DATA_DIR where present, else against the repository's small
 * UN fixture.
 */

const data = screeningData('end-to-end flow on the real lists (running it on the small UN fixture instead)');

interface World {
  lists: { format: string; paths: string[] }[];
  /** A listed person, with the birth date and nationality the list gives. */
  listed: { name: string; birthDate: { year: number; month?: number; day?: number }; countries: string[] };
  /** A person on no list. */
  unlisted: string;
}

const world: World = data.available
  ? {
      lists: [
        { format: 'un-xml', paths: [data.file('un', 'UN_consolidated_2026-02.xml')] },
        { format: 'ofac-xml', paths: [data.file('ofac', 'consolidated_2026-01.xml')] },
      ],
      listed: { name: 'Abdulhai Salek', birthDate: { year: 1965 }, countries: ['AF'] },
      unlisted: 'Ingeborg Abrahamsen',
    }
  : {
      lists: [{ format: 'un-xml', paths: [fixturePath('un-xml', 'consolidated.xml')] }],
      listed: { name: 'Ri Won Ho', birthDate: { year: 1964, month: 7, day: 17 }, countries: ['KP'] },
      unlisted: 'Ingeborg Abrahamsen',
    };

interface Service extends ServiceProcess {
  url: string;
}

async function startService(databaseUrl: string): Promise<Service> {
  const service = startServiceProcess('all', {
    DATABASE_URL: databaseUrl,
    FEED_POLL_INTERVAL_MS: '100',
    // The lists in the data folder are dated; the flow is about the workflow, not their age.
    SOURCE_STALE_AFTER: '3650d',
    // The test's receiver listens on loopback over http.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
  return { ...service, url: await servingUrl(service) };
}

interface Reply<T = Record<string, unknown>> {
  status: number;
  body: { data: T; meta: { request_id: string }; error?: { code: string; message: string } };
  headers: Headers;
}

describe('the recommended flow, end to end', () => {
  let db: TestDatabase;
  let service: Service;
  const keys: { client: string; agent: string } = { client: '', agent: '' };
  let userId = '';
  let receiver: WebhookReceiver;
  let signingSecret = '';

  async function call<T = Record<string, unknown>>(
    method: string,
    path: string,
    key: string,
    body?: unknown,
    idempotencyKey?: string,
  ): Promise<Reply<T>> {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(idempotencyKey && { 'idempotency-key': idempotencyKey }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as Reply<T>['body'],
      headers: response.headers,
    };
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    for (const list of world.lists) {
      await loadSnapshot(db.pool, { format: sourceFormats[list.format]!, paths: list.paths });
    }
    const { account, defaultGroup } = await createWorkspace(db.pool, { name: 'End to end' });
    const user = await createUser(db.pool, { accountId: account.id, email: 'reviewer@example.test' });
    userId = user.id;
    await addMembership(db.pool, { groupId: defaultGroup.id, userId });
    const client = await createApiKey(db.pool, {
      accountId: account.id,
      scopes: [...SCOPES],
      actorType: 'api_client',
      finalDecision: true,
      groups: { kind: 'default' },
      expiresAt: null,
    });
    const agent = await createApiKey(db.pool, {
      accountId: account.id,
      scopes: SCOPES.filter((scope) => scope !== 'case_decisions:write'),
      actorType: 'agent',
      finalDecision: false,
      groups: { kind: 'default' },
      expiresAt: null,
    });
    keys.client = client.rawKey;
    keys.agent = agent.rawKey;
    receiver = await startWebhookReceiver();
    const endpoint = await createWebhookEndpoint(
      db.pool,
      { accountId: account.id, url: receiver.url, eventTypes: 'all', mode: 'expanded' },
      { clock: () => new Date(), allowPrivateTargets: true },
    );
    signingSecret = endpoint.secret;
    service = await startService(db.url);
  });

  afterAll(async () => {
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await receiver?.close();
    await db?.drop();
  });

  /** The webhooks received so far about one case, each checked against its signature. */
  function webhooksOf(caseReference: string) {
    const deliveries = receiver.received.filter(
      (delivery) => delivery.body.data.case_reference === caseReference,
    );
    for (const delivery of deliveries) {
      expect(
        verifyWebhook({ rawBody: delivery.rawBody, headers: delivery.headers, secrets: signingSecret }),
      ).toEqual(delivery.body);
    }
    return deliveries;
  }

  it('runs from GET /v1/groups to a recorded case decision', async () => {
    // 1. The groups the key may use.
    const groups = await call<{ groups: { id: string; is_default: boolean }[] }>(
      'GET',
      '/v1/groups',
      keys.client,
    );
    expect(groups.status).toBe(200);
    const group = groups.body.data.groups.find((g) => g.is_default)!;

    // 2. A case, with an Idempotency-Key; the retry answers the same case.
    const request = {
      subject: {
        type: 'person',
        name: world.listed.name,
        birth_date: world.listed.birthDate,
        countries: world.listed.countries,
        external_reference: 'customer-42',
      },
      case: { group_id: group.id, owner_user_id: userId, notes: 'Onboarding screening' },
      checks: { types: ['sanctions'] },
    };
    type CaseData = {
      case_reference: string;
      decision: string;
      checks: { check_reference: string; lifecycle_status: string; decision: string; match_count: number }[];
      requires_human_review: boolean;
      recommended_next_actions: string[];
      allowed_actions: string[];
    };
    const created = await call<CaseData>('POST', '/v1/cases', keys.client, request, 'onboarding-customer-42');
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const caseReference = created.body.data.case_reference;
    expect(caseReference).toMatch(/^[A-Z]{3}[0-9]{6}$/);
    expect(created.body.data.checks.map((c) => c.lifecycle_status)).toEqual(['queued']);
    const retried = await call<CaseData>('POST', '/v1/cases', keys.client, request, 'onboarding-customer-42');
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.data.case_reference).toBe(caseReference);

    // 3. Poll until every check has completed.
    const completed = await eventually(
      async () => {
        const read = await call<CaseData>('GET', `/v1/cases/${caseReference}`, keys.client);
        expect(read.status).toBe(200);
        if (read.body.data.checks.some((c) => c.lifecycle_status !== 'completed')) {
          throw new Error(
            `checks not completed: ${JSON.stringify(read.body.data.checks)}\n${service.output()}`,
          );
        }
        return read.body.data;
      },
      120_000,
      200,
    );
    expect(completed.requires_human_review).toBe(true);
    expect(completed.recommended_next_actions).toContain('review_matches');
    // ... or wait for the check.completed webhook: it names the check and its match count.
    const checkCompleted = await eventually(() => {
      const found = webhooksOf(caseReference).find((delivery) => delivery.body.type === 'check.completed');
      if (!found) throw new Error(`no check.completed webhook yet\n${service.output()}`);
      return found.body.data;
    });
    expect(checkCompleted).toMatchObject({
      check_reference: completed.checks[0]!.check_reference,
      lifecycle_status: 'completed',
      match_count: completed.checks[0]!.match_count,
      screening_type: 'sanctions',
      subject_name: world.listed.name,
    });

    // 4. Read each check; the listed person is among its matches.
    type Match = {
      match_id: string;
      display_name: string;
      score: number;
      review_status: string;
      reason: object;
    };
    type CheckData = {
      check_reference: string;
      decision: string;
      matches: Match[];
      blocking_items: string[];
    };
    const [checkSummary] = completed.checks;
    const check = await call<CheckData>('GET', `/v1/checks/${checkSummary!.check_reference}`, keys.client);
    expect(check.status).toBe(200);
    expect(check.body.data.decision).toBe('pending_review');
    expect(check.body.data.matches.length).toBeGreaterThan(0);
    const [best, ...others] = check.body.data.matches;
    expect(best!.score).toBeGreaterThanOrEqual(0.9);
    expect(best!.reason).toHaveProperty('scored');
    expect(check.body.data.blocking_items).toContain(`match_pending_review:${best!.match_id}`);

    // A check cannot be decided while a match awaits review.
    const early = await call(
      'PATCH',
      `/v1/checks/${checkSummary!.check_reference}/decision`,
      keys.client,
      {
        decision: 'fail',
        decision_notes: 'Listed person',
      },
      'decide-check-early',
    );
    expect(early.status).toBe(422);

    // 5. Review the matches (an agent may).
    const confirmed = await call<Match>(
      'PATCH',
      `/v1/matches/${best!.match_id}/review`,
      keys.agent,
      {
        review_status: 'confirmed_match',
        note: 'Same name, birth year and nationality as the listing',
      },
      `review-${best!.match_id}`,
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.review_status).toBe('confirmed_match');
    for (const match of others) {
      const dismissed = await call(
        'PATCH',
        `/v1/matches/${match.match_id}/review`,
        keys.agent,
        {
          review_status: 'not_relevant',
          note: null,
        },
        `review-${match.match_id}`,
      );
      expect(dismissed.status).toBe(200);
    }

    // 6. Add a material: evidence for the reviewer who decides.
    const material = await call<{ material_id: string; type: string; status: string }>(
      'POST',
      `/v1/cases/${caseReference}/materials`,
      keys.agent,
      {
        title: 'Listing',
        note: 'The UN listing names the same birth year.',
        url: 'https://scsanctions.un.org/',
      },
      'material-listing',
    );
    expect(material.status).toBe(201);
    expect(material.body.data).toMatchObject({ type: 'mixed', status: 'available' });

    // 7. Decide the check.
    const decided = await call<CheckData>(
      'PATCH',
      `/v1/checks/${checkSummary!.check_reference}/decision`,
      keys.client,
      {
        decision: 'fail',
        decision_notes: 'Confirmed sanctioned person',
      },
      'decide-check',
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.data.decision).toBe('fail');

    // 8. An agent is refused the final decision; a permitted API client records it.
    const agentRead = await call<CaseData>('GET', `/v1/cases/${caseReference}`, keys.agent);
    expect(agentRead.body.data.allowed_actions).not.toContain('record_case_decision');
    expect(agentRead.body.data.recommended_next_actions).toContain('escalate_to_human');
    const refused = await call(
      'PATCH',
      `/v1/cases/${caseReference}/decision`,
      keys.agent,
      {
        decision: 'fail',
        decision_notes: 'Agent attempt',
      },
      'agent-decision',
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('forbidden');
    const final = await call<CaseData>(
      'PATCH',
      `/v1/cases/${caseReference}/decision`,
      keys.client,
      {
        decision: 'fail',
        decision_notes: 'Sanctioned: onboarding refused',
      },
      'case-decision',
    );
    expect(final.status, JSON.stringify(final.body)).toBe(200);
    expect(final.body.data.decision).toBe('fail');
    const after = await call<CaseData>('GET', `/v1/cases/${caseReference}`, keys.client);
    expect(after.body.data.decision).toBe('fail');

    // 9. The case events tell the story, newest first.
    const events = await call<{ events: { event_type: string; actor: { type: string } }[] }>(
      'GET',
      `/v1/cases/${caseReference}/events?limit=100`,
      keys.client,
    );
    expect(events.status).toBe(200);
    const types = events.body.data.events.map((event) => event.event_type);
    expect(types[0]).toBe('case_decision_recorded');
    expect(types.at(-1)).toBe('case_created');
    for (const type of [
      'check_completed',
      'case_review_started',
      'match_disposition_recorded',
      'case_reference_added',
      'check_decision_recorded',
    ]) {
      expect(types).toContain(type);
    }

    // 10. The webhooks: one per step, each signed. Deliveries run side by side, so they arrive in any
    // order: wait for the whole set (each type exactly as many times as it happened).
    const expectedCounts = {
      'case.created': 1,
      'check.completed': 1,
      'match.reviewed': 1 + others.length,
      'check.decision_updated': 1,
      'case.decision_recorded': 1,
    };
    const countsOf = () => {
      const counts: Record<string, number> = {};
      for (const delivery of webhooksOf(caseReference))
        counts[delivery.body.type] = (counts[delivery.body.type] ?? 0) + 1;
      return counts;
    };
    await eventually(() => expect(countsOf()).toMatchObject(expectedCounts));
  }, 240_000);

  it('clears a person on no list: a completed check with no match, no human review needed', async () => {
    const created = await call<{ case_reference: string }>(
      'POST',
      '/v1/cases',
      keys.client,
      { subject: { name: world.unlisted }, checks: { types: ['sanctions'] } },
      'onboarding-unlisted',
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const ref = created.body.data.case_reference;
    const read = await eventually(
      async () => {
        const reply = await call<{
          checks: { lifecycle_status: string; decision: string }[];
          requires_human_review: boolean;
          recommended_next_actions: string[];
        }>('GET', `/v1/cases/${ref}`, keys.client);
        if (reply.body.data.checks.some((c) => c.lifecycle_status !== 'completed'))
          throw new Error('running');
        return reply.body.data;
      },
      120_000,
      200,
    );
    expect(read.checks).toEqual([expect.objectContaining({ decision: 'no_matches_found' })]);
    expect(read.requires_human_review).toBe(false);
    expect(read.recommended_next_actions).toContain('record_case_decision');
    const passed = await call(
      'PATCH',
      `/v1/cases/${ref}/decision`,
      keys.client,
      { decision: 'pass' },
      'pass-unlisted',
    );
    expect(passed.status, JSON.stringify(passed.body)).toBe(200);
  }, 180_000);
});
