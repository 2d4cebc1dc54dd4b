import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApiServer, publicRoutes } from '../../../src/api/apiServer.js';
import { DOCS_TITLE } from '../../../src/api/docsPage.js';
import { openApiPath } from '../../../src/api/openapi.js';
import { type ApiRoute, defineRoute } from '../../../src/api/route.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { createRateLimiter } from '../../../src/rateLimit/rateLimiter.js';
import { listRequests } from '../../../src/requestLog/requestLog.js';
import { ApiError } from '../../../src/server/errors.js';
import { systemClock } from '../../../src/shared/clock.js';
import { WEBHOOK_EVENT_TYPES } from '../../../src/webhooks/webhookEvents.js';
import { SCOPES, type Scope } from '../../../src/workspace/keyPolicy.js';
import {
  type CreatedApiKey,
  createApiKey,
  expireApiKey,
  type NewApiKey,
  revokeApiKey,
} from '../../../src/workspace/keyStore.js';
import { createGroup, createWorkspace, findGroupForKey } from '../../../src/workspace/workspaceStore.js';
import { createKey } from '../../support/caseApi.js';
import { eventually } from '../../support/eventually.js';
import { invalidExamples, missingExamples } from '../../support/openApiExamples.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

const REQUEST_ID = /^req_[0-9a-f]{32}$/;

interface Envelope {
  data?: Record<string, unknown>;
  error?: { code: string; message: string; details: unknown };
  meta: { request_id: string };
}

/** Where a probe request with outcome `held` waits, once its work has begun, until the test lets it go. */
class Gate {
  private open!: () => void;
  private enter!: () => void;
  readonly released = new Promise<void>((resolve) => {
    this.open = resolve;
  });
  readonly entered = new Promise<void>((resolve) => {
    this.enter = resolve;
  });

  async pass(): Promise<void> {
    this.enter();
    await this.released;
  }

  release(): void {
    this.open();
  }
}

/**
 * Probe routes registered through the same pipeline as the public ones. Each counts how often its
 * work really ran, which is what idempotency is about.
 */
function probeRoutes(db: TestDatabase, runs: Map<string, number>, gate: () => Gate): ApiRoute[] {
  const count = (name: string) => {
    const next = (runs.get(name) ?? 0) + 1;
    runs.set(name, next);
    return next;
  };
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/probe/widgets',
      operationId: 'probeCreateWidget',
      summary: 'probe',
      tag: 'Probe',
      scopes: ['materials:write'],
      body: z.strictObject({
        title: z.string().min(1).max(160),
        outcome: z.enum(['ok', 'held', 'unprocessable', 'crash']).default('ok'),
        group_id: z.uuid().optional(),
      }),
      response: z.object({ title: z.string(), run: z.number().int(), group_id: z.string().nullable() }),
      successStatuses: [201],
      errorStatuses: [400, 401, 403, 404, 409, 422, 429],
      async handle({ key, body }) {
        const run = count(body.title);
        if (body.group_id && !(await findGroupForKey(db.pool, key, body.group_id))) throw ApiError.notFound();
        if (body.outcome === 'held') await gate().pass();
        if (body.outcome === 'unprocessable')
          throw ApiError.unprocessableEntity('The owner is not a member.');
        if (body.outcome === 'crash') throw new Error('relation "secret_table" does not exist');
        return { status: 201, data: { title: body.title, run, group_id: body.group_id ?? null } };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/v1/probe/cases/:case_reference/decision',
      operationId: 'probeDecideCase',
      summary: 'probe',
      tag: 'Probe',
      scopes: ['case_decisions:write'],
      requiresFinalDecision: true,
      params: z.object({ case_reference: z.string().regex(/^[A-Z]{3}[0-9]{6}$/) }),
      body: z.object({ decision: z.enum(['pass', 'conditional_pass', 'fail']) }),
      response: z.object({ decision: z.string() }),
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 409, 422, 429],
      async handle({ body }) {
        return { status: 200, data: { decision: body.decision } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/probe/cases/:case_reference/events',
      operationId: 'probeListEvents',
      summary: 'probe',
      tag: 'Probe',
      scopes: ['events:read'],
      params: z.object({ case_reference: z.string().regex(/^[A-Z]{3}[0-9]{6}$/) }),
      query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(25) }),
      response: z.object({ limit: z.number() }),
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 429],
      async handle({ query }) {
        return { status: 200, data: { limit: query.limit } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/probe/notes/:name',
      operationId: 'probeReadNote',
      summary: 'probe',
      tag: 'Probe',
      scopes: ['cases:read'],
      params: z.object({ name: z.enum(['note', 'aside', 'missing']) }),
      response: z.object({ name: z.string() }),
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 429],
      rateLimitRidesOnRead: true,
      async handle({ params, rateLimitRider }) {
        count('probeReadNote');
        // 'aside' reads without carrying the hit, as a read on another store does.
        if (params.name !== 'aside') {
          const rider = rateLimitRider!;
          const { rows } = await db.pool.query(
            `WITH ${rider.with} SELECT ${rider.columns}, $${rider.params.length + 1}::text AS name FROM ${rider.from}`,
            [...rider.params, params.name],
          );
          await rider.settle(rows[0]);
        }
        if (params.name === 'missing') throw ApiError.notFound();
        return { status: 200, data: { name: params.name } };
      },
    }),
  ];
}

