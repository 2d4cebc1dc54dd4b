import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCaseCommand } from '../../../src/cases/caseStream.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { createWebhookEndpoint } from '../../../src/webhooks/webhookEndpoints.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { createCase } from '../../support/caseBuilders.js';
import { eventually } from '../../support/eventually.js';
import { logged, type ServiceProcess, startServiceProcess } from '../../support/serviceProcess.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.js';

/**
 * A real `work` process killed with SIGKILL while its deliveries are in flight (the receiver holds
 * every request open), and events appended while no process runs: after a restart every event
 * reaches the receiver, under the same event ids. The dead worker's leases are expired by the test
 * rather than waited out.
 */
describe('webhooks across a killed work process', () => {
  let db: TestDatabase;
  let store: EventStore;
  let receiver: WebhookReceiver;
  let accountId = '';
  let groupId = '';
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    store = createPostgresEventStore({ pool: db.pool, connectionString: db.url, pollIntervalMs: 100 });
    const workspace = await createWorkspace(db.pool, { name: 'Crash' });
    accountId = workspace.account.id;
    groupId = workspace.defaultGroup.id;
    receiver = await startWebhookReceiver(() => 'hang');
    await createWebhookEndpoint(
      db.pool,
      { accountId, url: receiver.url, eventTypes: ['case.created'], mode: 'expanded' },
      { clock: () => new Date(), allowPrivateTargets: true },
    );
  });

  afterAll(async () => {
    for (const service of services) if (service.child.exitCode === null) service.child.kill('SIGKILL');
    await receiver?.close();
    await store?.close();
    await db?.drop();
  });

  function startWork(): ServiceProcess {
    const service = startServiceProcess('work', {
      DATABASE_URL: db.url,
      FEED_POLL_INTERVAL_MS: '100',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_DELAYS: '1s,1s,1s',
      CHECK_WORKERS: '0',
    });
    services.push(service);
    return service;
  }

  async function newCases(count: number): Promise<string[]> {
    const references: string[] = [];
    for (let i = 0; i < count; i++) {
      const caseReference = `KIL${String(references.length + 1 + Math.floor(Math.random() * 900_000)).padStart(6, '0')}`;
      const ids = Array.from({ length: 4 }, () => randomUUID());
      const outcome = await runCaseCommand(
        store,
        caseReference,
        {
          ...createCase({ caseReference, accountId, groupId }, ['sanctions']),
          now: new Date().toISOString(),
        },
        (index) => ids[index]!,
      );
      if (!outcome.ok) throw new Error(outcome.rejection.message);
      references.push(caseReference);
    }
    return references;
  }

  it('loses no delivery and sends each under its event id again after a restart', async () => {
    const first = startWork();
    await logged(first, 'workers started');
    const inFlight = await newCases(4);
    await eventually(() => expect(receiver.inFlight).toBe(4));

    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    // Appended while no work process runs.
    const whileDown = await newCases(2);

    const { rows: held } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE lease_owner IS NOT NULL AND status = 'pending'`,
    );
    expect(held[0]!.n).toBe(4);
    // The dead worker's leases would run out after the timeout and a margin; the test ends them now.
    await db.pool.query(
      `UPDATE webhook_deliveries SET lease_until = now() - interval '1 second' WHERE lease_owner IS NOT NULL`,
    );

    receiver.answerWith(() => 200);
    const second = startWork();
    await logged(second, 'workers started');
    const { rows } = await eventually(async () => {
      const result = await db.pool.query<{
        event_id: string;
        status: string;
        attempts: number;
        body: string;
      }>('SELECT event_id, status, attempts, body FROM webhook_deliveries ORDER BY created_at');
      expect(result.rows).toHaveLength(6);
      expect(result.rows.every((row) => row.status === 'delivered')).toBe(true);
      return result;
    });
    const caseOf = (body: string) =>
      (JSON.parse(body) as { data: { case_reference: string } }).data.case_reference;
    expect(rows.map((row) => caseOf(row.body)).sort()).toEqual([...inFlight, ...whileDown].sort());
    // The four in flight were sent twice (the lost attempt and the next), under one event id each.
    for (const row of rows) {
      const sent = receiver.received.filter((delivery) => delivery.eventId === row.event_id);
      expect(sent.length).toBe(inFlight.includes(caseOf(row.body)) ? 2 : 1);
      expect(row.attempts).toBe(sent.length);
    }
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
