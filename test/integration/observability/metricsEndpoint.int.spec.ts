import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { buildApiServer } from '../../../src/api/apiServer.js';
import { instrumentEventStore } from '../../../src/observability/instrumentedEventStore.js';
import { exposeSystemStatus, ServiceMetrics } from '../../../src/observability/metrics.js';
import { readSystemStatus } from '../../../src/observability/systemStatus.js';
import { createRateLimiter } from '../../../src/rateLimit/rateLimiter.js';
import { systemClock } from '../../../src/shared/clock.js';
import { SCOPES } from '../../../src/workspace/keyPolicy.js';
import type { CreatedApiKey } from '../../../src/workspace/keyStore.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { createKey } from '../../support/caseApi.js';
import { eventually } from '../../support/eventually.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const OUTSIDE = '203.0.113.9';

/** A sample's value in a Prometheus text exposition, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics and /health/status', () => {
  let es: TestEventStore;
  let app: FastifyInstance;
  let url: string;
  let key: CreatedApiKey;
  const metrics = new ServiceMetrics();
  const windowNow = new Date();

  beforeAll(async () => {
    es = await openTestEventStore();
    await installProjections(es.db.pool, projections);
    key = await createKey(
      es.db.pool,
      (await createWorkspace(es.db.pool, { name: 'Metrics Co' })).account.id,
      SCOPES,
    );
    const store = instrumentEventStore(es.store, metrics);
    const readStatus = () => readSystemStatus(es.db.pool, store, { staleAfterMs: 14 * 86_400_000 });
    exposeSystemStatus(metrics, readStatus);
    app = buildApiServer({
      logger: pino({ level: 'silent' }),
      readiness: [],
      pool: es.db.pool,
      store,
      sourceStaleAfterMs: 14 * 86_400_000,
      clock: systemClock,
      // Every request counts in one window: on the wall clock, a run across a minute's end started
      // a new window between the third request and the fourth.
      rateLimiter: createRateLimiter(es.db.pool, { limit: 3, clock: () => windowNow }),
      observability: { metrics, readStatus, metricsToken: TOKEN },
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await es?.close();
  });

  const scrape = async () => {
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return response.text();
  };

  it('counts requests by route pattern, method and status, and rate-limited ones', async () => {
    const headers = { authorization: `Bearer ${key.rawKey}` };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${url}/v1/groups`, { headers })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await fetch(`${url}/v1/cases/NOSUCH123`, { headers })).status).toBe(429);
    expect((await fetch(`${url}/no/such/path`)).status).toBe(404);

    // Counted once each response has been sent, which may come just after the client has read it.
    const text = await eventually(async () => {
      const scraped = await scrape();
      expect(
        sample(scraped, 'casescreen_http_requests_total{route="unmatched",method="GET",status="404"}'),
      ).toBe(1);
      return scraped;
    });
    expect(sample(text, 'casescreen_http_requests_total{route="/v1/groups",method="GET",status="200"}')).toBe(
      3,
    );
    expect(sample(text, 'casescreen_http_requests_total{route="/v1/groups",method="GET",status="429"}')).toBe(
      1,
    );
    // A route's pattern, never the reference in its path.
    expect(
      sample(
        text,
        'casescreen_http_requests_total{route="/v1/cases/:case_reference",method="GET",status="429"}',
      ),
    ).toBe(1);
    expect(sample(text, 'casescreen_http_requests_total{route="unmatched",method="GET",status="404"}')).toBe(
      1,
    );
    expect(text).not.toContain('NOSUCH123');
    expect(sample(text, 'casescreen_rate_limited_requests_total')).toBe(2);
    expect(
      sample(
        text,
        'casescreen_http_request_duration_seconds_count{route="/v1/groups",method="GET",status="200"}',
      ),
    ).toBe(3);
  });

  it('exports the system state read from the database', async () => {
    const text = await scrape();
    // Nothing runs the subscriptions here: no runner, lag 0 on an empty feed.
    expect(sample(text, 'casescreen_subscription_runner_alive{subscription="reactor:check_scheduler"}')).toBe(
      0,
    );
    expect(sample(text, 'casescreen_subscription_lag_events{subscription="projection:case_views:v1"}')).toBe(
      0,
    );
    expect(sample(text, 'casescreen_check_jobs{state="due"}')).toBe(0);
    expect(sample(text, 'casescreen_webhook_deliveries{state="dead_24h"}')).toBe(0);
    expect(sample(text, 'casescreen_system_ok')).toBe(0);
  });

  it('answers /health/status 503 with the report while something needs attention', async () => {
    const response = await fetch(`${url}/health/status`);
    expect(response.status).toBe(503);
    const body = (await response.json()) as {
      ok: boolean;
      subscriptions: unknown[];
      sources: { verdict: string };
    };
    expect(body.ok).toBe(false);
    expect(body.subscriptions.length).toBeGreaterThan(0);
    expect(body.sources.verdict).toContain('no lists loaded');
  });

  it('opens both to loopback callers, and to others only with the metrics token', async () => {
    for (const path of ['/metrics', '/health/status']) {
      const refused = await app.inject({ method: 'GET', url: path, remoteAddress: OUTSIDE });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({
        error: { code: 'unauthorized' },
        meta: { request_id: expect.any(String) },
      });
      const wrong = await app.inject({
        method: 'GET',
        url: path,
        remoteAddress: OUTSIDE,
        headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
      });
      expect(wrong.statusCode).toBe(401);
      const admitted = await app.inject({
        method: 'GET',
        url: path,
        remoteAddress: OUTSIDE,
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect([200, 503]).toContain(admitted.statusCode);
      const lowerCase = await app.inject({
        method: 'GET',
        url: path,
        remoteAddress: OUTSIDE,
        headers: { authorization: `bearer ${TOKEN}` },
      });
      expect(lowerCase.statusCode).toBe(admitted.statusCode);
      expect(admitted.statusCode === 200 ? admitted.body : admitted.json().subscriptions).toBeTruthy();
    }
  });
});