describe('API platform over HTTP', () => {
  let db: TestDatabase;
  const routeDependencies = () => ({
    pool: db.pool,
    store: createPostgresEventStore({ pool: db.pool, connectionString: db.url }),
    sourceStaleAfterMs: 14 * 86_400_000,
    clock: systemClock,
  });
  let servers: FastifyInstance[] = [];
  let url: string;
  let secondUrl: string;
  const runs = new Map<string, number>();
  let gate = new Gate();
  /** The rate limiter's clock: the wall clock, unless a test pins it inside one window. */
  let pinnedNow: Date | null = null;
  const limiterClock = () => pinnedNow ?? new Date();
  let accountId: string;
  let defaultGroupId: string;
  let otherGroupId: string;
  let foreignGroupId: string;
  const keys: Record<string, CreatedApiKey> = {};

  const newKey = (scopes: readonly Scope[], more: Partial<NewApiKey> = {}) =>
    createKey(db.pool, accountId, scopes, more);

  beforeAll(async () => {
    db = await createTestDatabase();
    const workspace = await createWorkspace(db.pool, { name: 'Platform Co' });
    accountId = workspace.account.id;
    defaultGroupId = workspace.defaultGroup.id;
    otherGroupId = (await createGroup(db.pool, { accountId, name: 'Payments EU' })).id;
    const foreign = await createWorkspace(db.pool, { name: 'Elsewhere Ltd' });
    foreignGroupId = foreign.defaultGroup.id;
    keys.all = await newKey(SCOPES, { finalDecision: true, groups: { kind: 'all' } });
    keys.reader = await newKey(['cases:read']);
    keys.monitoring = await newKey(['monitoring:read']);
    keys.agent = await newKey(SCOPES, { actorType: 'agent' });
    keys.noFinal = await newKey(SCOPES);
    keys.revoked = await newKey(SCOPES);
    await revokeApiKey(db.pool, keys.revoked.key.id);
    keys.expired = await newKey(SCOPES);
    await expireApiKey(db.pool, keys.expired.key.id, new Date(Date.now() - 1000));
    keys.foreign = await createApiKey(db.pool, {
      accountId: foreign.account.id,
      scopes: [...SCOPES],
      actorType: 'api_client',
      finalDecision: true,
      groups: { kind: 'default' },
      expiresAt: null,
    });
    // Two processes' worth of servers on one database: the rate limit must be shared.
    for (let i = 0; i < 2; i += 1) {
      const app = buildApiServer({
        logger: pino({ level: 'silent' }),
        readiness: [],
        ...routeDependencies(),
        rateLimiter: createRateLimiter(db.pool, { clock: limiterClock }),
        extraRoutes: probeRoutes(db, runs, () => gate),
      });
      servers.push(app);
    }
    url = await servers[0]!.listen({ port: 0, host: '127.0.0.1' });
    secondUrl = await servers[1]!.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all(servers.map((app) => app.close()));
    servers = [];
    await db?.drop();
  });

  interface CallOptions {
    key?: CreatedApiKey | string | null;
    body?: unknown;
    rawBody?: string;
    contentType?: string;
    idempotencyKey?: string;
    base?: string;
  }

  async function call(method: string, path: string, options: CallOptions = {}) {
    const headers: Record<string, string> = {};
    const key = options.key === undefined ? keys.all : options.key;
    if (typeof key === 'string') headers.authorization = key;
    else if (key) headers.authorization = `Bearer ${key.rawKey}`;
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    let body: string | undefined;
    if (options.rawBody !== undefined || options.body !== undefined) {
      headers['content-type'] = options.contentType ?? 'application/json';
      body = options.rawBody ?? JSON.stringify(options.body);
    }
    const response = await fetch(`${options.base ?? url}${path}`, { method, headers, body });
    const json = (await response.json()) as Envelope;
    // Every response: our request id in the header and the body, and the interface version.
    expect(response.headers.get('x-request-id')).toMatch(REQUEST_ID);
    expect(response.headers.get('service-api-version')).toBe('2026-06-09');
    return { status: response.status, headers: response.headers, body: json };
  }

  function expectError(result: { status: number; body: Envelope }, status: number, code: string) {
    expect(result.status).toBe(status);
    expect(result.body.error?.code).toBe(code);
    expect(typeof result.body.error?.message).toBe('string');
    expect(result.body.error).toHaveProperty('details');
    expect(result.body.meta.request_id).toMatch(REQUEST_ID);
  }

  const freshIdempotencyKey = () => `idem-${randomUUID()}`;

  describe('GET /v1/groups', () => {
    it('lists the groups the key may see, the default group first, in the success envelope', async () => {
      const result = await call('GET', '/v1/groups');
      expect(result.status).toBe(200);
      expect(result.body.meta.request_id).toBe(result.headers.get('x-request-id'));
      const groups = result.body.data?.groups as Record<string, unknown>[];
      expect(groups.map((group) => group.id)).toEqual([defaultGroupId, otherGroupId]);
      expect(groups[0]).toMatchObject({ account_id: accountId, slug: 'default', is_default: true });
      expect(groups[1]).toMatchObject({ name: 'Payments EU', is_default: false, description: null });
      expect(groups.map((group) => group.id)).not.toContain(foreignGroupId);
    });

    it('shows a key only its own groups', async () => {
      const result = await call('GET', '/v1/groups', { key: keys.reader });
      expect((result.body.data?.groups as { id: string }[]).map((group) => group.id)).toEqual([
        defaultGroupId,
      ]);
      const foreign = await call('GET', '/v1/groups', { key: keys.foreign });
      expect((foreign.body.data?.groups as { id: string }[]).map((group) => group.id)).toEqual([
        foreignGroupId,
      ]);
    });

    it('needs cases:create or cases:read', async () => {
      expectError(await call('GET', '/v1/groups', { key: keys.monitoring }), 403, 'forbidden');
    });
  });

  describe('401 unauthorized', () => {
    const cases: [string, () => string | null][] = [
      ['a missing Authorization header', () => null],
      ['an empty header', () => ''],
      ['another scheme', () => `Basic ${Buffer.from('user:pass').toString('base64')}`],
      ['a bearer token of another shape', () => 'Bearer not-a-key'],
      ['a wrong secret', () => `Bearer ${keys.all!.rawKey.slice(0, -4)}AAAA`],
      ['a revoked key', () => `Bearer ${keys.revoked!.rawKey}`],
      ['an expired key', () => `Bearer ${keys.expired!.rawKey}`],
    ];
    it.each(cases)('for %s', async (_name, header) => {
      const value = header();
      const result = await call('GET', '/v1/groups', { key: value === null ? null : value });
      expectError(result, 401, 'unauthorized');
      expect(result.headers.get('www-authenticate')).toMatch(/^Bearer/);
    });

    it('comes before body parsing, validation and idempotency', async () => {
      expectError(
        await call('POST', '/v1/probe/widgets', { key: null, rawBody: '{not json' }),
        401,
        'unauthorized',
      );
      expectError(
        await call('POST', '/v1/probe/widgets', { key: null, body: { title: 'x' } }),
        401,
        'unauthorized',
      );
      expect(runs.get('x')).toBeUndefined();
    });
  });

  describe('403 forbidden', () => {
    it('refuses a key without the scope', async () => {
      const result = await call('POST', '/v1/probe/widgets', {
        key: keys.reader,
        body: { title: 'no-scope' },
        idempotencyKey: freshIdempotencyKey(),
      });
      expectError(result, 403, 'forbidden');
      expect(result.body.error?.details).toEqual({ required_scopes: ['materials:write'] });
      expect(runs.get('no-scope')).toBeUndefined();
    });

    it('refuses a final decision to an agent key whatever its scopes', async () => {
      const result = await call('PATCH', '/v1/probe/cases/ABC123456/decision', {
        key: keys.agent,
        body: { decision: 'pass' },
        idempotencyKey: freshIdempotencyKey(),
      });
      expectError(result, 403, 'forbidden');
      expect(result.body.error?.message).toMatch(/Agent keys cannot record final case decisions/);
    });

    it('refuses a final decision to an API client without the permission', async () => {
      const result = await call('PATCH', '/v1/probe/cases/ABC123456/decision', {
        key: keys.noFinal,
        body: { decision: 'pass' },
        idempotencyKey: freshIdempotencyKey(),
      });
      expectError(result, 403, 'forbidden');
      expect(result.body.error?.message).toMatch(/final-decision permission/);
    });

    it('lets a permitted API client record it', async () => {
      const result = await call('PATCH', '/v1/probe/cases/ABC123456/decision', {
        body: { decision: 'fail' },
        idempotencyKey: freshIdempotencyKey(),
      });
      expect(result.status).toBe(200);
      expect(result.body.data).toEqual({ decision: 'fail' });
    });
  });

  describe('404 not_found', () => {
    it('reports an object in another group exactly like a missing one', async () => {
      const send = (groupId: string) =>
        call('POST', '/v1/probe/widgets', {
          key: keys.noFinal,
          body: { title: `scope-${groupId}`, group_id: groupId },
          idempotencyKey: freshIdempotencyKey(),
        });
      const otherGroup = await send(otherGroupId);
      const otherAccount = await send(foreignGroupId);
      const missing = await send('0b4c8a53-8b53-4c1e-9a3e-2f5d2f3f6a11');
      for (const result of [otherGroup, otherAccount, missing]) expectError(result, 404, 'not_found');
      const strip = (body: Envelope) => ({ ...body, meta: undefined });
      expect(strip(otherGroup.body)).toEqual(strip(missing.body));
      expect(strip(otherAccount.body)).toEqual(strip(missing.body));
    });

    it('answers unknown routes and wrong methods in the envelope', async () => {
      expectError(await call('GET', '/v1/nothing-here'), 404, 'not_found');
      const wrongMethod = await call('DELETE', '/v1/groups');
      expectError(wrongMethod, 405, 'method_not_allowed');
      expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
    });
  });

  describe('400 invalid_request', () => {
    it('for a body that is not JSON', async () => {
      const result = await call('POST', '/v1/probe/widgets', {
        rawBody: '{"title": ',
        idempotencyKey: freshIdempotencyKey(),
      });
      expectError(result, 400, 'invalid_request');
    });

    it('for a body that is not application/json', async () => {
      const result = await call('POST', '/v1/probe/widgets', {
        rawBody: 'title=x',
        contentType: 'application/x-www-form-urlencoded',
        idempotencyKey: freshIdempotencyKey(),
      });
      expectError(result, 400, 'invalid_request');
    });

    it('for a missing, short or long Idempotency-Key, before any work', async () => {
      for (const idempotencyKey of [undefined, '', 'seven77', 'k'.repeat(161)]) {
        const result = await call('POST', '/v1/probe/widgets', {
          body: { title: 'needs-key' },
          idempotencyKey,
        });
        expectError(result, 400, 'invalid_request');
        expect(result.body.error?.details).toEqual({
          fieldErrors: { 'Idempotency-Key': [expect.any(String)] },
        });
      }
      expect(runs.get('needs-key')).toBeUndefined();
    });

    it('accepts keys of exactly 8 and 160 characters', async () => {
      for (const idempotencyKey of ['k'.repeat(8), `${'k'.repeat(150)}${Date.now()}`.slice(-160)]) {
        const result = await call('POST', '/v1/probe/widgets', {
          body: { title: `len-${idempotencyKey.length}` },
          idempotencyKey,
        });
        expect(result.status).toBe(201);
      }
    });

    it('reports every invalid field at once in details.fieldErrors', async () => {
      const result = await call('POST', '/v1/probe/widgets', {
        body: { title: '', outcome: 'maybe', extra: 1 },
      });
      expectError(result, 400, 'invalid_request');
      const fieldErrors = (result.body.error?.details as { fieldErrors: Record<string, string[]> })
        .fieldErrors;
      expect(Object.keys(fieldErrors).sort()).toEqual(['Idempotency-Key', 'extra', 'outcome', 'title']);
      for (const messages of Object.values(fieldErrors)) expect(messages.length).toBeGreaterThan(0);
    });

    it('for a malformed path parameter or query string', async () => {
      const badPath = await call('GET', '/v1/probe/cases/abc/events');
      expectError(badPath, 400, 'invalid_request');
      expect(Object.keys((badPath.body.error?.details as { fieldErrors: object }).fieldErrors)).toEqual([
        'case_reference',
      ]);
      for (const limit of ['0', '101', 'ten']) {
        const badQuery = await call('GET', `/v1/probe/cases/ABC123456/events?limit=${limit}`);
        expectError(badQuery, 400, 'invalid_request');
        expect((badQuery.body.error?.details as { fieldErrors: object }).fieldErrors).toHaveProperty('limit');
      }
      const ok = await call('GET', '/v1/probe/cases/ABC123456/events');
      expect(ok.body.data).toEqual({ limit: 25 });
    });
  });

  describe('idempotency', () => {
    it('replays the original status and body without doing the work again', async () => {
      const idempotencyKey = freshIdempotencyKey();
      const first = await call('POST', '/v1/probe/widgets', { body: { title: 'replayed' }, idempotencyKey });
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      // Same JSON value, other spelling: still the same request.
      const retry = await call('POST', '/v1/probe/widgets', {
        rawBody: '{ "title" : "replayed" }',
        idempotencyKey,
      });
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(runs.get('replayed')).toBe(1);
    });

    it('answers 409 idempotency_conflict for the same key with another body or path', async () => {
      const idempotencyKey = freshIdempotencyKey();
      await call('POST', '/v1/probe/widgets', { body: { title: 'original' }, idempotencyKey });
      expectError(
        await call('POST', '/v1/probe/widgets', { body: { title: 'changed' }, idempotencyKey }),
        409,
        'idempotency_conflict',
      );
      expectError(
        await call('PATCH', '/v1/probe/cases/ABC123456/decision', {
          body: { decision: 'pass' },
          idempotencyKey,
        }),
        409,
        'idempotency_conflict',
      );
      expect(runs.get('changed')).toBeUndefined();
    });

    it('answers 409 conflict while the first request is still running', async () => {
      const idempotencyKey = freshIdempotencyKey();
      gate = new Gate();
      const first = call('POST', '/v1/probe/widgets', {
        body: { title: 'in-flight', outcome: 'held' },
        idempotencyKey,
      });
      try {
        await gate.entered;
        const second = await call('POST', '/v1/probe/widgets', {
          body: { title: 'in-flight', outcome: 'held' },
          idempotencyKey,
          base: secondUrl,
        });
        expectError(second, 409, 'conflict');
      } finally {
        gate.release();
      }
      expect((await first).status).toBe(201);
      expect(runs.get('in-flight')).toBe(1);
    });

    it('scopes keys per API key', async () => {
      const idempotencyKey = freshIdempotencyKey();
      const mine = await call('POST', '/v1/probe/widgets', { body: { title: 'per-key' }, idempotencyKey });
      const theirs = await call('POST', '/v1/probe/widgets', {
        key: keys.noFinal,
        body: { title: 'per-key' },
        idempotencyKey,
      });
      expect([mine.status, theirs.status]).toEqual([201, 201]);
      expect(runs.get('per-key')).toBe(2);
    });

    it('stores a business-rule failure and replays it', async () => {
      const idempotencyKey = freshIdempotencyKey();
      const body = { title: 'rule', outcome: 'unprocessable' };
      const first = await call('POST', '/v1/probe/widgets', { body, idempotencyKey });
      expectError(first, 422, 'unprocessable_entity');
      const retry = await call('POST', '/v1/probe/widgets', { body, idempotencyKey });
      expect(retry.body).toEqual(first.body);
      expect(runs.get('rule')).toBe(1);
    });

    it('does not store an internal error, so a retry runs the work again; internals never leak', async () => {
      const idempotencyKey = freshIdempotencyKey();
      const body = { title: 'crashing', outcome: 'crash' };
      const first = await call('POST', '/v1/probe/widgets', { body, idempotencyKey });
      expectError(first, 500, 'internal_error');
      expect(JSON.stringify(first.body)).not.toMatch(/secret_table|relation/);
      const retry = await call('POST', '/v1/probe/widgets', { body, idempotencyKey });
      expectError(retry, 500, 'internal_error');
      expect(runs.get('crashing')).toBe(2);
    });

    it('needs no key on GET', async () => {
      expect((await call('GET', '/v1/groups')).status).toBe(200);
    });
  });

  describe('request metadata log', () => {
    it('records method, path without query, status, request id and the idempotency flag per key', async () => {
      const key = await newKey(['cases:read', 'events:read']);
      const get = await call('GET', '/v1/probe/cases/ABC123456/events?limit=5&secret=1', { key });
      const denied = await call('POST', '/v1/probe/widgets', {
        key,
        body: { title: 'logged' },
        idempotencyKey: freshIdempotencyKey(),
      });
      // The log is written after each response is sent: wait for both rows.
      const rows = await eventually(async () => {
        const logged = await listRequests(db.pool, { apiKeyId: key.key.id, limit: 10 });
        expect(logged).toHaveLength(2);
        return logged;
      });
      const byId = new Map(rows.map((row) => [row.requestId, row]));
      expect(byId.get(get.body.meta.request_id)).toMatchObject({
        method: 'GET',
        path: '/v1/probe/cases/ABC123456/events',
        status: 200,
        idempotencyKeyPresent: false,
        accountId,
      });
      expect(byId.get(denied.body.meta.request_id)).toMatchObject({
        method: 'POST',
        path: '/v1/probe/widgets',
        status: 403,
        idempotencyKeyPresent: true,
      });
    });
  });

  describe('rate limit', () => {
    let limitedKey: CreatedApiKey;
    beforeEach(async () => {
      limitedKey = await newKey(['cases:read']);
      // The window is fixed and aligned to the minute: every request of a test counts 15 s into one,
      // however long a busy machine takes to send them.
      pinnedNow = new Date('2030-01-01T00:00:15Z');
    });
    afterEach(() => {
      pinnedNow = null;
    });

    it('allows 120 requests per minute per key across all server processes, then 429 with Retry-After', async () => {
      const results: { status: number; headers: Headers }[] = [];
      for (let i = 0; i < 120; i += 1) {
        results.push(
          await call('GET', '/v1/groups', { key: limitedKey, base: i % 2 === 0 ? url : secondUrl }),
        );
      }
      expect(results.every((result) => result.status === 200)).toBe(true);
      expect(results[0]!.headers.get('ratelimit-limit')).toBe('120');
      expect(results.map((result) => Number(result.headers.get('ratelimit-remaining')))).toEqual(
        Array.from({ length: 120 }, (_, i) => 119 - i),
      );
      expect(results.map((result) => result.headers.get('ratelimit-reset'))).toEqual(
        Array.from({ length: 120 }, () => '45'),
      );

      const refused = await call('GET', '/v1/groups', { key: limitedKey, base: secondUrl });
      expectError(refused, 429, 'rate_limited');
      expect(refused.headers.get('retry-after')).toBe('45');
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');

      // Another key has its own window.
      expect((await call('GET', '/v1/groups', { key: keys.reader })).status).toBe(200);
    });

    it('counts a hit carried by the route read once, and answers 401 and 429 before 403 and 404', async () => {
      const names = ['note', 'aside', 'missing'] as const;
      const results: { status: number; headers: Headers }[] = [];
      for (let i = 0; i < 120; i += 1) {
        results.push(
          await call('GET', `/v1/probe/notes/${names[i % 3]}`, {
            key: limitedKey,
            base: i % 2 === 0 ? url : secondUrl,
          }),
        );
      }
      expect(results.map((result) => result.status)).toEqual(
        Array.from({ length: 120 }, (_, i) => (names[i % 3] === 'missing' ? 404 : 200)),
      );
      expect(results.map((result) => Number(result.headers.get('ratelimit-remaining')))).toEqual(
        Array.from({ length: 120 }, (_, i) => 119 - i),
      );
      const handled = runs.get('probeReadNote');
      for (const name of names) {
        const refused = await call('GET', `/v1/probe/notes/${name}`, { key: limitedKey, base: secondUrl });
        expectError(refused, 429, 'rate_limited');
        expect(refused.headers.get('retry-after')).toBe('45');
      }
      // Only the first refusal read anything: the process then knows the key is spent for the window.
      expect(runs.get('probeReadNote')).toBe(handled! + 1);

      // Out of scope: refused, counted, with the headers.
      const limiter = createRateLimiter(db.pool, { clock: limiterClock });
      const scopeless = await newKey(['monitoring:read']);
      const before = await limiter.hit(scopeless.key.id);
      const forbidden = await call('GET', '/v1/probe/notes/missing', { key: scopeless });
      expectError(forbidden, 403, 'forbidden');
      expect(Number(forbidden.headers.get('ratelimit-remaining'))).toBe(before.remaining - 1);

      // A key the cache admitted and then revoked: 401, whatever the route would have answered.
      const revoked = await newKey(['cases:read']);
      expect((await call('GET', '/v1/probe/notes/note', { key: revoked })).status).toBe(200);
      await revokeApiKey(db.pool, revoked.key.id);
      for (const name of names) {
        expectError(await call('GET', `/v1/probe/notes/${name}`, { key: revoked }), 401, 'unauthorized');
      }
    });

    it("counts a POST's hit in the claim of its Idempotency-Key: exactly 120 across processes, and a refused request claims nothing", async () => {
      const writer = await newKey(['materials:write']);
      const claims = async (idempotencyKey?: string) => {
        const { rows } = await db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM idempotency_keys
            WHERE api_key_id = $1 AND ($2::text IS NULL OR idempotency_key = $2)`,
          [writer.key.id, idempotencyKey ?? null],
        );
        return rows[0]!.n;
      };
      const title = `budget-${randomUUID()}`;
      // Ten at a time (within each process's in-flight limit), half on each process.
      const results: Awaited<ReturnType<typeof call>>[] = [];
      for (let batch = 0; batch < 13; batch += 1) {
        results.push(
          ...(await Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              call('POST', '/v1/probe/widgets', {
                key: writer,
                body: { title },
                idempotencyKey: `budget-${batch}-${i}-${randomUUID()}`,
                base: i % 2 === 0 ? url : secondUrl,
              }),
            ),
          )),
        );
      }
      const statuses = results.map((result) => result.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(120);
      expect(statuses.filter((status) => status === 429)).toHaveLength(10);
      expect(runs.get(title)).toBe(120);
      expect(await claims()).toBe(120);

      // Refused: no claim is left, so the same key in the next window runs as a first attempt.
      const retried = freshIdempotencyKey();
      const refused = await call('POST', '/v1/probe/widgets', {
        key: writer,
        body: { title: 'later' },
        idempotencyKey: retried,
      });
      expectError(refused, 429, 'rate_limited');
      expect(await claims(retried)).toBe(0);
      pinnedNow = new Date('2030-01-01T00:01:15Z');
      const later = await call('POST', '/v1/probe/widgets', {
        key: writer,
        body: { title: 'later' },
        idempotencyKey: retried,
      });
      expect(later.status).toBe(201);
      expect(later.headers.get('idempotent-replayed')).toBeNull();
      expect(later.headers.get('ratelimit-remaining')).toBe('119');
      expect(await claims(retried)).toBe(1);

      // A key revoked after the cache admitted it: 401, and no claim of the request's key.
      const revoked = await newKey(['materials:write']);
      const admitted = { key: revoked, body: { title: 'revoked' } };
      expect(
        (await call('POST', '/v1/probe/widgets', { ...admitted, idempotencyKey: freshIdempotencyKey() }))
          .status,
      ).toBe(201);
      await revokeApiKey(db.pool, revoked.key.id);
      const afterRevocation = freshIdempotencyKey();
      expectError(
        await call('POST', '/v1/probe/widgets', { ...admitted, idempotencyKey: afterRevocation }),
        401,
        'unauthorized',
      );
      const { rows } = await db.pool.query('SELECT 1 FROM idempotency_keys WHERE idempotency_key = $1', [
        afterRevocation,
      ]);
      expect(rows).toHaveLength(0);
    });

    it('counts refused and failed requests too, with the headers on error responses', async () => {
      const limiter = createRateLimiter(db.pool, { clock: limiterClock });
      const before = await limiter.hit(limitedKey.key.id);
      const forbidden = await call('POST', '/v1/probe/widgets', {
        key: limitedKey,
        body: { title: 'x' },
        idempotencyKey: freshIdempotencyKey(),
      });
      expectError(forbidden, 403, 'forbidden');
      expect(Number(forbidden.headers.get('ratelimit-remaining'))).toBe(before.remaining - 1);
    });
  });

  describe('OpenAPI document and reference page', () => {
    it('serves a valid OpenAPI 3.1 document covering every public route, without a key', async () => {
      const response = await fetch(`${url}/v1/openapi.json`);
      expect(response.status).toBe(200);
      const document = (await response.json()) as {
        openapi: string;
        paths: Record<string, Record<string, { security?: unknown; parameters: { name: string }[] }>>;
        webhooks: Record<string, { post: unknown }>;
        components: { schemas: Record<string, unknown> };
      };
      expect(document.openapi).toBe('3.1.0');
      const validation = await new Validator().validate(document as never);
      expect(validation.errors ?? []).toEqual([]);
      expect(validation.valid).toBe(true);
      // Swagger UI shows a warning for any dialect but OpenAPI's own default.
      expect(document).not.toHaveProperty('jsonSchemaDialect');
      expect(missingExamples(document as never)).toEqual([]);
      expect(invalidExamples(document as never)).toEqual([]);
      for (const route of publicRoutes(routeDependencies())) {
        expect(document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()]).toBeDefined();
      }
      expect(document.components.schemas).toHaveProperty('Group');
      expect(document.components.schemas).toHaveProperty('ErrorEnvelope');
      expect(Object.keys(document.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES]);
      expect(document.components.schemas).toHaveProperty('CheckCompletedExpanded');
      // Probe routes are not part of the public contract.
      expect(Object.keys(document.paths).some((path) => path.includes('probe'))).toBe(false);
    });

    it("serves a reference page at /docs titled for this service, with the service's mark and no online validator", async () => {
      const response = await fetch(`${url}/docs`, { redirect: 'follow' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
      const page = await response.text();
      expect(page).toContain(`<title>${DOCS_TITLE}</title>`);
      expect(page).not.toMatch(/<title>Swagger UI<\/title>/);
      // The service's favicon and theme instead of the stock ones.
      expect(page).toContain('/docs/static/theme/favicon.svg');
      expect(page).not.toContain('favicon-32x32.png');
      const themeCss = await fetch(`${url}/docs/static/theme/casescreen.css`);
      expect(themeCss.status).toBe(200);

      const initializer = await (await fetch(`${url}/docs/static/swagger-initializer.js`)).text();
      expect(initializer).toContain('validatorUrl: null');
      // The page renders the document it loads from ./json, webhooks included (Swagger UI 5 shows
      // OpenAPI 3.1 webhooks in a section of their own).
      expect(initializer).toContain("url: resolveUrl('./json')");
      const shown = (await (await fetch(`${url}/docs/json`)).json()) as { webhooks: Record<string, unknown> };
      expect(Object.keys(shown.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES]);
      // The top bar's logo is the service's SVG mark, not the stock Fastify logo.
      const logo = /img\.src = 'data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)'/.exec(initializer)?.[1];
      expect(Buffer.from(logo ?? '', 'base64').toString('utf8')).toContain('Case Screening Service');

      const favicon = await fetch(`${url}/docs/static/theme/favicon.svg`);
      expect(favicon.status).toBe(200);
      expect(favicon.headers.get('content-type')).toMatch(/svg/);
    });
  });
});
