import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordRequest } from '../../../src/requestLog/requestLog.js';
import { runCliCaptured } from '../../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

describe('casescreen requests', () => {
  let db: TestDatabase;
  const keyA = randomUUID();
  const keyB = randomUUID();
  const account = randomUUID();
  const recent = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

  beforeAll(async () => {
    db = await createTestDatabase();
    await recordRequest(db.pool, {
      apiKeyId: keyA,
      accountId: account,
      method: 'POST',
      path: '/v1/cases?secret_query=1',
      status: 201,
      requestId: 'req-a1',
      idempotencyKeyPresent: true,
      occurredAt: recent(30),
    });
    await recordRequest(db.pool, {
      apiKeyId: keyA,
      accountId: account,
      method: 'GET',
      path: '/v1/cases/c1',
      status: 429,
      requestId: 'req-a2',
      idempotencyKeyPresent: false,
      occurredAt: recent(10),
    });
    await recordRequest(db.pool, {
      apiKeyId: keyB,
      accountId: randomUUID(),
      method: 'GET',
      path: '/v1/cases/c2',
      status: 200,
      requestId: 'req-b1',
      idempotencyKeyPresent: false,
      occurredAt: new Date(Date.now() - 100 * 86_400_000),
    });
  });
  afterAll(async () => {
    await db.drop();
  });

  const cli = (...argv: string[]) => runCliCaptured(argv, { DATABASE_URL: db.url });

  it('lists by key and time, as a table and as JSON', async () => {
    const table = await cli('requests', 'list', '--key', keyA);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^OCCURRED AT\s+KEY\s+METHOD\s+PATH\s+STATUS\s+REQUEST ID\s+IDEMPOTENCY KEY$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(2))).toEqual([
      ['GET', '/v1/cases/c1', '429', 'req-a2', 'no'],
      ['POST', '/v1/cases', '201', 'req-a1', 'yes'],
    ]);
    expect(table.stdout).not.toContain('secret_query');

    const since = recent(20).toISOString();
    const json = await cli('requests', 'list', '--key', keyA, '--since', since, '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      requests: [
        {
          id: expect.any(String),
          apiKeyId: keyA,
          accountId: account,
          method: 'GET',
          path: '/v1/cases/c1',
          status: 429,
          requestId: 'req-a2',
          idempotencyKeyPresent: false,
          occurredAt: expect.any(String),
        },
      ],
    });
    const until = await cli('requests', 'list', '--until', since, '--limit', '5', '--json');
    expect(JSON.parse(until.stdout).requests.map((r: { requestId: string }) => r.requestId)).toEqual([
      'req-a1',
      'req-b1',
    ]);
    const byAccount = await cli('requests', 'list', '--account', account, '--json');
    expect(JSON.parse(byAccount.stdout).requests).toHaveLength(2);
  });

  it('refuses bad filters with exit status 2', async () => {
    const bad = await cli('requests', 'list', '--key', 'nope', '--since', 'yesterday', '--limit', '0');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--key: must be a UUID');
    expect(bad.stderr).toContain('--since: must be an ISO 8601 date-time');
    expect(bad.stderr).toContain('--limit: must be at least 1');
    const order = await cli(
      'requests',
      'list',
      '--since',
      '2030-01-02T00:00:00Z',
      '--until',
      '2030-01-01T00:00:00Z',
    );
    expect(order).toMatchObject({ code: 2, stderr: 'error: --until: must be after --since\n' });
  });

  it('purges now and prints the counts', async () => {
    const purged = await cli('requests', 'purge', '--json');
    expect(purged).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(purged.stdout)).toEqual({
      cutoff: expect.any(String),
      deleted: { requestLog: 1, rateLimitWindows: 0, idempotencyKeys: 0, webhookDeliveries: 0 },
    });
    const again = await cli('requests', 'purge');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Deleted 0 requestLog rows');
    const left = await cli('requests', 'list', '--json');
    expect(JSON.parse(left.stdout).requests.map((r: { requestId: string }) => r.requestId)).toEqual([
      'req-a2',
      'req-a1',
    ]);
  });
});
