import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { inTransaction } from '../../../src/db/sql.js';
import { createGroup, createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { captureOutput, runCliCaptured } from '../../support/cli.js';
import { eventually } from '../../support/eventually.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

const T0 = new Date('2026-11-20T10:00:00.000Z');
const HOUR = 3_600_000;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const SECRET = /whsec_[A-Za-z0-9_-]{43}/g;

describe('casescreen webhooks', () => {
  let db: TestDatabase;
  let accountId: string;
  let groupId: string;
  let foreignGroupId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const workspace = await createWorkspace(db.pool, { name: 'Northwind Payments' });
    accountId = workspace.account.id;
    groupId = (await createGroup(db.pool, { accountId, name: 'Enhanced due diligence' })).id;
    foreignGroupId = (await createWorkspace(db.pool, { name: 'Other Ltd' })).defaultGroup.id;
  });
  afterAll(async () => {
    await db.drop();
  });

  const cli = (...argv: string[]) => runCliCaptured(argv, { DATABASE_URL: db.url });
  const cliPrivate = (...argv: string[]) =>
    runCliCaptured(argv, { DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  /** The CLI with its clock set, for what it records. */
  async function cliAt(now: Date, ...argv: string[]) {
    const stdout = captureOutput();
    const stderr = captureOutput();
    const code = await runCli(argv, { stdout, stderr, env: { DATABASE_URL: db.url }, clock: () => now });
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  }
  async function cliJson(...argv: string[]): Promise<Record<string, unknown>> {
    const result = await cli(...argv, '--json');
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(result.stdout);
  }
  async function createEndpoint(...extra: string[]): Promise<{ id: string; secret: string }> {
    const out = await cliJson(
      'webhooks',
      'create',
      '--account',
      accountId,
      '--url',
      'https://8.8.8.8/hooks',
      '--events',
      'all',
      ...extra,
    );
    return { id: out.endpointId as string, secret: out.signingSecret as string };
  }
  async function storedSecret(id: string) {
    const { rows } = await db.pool.query(
      'SELECT secret, previous_secret, previous_secret_expires_at FROM webhook_endpoints WHERE id = $1',
      [id],
    );
    return rows[0] as {
      secret: string;
      previous_secret: string | null;
      previous_secret_expires_at: Date | null;
    };
  }

  it('creates an endpoint and prints its secret once; list and show never print it', async () => {
    const text = await cli(
      'webhooks',
      'create',
      '--account',
      accountId,
      '--url',
      'https://8.8.8.8/hooks',
      '--events',
      'check.completed,check.failed',
      '--groups',
      groupId,
      '--mode',
      'expanded',
      '--description',
      'Onboarding service',
    );
    expect(text).toMatchObject({ code: 0, stderr: '' });
    const secrets = text.stdout.match(SECRET) ?? [];
    expect(secrets).toHaveLength(1);
    const id = text.stdout.match(UUID)![0];
    expect(text.stdout).toBe(
      `Created webhook endpoint ${id} for account ${accountId}\n` +
        '  URL:          https://8.8.8.8/hooks\n' +
        '  Event types:  check.completed, check.failed\n' +
        `  Groups:       ${groupId}\n` +
        '  Mode:         expanded\n' +
        `Signing secret (shown only now; it cannot be shown again, store it safely): ${secrets[0]}\n`,
    );
    expect((await storedSecret(id)).secret).toBe(secrets[0]);

    const json = await createEndpoint();
    expect(json.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect((await storedSecret(json.id)).secret).toBe(json.secret);

    const outputs = [
      await cli('webhooks', 'list'),
      await cli('webhooks', 'list', '--json'),
      await cli('webhooks', 'list', '--account', accountId, '--json'),
      await cli('webhooks', 'show', id),
      await cli('webhooks', 'show', id, '--json'),
      await cli('webhooks', 'show', json.id, '--json'),
    ];
    for (const output of outputs) {
      expect(output).toMatchObject({ code: 0, stderr: '' });
      expect(output.stdout).not.toMatch(/whsec_/);
      expect(output.stdout).not.toContain(secrets[0]);
      expect(output.stdout).not.toContain(json.secret);
    }
    expect(outputs[0]!.stdout.split('\n')[0]).toMatch(
      /^ID\s+ACCOUNT\s+URL\s+EVENTS\s+GROUPS\s+MODE\s+STATUS\s+CREATED$/,
    );
    expect(outputs[0]!.stdout).toMatch(
      new RegExp(
        `${id}\\s+${accountId}\\s+https://8\\.8\\.8\\.8/hooks\\s+check\\.completed,check\\.failed\\s+1\\s+expanded\\s+enabled`,
      ),
    );
    const listed = JSON.parse(outputs[2]!.stdout) as { accountId: string; endpoints: { id: string }[] };
    expect(listed.accountId).toBe(accountId);
    expect(listed.endpoints.map((endpoint) => endpoint.id)).toEqual(expect.arrayContaining([id, json.id]));
    expect(JSON.parse(outputs[4]!.stdout)).toMatchObject({
      id,
      accountId,
      url: 'https://8.8.8.8/hooks',
      description: 'Onboarding service',
      eventTypes: ['check.completed', 'check.failed'],
      groupIds: [groupId],
      mode: 'expanded',
      status: 'enabled',
      disabledReason: null,
      failingSince: null,
      secretRotatingUntil: null,
      recentDeliveries: { counts: { pending: 0, failed: 0, delivered: 0, dead: 0 }, lastDeliveredAt: null },
    });
  });

  it('refuses URLs that are not https or not public, in one line, exit 1', async () => {
    const create = (url: string, run = cli) =>
      run('webhooks', 'create', '--account', accountId, '--url', url, '--events', 'all');
    const refusals: [string, string | RegExp][] = [
      [
        'http://8.8.8.8/hooks',
        'error: webhook URL refused: the URL must start with https:// (http is allowed only with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)\n',
      ],
      [
        'https://ops:hunter2@8.8.8.8/',
        'error: webhook URL refused: the URL must not carry a user name or password\n',
      ],
      ['https://127.0.0.1/hooks', 'error: webhook URL refused: 127.0.0.1 is not a public address\n'],
      ['https://[::1]/hooks', 'error: webhook URL refused: ::1 is not a public address\n'],
      [
        'https://169.254.169.254/latest/meta-data',
        'error: webhook URL refused: 169.254.169.254 is not a public address\n',
      ],
      [
        'https://localhost/hooks',
        /^error: webhook URL refused: localhost resolves to (127\.0\.0\.1|::1), not a public address\n$/,
      ],
    ];
    for (const [url, message] of refusals) {
      const result = await create(url);
      expect({ url, code: result.code, stdout: result.stdout }).toEqual({ url, code: 1, stdout: '' });
      if (typeof message === 'string') expect(result.stderr).toBe(message);
      else expect(result.stderr).toMatch(message);
    }
    // Local development: http and loopback with WEBHOOK_ALLOW_PRIVATE_TARGETS=true.
    const local = await create('http://127.0.0.1:4321/hooks', cliPrivate);
    expect(local).toMatchObject({ code: 0, stderr: '' });
    expect(local.stdout).toContain('URL:          http://127.0.0.1:4321/hooks');
  });

  it('refuses unknown event types, groups of another account and bad flags, in one line', async () => {
    const create = (...flags: string[]) =>
      cli('webhooks', 'create', '--account', accountId, '--url', 'https://8.8.8.8/hooks', ...flags);
    expect(await create('--events', 'check.completed,case.closed')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --events: unknown event type "case.closed"; valid: all, case.created, check.completed, check.failed, match.reviewed, check.decision_updated, case.decision_recorded, monitoring.alert_created\n',
    });
    expect(await create('--events', 'all', '--groups', `${groupId},${foreignGroupId}`)).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: not a group of account ${accountId}: ${foreignGroupId} (see groups list --account ${accountId})\n`,
    });
    expect(await create('--events', 'all', '--groups', 'emea')).toMatchObject({
      code: 2,
      stderr: 'error: --groups: not a group id: emea\n',
    });
    expect(await create('--events', 'all', '--mode', 'full')).toMatchObject({
      code: 2,
      stderr: 'error: --mode: must be one of summary, expanded\n',
    });
    expect(await create()).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("'--events <list>' not specified"),
    });
    const unknownAccount = await cli(
      'webhooks',
      'create',
      '--account',
      '4b0a3a8e-0e4b-4f43-9d0e-3a2b1c0d9e8f',
      '--url',
      'https://8.8.8.8/',
      '--events',
      'all',
    );
    expect(unknownAccount).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: no account 4b0a3a8e-0e4b-4f43-9d0e-3a2b1c0d9e8f\n',
    });
    for (const command of ['show', 'disable', 'enable', 'delete', 'rotate-secret', 'ping']) {
      expect(await cli('webhooks', command, 'not-an-id')).toEqual({
        code: 2,
        stdout: '',
        stderr: 'error: <id>: must be a UUID\n',
      });
      expect(await cli('webhooks', command, '4b0a3a8e-0e4b-4f43-9d0e-3a2b1c0d9e8f')).toEqual({
        code: 1,
        stdout: '',
        stderr: 'error: no webhook endpoint 4b0a3a8e-0e4b-4f43-9d0e-3a2b1c0d9e8f\n',
      });
    }
  });

  it('rotates the secret with a grace period, 24 hours by default, and prints the new one once', async () => {
    const { id, secret } = await createEndpoint();
    const rotated = await cliAt(T0, 'webhooks', 'rotate-secret', id);
    expect(rotated).toMatchObject({ code: 0, stderr: '' });
    const printed = rotated.stdout.match(SECRET) ?? [];
    expect(printed).toHaveLength(1);
    expect(rotated.stdout).toContain(
      'Until 2026-11-21T10:00:00.000Z deliveries carry both signatures (Service-Signature: v1=<new>,v1=<old>)',
    );
    expect(await storedSecret(id)).toEqual({
      secret: printed[0],
      previous_secret: secret,
      previous_secret_expires_at: new Date(T0.getTime() + 24 * HOUR),
    });
    const shown = await cliAt(new Date(T0.getTime() + HOUR), 'webhooks', 'show', id);
    expect(shown.stdout).toMatch(
      /Secret rotation: +the previous secret also signs until 2026-11-21T10:00:00\.000Z\n/,
    );
    expect(shown.stdout).not.toMatch(/whsec_/);
    const later = await cliAt(new Date(T0.getTime() + 25 * HOUR), 'webhooks', 'show', id);
    expect(later.stdout).toMatch(/Secret rotation: +ended at 2026-11-21T10:00:00\.000Z\n/);

    const sharp = await cliAt(T0, 'webhooks', 'rotate-secret', id, '--grace', '0', '--json');
    const out = JSON.parse(sharp.stdout);
    expect(out).toEqual({
      endpointId: id,
      signingSecret: expect.stringMatching(/^whsec_/),
      previousSecretExpiresAt: null,
    });
    expect(await storedSecret(id)).toEqual({
      secret: out.signingSecret,
      previous_secret: null,
      previous_secret_expires_at: null,
    });
    expect(await cli('webhooks', 'rotate-secret', id, '--grace', '2h')).toMatchObject({ code: 0 });
    expect(await cli('webhooks', 'rotate-secret', id, '--grace', '8d')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --grace: must be at most 7d\n',
    });
    expect(await cli('webhooks', 'rotate-secret', id, '--grace', 'soon')).toMatchObject({
      code: 2,
      stderr: 'error: --grace: must be a duration such as 7d, 36h, 1d12h or 90m, or 0\n',
    });
  });

  it('disables with a reason that show reports, enables, and deletes with the deliveries', async () => {
    const { id } = await createEndpoint();
    expect(await cliAt(T0, 'webhooks', 'disable', id, '--reason', 'receiver migration')).toEqual({
      code: 0,
      stdout: `Disabled webhook endpoint ${id}: receiver migration\n`,
      stderr: '',
    });
    expect(await cli('webhooks', 'disable', id)).toMatchObject({
      code: 0,
      stdout: `Webhook endpoint ${id} was already disabled at 2026-11-20T10:00:00.000Z: receiver migration\n`,
    });
    await db.pool.query('UPDATE webhook_endpoints SET failing_since = $2 WHERE id = $1', [
      id,
      new Date(T0.getTime() - 3 * HOUR),
    ]);
    const shown = await cli('webhooks', 'show', id);
    expect(shown.stdout).toMatch(/Status: +disabled at 2026-11-20T10:00:00\.000Z: receiver migration\n/);
    expect(shown.stdout).toMatch(/Failing since: +2026-11-20T07:00:00\.000Z\n/);
    expect(shown.stdout).toMatch(/Event types: +all\n {2}Groups: +all\n {2}Mode: +summary\n/);
    expect(await cli('webhooks', 'ping', id)).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: webhook endpoint ${id} is disabled (receiver migration); enable it first\n`,
    });

    expect(await cli('webhooks', 'enable', id)).toEqual({
      code: 0,
      stdout: `Enabled webhook endpoint ${id}\n`,
      stderr: '',
    });
    expect(await cliJson('webhooks', 'show', id)).toMatchObject({
      status: 'enabled',
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
    });
    expect(await cli('webhooks', 'enable', id)).toMatchObject({
      stdout: `Webhook endpoint ${id} was already enabled\n`,
    });

    await cli('webhooks', 'ping', id, '--wait', '0');
    expect(await cli('webhooks', 'delete', id)).toEqual({
      code: 0,
      stdout: `Deleted webhook endpoint ${id} and its 1 deliveries\n`,
      stderr: '',
    });
    expect(await cli('webhooks', 'show', id)).toMatchObject({
      code: 1,
      stderr: `error: no webhook endpoint ${id}\n`,
    });
  });

  describe('deliveries', () => {
    /** A delivery the fan-out wrote and the worker tried, as it would leave it. */
    async function failedDelivery(endpointId: string, status: 'failed' | 'dead') {
      const unique = randomBytes(16).toString('hex');
      const deliveryId = `whd_${unique}`;
      const eventId = `evt_${unique}`;
      await db.pool.query(
        `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, body, status, attempts,
                                         next_attempt_at, last_status, last_error, created_at, updated_at)
         VALUES ($1, $2, $3, 'check.completed', '{}', $4, 2, $5, 500, 'HTTP 500', $6, $6)`,
        [
          deliveryId,
          endpointId,
          eventId,
          status,
          status === 'failed' ? new Date(T0.getTime() + HOUR) : null,
          T0,
        ],
      );
      await db.pool.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, http_status, error, response_snippet)
         VALUES ($1, 1, $2, 35, 500, 'HTTP 500', E'{"error":\\n"boom"}'),
                ($1, 2, $3, 10000, NULL, 'timed out after 10000 ms', NULL)`,
        [deliveryId, T0, new Date(T0.getTime() + 60_000)],
      );
      return { deliveryId, eventId };
    }

    it('lists deliveries with their attempts, redelivers one and the dead ones', async () => {
      const { id: endpointId } = await createEndpoint();
      const dead = await failedDelivery(endpointId, 'dead');
      const failing = await failedDelivery(endpointId, 'failed');

      const table = await cli('webhooks', 'deliveries', '--endpoint', endpointId);
      expect(table).toMatchObject({ code: 0, stderr: '' });
      const lines = table.stdout.split('\n');
      expect(lines[0]).toMatch(
        /^DELIVERY\s+EVENT\s+TYPE\s+ENDPOINT\s+STATUS\s+ATTEMPTS\s+NEXT ATTEMPT\s+CREATED$/,
      );
      expect(table.stdout).toContain(
        '    #1  2026-11-20T10:00:00.000Z  HTTP 500  35 ms  response: {"error": "boom"}\n' +
          '    #2  2026-11-20T10:01:00.000Z  no answer  10000 ms  timed out after 10000 ms\n',
      );
      expect(table.stdout).toMatch(
        new RegExp(
          `${dead.deliveryId}\\s+${dead.eventId}\\s+check\\.completed\\s+${endpointId}\\s+dead\\s+2\\s+-`,
        ),
      );

      const json = await cliJson('webhooks', 'deliveries', '--endpoint', endpointId, '--status', 'dead');
      expect(json.deliveries).toEqual([
        expect.objectContaining({
          id: dead.deliveryId,
          eventId: dead.eventId,
          status: 'dead',
          attemptCount: 2,
          attempts: [
            expect.objectContaining({
              attempt: 1,
              httpStatus: 500,
              durationMs: 35,
              responseSnippet: '{"error":\n"boom"}',
            }),
            expect.objectContaining({ attempt: 2, httpStatus: null, error: 'timed out after 10000 ms' }),
          ],
        }),
      ]);
      const byEvent = await cliJson('webhooks', 'deliveries', '--event', failing.eventId);
      expect((byEvent.deliveries as { id: string }[]).map((d) => d.id)).toEqual([failing.deliveryId]);

      const redelivered = await cliAt(T0, 'webhooks', 'redeliver', failing.deliveryId);
      expect(redelivered).toMatchObject({ code: 0, stderr: '' });
      const newId = redelivered.stdout.match(/^Queued delivery (whd_[a-f0-9]{32}): /)![1]!;
      expect(redelivered.stdout).toBe(
        `Queued delivery ${newId}: event ${failing.eventId} again to endpoint ${endpointId} (redelivery of ${failing.deliveryId})\n`,
      );
      const { rows } = await db.pool.query(
        'SELECT event_id, status, redelivery_of FROM webhook_deliveries WHERE id = $1',
        [newId],
      );
      expect(rows[0]).toEqual({
        event_id: failing.eventId,
        status: 'pending',
        redelivery_of: failing.deliveryId,
      });

      expect(await cli('webhooks', 'redeliver', '--endpoint', endpointId, '--dead')).toEqual({
        code: 0,
        stdout: `Queued 1 dead delivery again to endpoint ${endpointId}\n`,
        stderr: '',
      });
      expect(await cliJson('webhooks', 'redeliver', '--endpoint', endpointId, '--dead')).toEqual({
        endpointId,
        queued: 0,
        endpointStatus: 'enabled',
      });

      expect(await cli('webhooks', 'redeliver', 'whd_0000')).toEqual({
        code: 1,
        stdout: '',
        stderr: 'error: no webhook delivery whd_0000\n',
      });
      expect(await cli('webhooks', 'redeliver', 'delivery-1')).toMatchObject({
        code: 2,
        stderr: 'error: <delivery-id>: must be a delivery id (whd_<hex>)\n',
      });
      expect(
        await cli('webhooks', 'redeliver', dead.deliveryId, '--endpoint', endpointId, '--dead'),
      ).toMatchObject({
        code: 2,
        stderr: 'error: <delivery-id>: give a delivery id, or --endpoint <id> --dead, not both\n',
      });
      expect(await cli('webhooks', 'redeliver', '--dead')).toMatchObject({
        code: 2,
        stderr: 'error: --endpoint: required with --dead\n',
      });
      expect(await cli('webhooks', 'deliveries', '--status', 'lost')).toMatchObject({
        code: 2,
        stderr: 'error: --status: must be one of pending, failed, delivered, dead\n',
      });
      expect(await cli('webhooks', 'deliveries', '--event', 'evt_XYZ')).toMatchObject({
        code: 2,
        stderr: 'error: --event: must be an event id (evt_<hex>)\n',
      });

      // Created in the 24 hours before: the two written at T0, the redelivery and the dead one queued again.
      const shown = await cliAt(new Date(T0.getTime() + HOUR), 'webhooks', 'show', endpointId, '--json');
      expect(JSON.parse(shown.stdout).recentDeliveries).toEqual({
        since: '2026-11-19T11:00:00.000Z',
        counts: { pending: 2, failed: 1, delivered: 0, dead: 1 },
        lastDeliveredAt: null,
      });
    });
  });

  describe('ping', () => {
    async function pendingPing(endpointId: string): Promise<string> {
      return eventually(async () => {
        const { rows } = await db.pool.query<{ id: string }>(
          `SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND event_type = 'ping' AND status = 'pending'`,
          [endpointId],
        );
        expect(rows).toHaveLength(1);
        return rows[0]!.id;
      });
    }

    it('says so when no worker takes the ping within the wait', async () => {
      const { id } = await createEndpoint();
      const result = await cli('webhooks', 'ping', id, '--wait', '1s');
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(
        /^Ping queued \(delivery whd_[a-f0-9]{32}, event evt_[a-f0-9]{32}\); no delivery worker took it within 1s: is `npm start` or `node dist\/src\/main\.js work` running, with WEBHOOK_WORKERS above 0\? It stays queued and goes out when a worker runs\.\n$/,
      );
      const { rows } = await db.pool.query(
        `SELECT event_type, status, body FROM webhook_deliveries WHERE endpoint_id = $1`,
        [id],
      );
      expect(rows).toEqual([
        { event_type: 'ping', status: 'pending', body: expect.stringContaining('"type":"ping"') },
      ]);
    });

    it('waits for the outcome and prints it: delivered, or the failed attempt', async () => {
      const { id } = await createEndpoint();
      // A stand-in for the delivery worker: it answers the ping once it sees it.
      const delivered = cli('webhooks', 'ping', id, '--wait', '10m');
      const deliveryId = await pendingPing(id);
      await inTransaction(db.pool, async (client) => {
        await client.query(
          `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, http_status)
           VALUES ($1, 1, now(), 12, 204)`,
          [deliveryId],
        );
        await client.query(
          `UPDATE webhook_deliveries SET status = 'delivered', attempts = 1, next_attempt_at = NULL, last_status = 204,
                  delivered_at = now(), updated_at = now() WHERE id = $1`,
          [deliveryId],
        );
      });
      const ok = await delivered;
      expect(ok).toMatchObject({ code: 0, stderr: '' });
      expect(ok.stdout).toMatch(
        new RegExp(
          `^Ping delivered: HTTP 204 in 12 ms \\(delivery ${deliveryId}, event evt_[a-f0-9]{32}\\)\\n$`,
        ),
      );

      const failing = cli('webhooks', 'ping', id, '--wait', '10m', '--json');
      const failingId = await pendingPing(id);
      // The status first, the attempt after: the ping waits for the attempt's details.
      await db.pool.query(
        `UPDATE webhook_deliveries SET status = 'failed', attempts = 1, next_attempt_at = $2, last_status = 500,
                updated_at = now() WHERE id = $1`,
        [failingId, new Date(T0.getTime() + 60_000)],
      );
      await db.pool.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, http_status, error, response_snippet)
         VALUES ($1, 1, $2, 20, 500, 'HTTP 500', 'Internal Server Error')`,
        [failingId, T0],
      );
      const failed = await failing;
      expect(failed).toMatchObject({ code: 1, stderr: '' });
      expect(JSON.parse(failed.stdout)).toEqual({
        deliveryId: failingId,
        eventId: expect.stringMatching(/^evt_[a-f0-9]{32}$/),
        endpointId: id,
        endpointStatus: 'enabled',
        outcome: 'failed',
        status: 'failed',
        attempt: {
          attempt: 1,
          startedAt: T0.toISOString(),
          durationMs: 20,
          httpStatus: 500,
          error: 'HTTP 500',
          responseSnippet: 'Internal Server Error',
        },
        nextAttemptAt: '2026-11-20T10:01:00.000Z',
      });
    });
  });
});
