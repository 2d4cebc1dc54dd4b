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
import { type RecordingReceiver, startRecordingReceiver } from './recordingReceiver.js';

/**
 * Two real `work` processes claiming from one outbox. The receiver answers the first request of
 * every delivery with a 500 and the next with a 204, so each delivery is attempted at least twice,
 * by either process. It holds its answers until both processes have all their attempts in flight
 * (two each), so both are seen sending at the same time. Every delivery must arrive, no delivery
 * may be in flight twice at once, and each attempt number of a delivery is made once, by one
 * process: what the processes log, what the receiver saw and what the outbox recorded agree.
 */

const WORKERS_PER_PROCESS = 2;
const CASES = 12;

interface AttemptLine {
  deliveryId: string;
  attempt: number;
  outcome: string;
  httpStatus: number | null;
}

describe('webhooks sent by two work processes', () => {
  let db: TestDatabase;
  let store: EventStore;
  let receiver: RecordingReceiver;
  let accountId = '';
  let groupId = '';
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    store = createPostgresEventStore({ pool: db.pool, connectionString: db.url, pollIntervalMs: 100 });
    const workspace = await createWorkspace(db.pool, { name: 'Two processes' });
    accountId = workspace.account.id;
    groupId = workspace.defaultGroup.id;
    receiver = await startRecordingReceiver((arrival) => (arrival.receipt === 1 ? 500 : 204));
    await createWebhookEndpoint(
      db.pool,
      { accountId, url: receiver.url, eventTypes: ['case.created'], mode: 'expanded' },
      { clock: () => new Date(), allowPrivateTargets: true },
    );
    for (let i = 0; i < 2; i++) {
      services.push(
        startServiceProcess('work', {
          DATABASE_URL: db.url,
          FEED_POLL_INTERVAL_MS: '100',
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_WORKERS: String(WORKERS_PER_PROCESS),
          // The longest deadline: a busy machine must not turn a held answer into a timeout.
          WEBHOOK_TIMEOUT: '60s',
          WEBHOOK_RETRY_DELAYS: '1s,1s,1s,1s,1s',
          CHECK_WORKERS: '0',
          // Attempts accepted are logged at debug: every attempt of either process is in its log.
          LOG_LEVEL: 'debug',
        }),
      );
    }
    await Promise.all(services.map((service) => logged(service, 'workers started')));
  });

  afterAll(async () => {
    for (const service of services) if (service.child.exitCode === null) service.child.kill('SIGKILL');
    await receiver?.close();
    await store?.close();
    await db?.drop();
  });

  async function newCases(count: number): Promise<string[]> {
    const references: string[] = [];
    for (let i = 0; i < count; i++) {
      const caseReference = `TWO${String(i + 1).padStart(6, '0')}`;
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

  /** The attempts a process reported (after it stopped: its log is complete). */
  function attemptsLogged(service: ServiceProcess): AttemptLine[] {
    return service
      .logLines()
      .filter((line) => line.msg === 'webhook delivered' || String(line.msg).startsWith('webhook attempt '))
      .map((line) => ({
        deliveryId: line.deliveryId as string,
        attempt: line.attempt as number,
        outcome: line.outcome as string,
        httpStatus: line.httpStatus as number | null,
      }));
  }

  it('delivers every event, each attempt sent once, never the same delivery twice at once', async () => {
    receiver.hold();
    const cases = await newCases(CASES);
    // Both processes at their limit: four attempts in flight, two from each.
    await eventually(() => expect(receiver.inFlight).toBe(2 * WORKERS_PER_PROCESS));
    receiver.release();

    const rows = await eventually(
      async () => {
        const { rows } = await db.pool.query<{
          id: string;
          status: string;
          attempts: number;
          body: string;
        }>('SELECT id, status, attempts, body FROM webhook_deliveries ORDER BY id');
        expect(rows).toHaveLength(CASES);
        expect(rows.filter((row) => row.status !== 'delivered')).toEqual([]);
        return rows;
      },
      // Twelve deliveries, each answered 500 once and retried a second later: seconds on a quiet
      // machine; the limit only bounds a hang.
      90_000,
    );
    for (const service of services) service.child.kill('SIGTERM');
    expect(await Promise.all(services.map((service) => service.exited))).toEqual([0, 0]);

    const caseOf = (body: string) =>
      (JSON.parse(body) as { data: { case_reference: string } }).data.case_reference;
    expect(rows.map((row) => caseOf(row.body)).sort()).toEqual(cases);

    // Never the same delivery twice at once at the receiver.
    expect(receiver.overlaps).toEqual([]);

    // Each process made attempts, and no attempt of a delivery was made by both, or twice.
    const [first, second] = services.map(attemptsLogged) as [AttemptLine[], AttemptLine[]];
    expect(first.length).toBeGreaterThanOrEqual(WORKERS_PER_PROCESS);
    expect(second.length).toBeGreaterThanOrEqual(WORKERS_PER_PROCESS);
    const logged = [...first, ...second];
    expect(logged.filter((line) => !['delivered', 'failed'].includes(line.outcome))).toEqual([]);
    const pairs = logged.map((line) => `${line.deliveryId}#${line.attempt}`).sort();
    expect(new Set(pairs).size).toBe(pairs.length);

    // The outbox recorded exactly those attempts, numbered 1..n for each delivery; the receiver got
    // n requests of it and accepted one: the last.
    const { rows: recorded } = await db.pool.query<{ delivery_id: string; attempt: number }>(
      'SELECT delivery_id, attempt FROM webhook_attempts',
    );
    expect(recorded.map((row) => `${row.delivery_id}#${row.attempt}`).sort()).toEqual(pairs);
    for (const row of rows) {
      expect(row.attempts).toBeGreaterThanOrEqual(2);
      expect(
        recorded
          .filter((entry) => entry.delivery_id === row.id)
          .map((entry) => entry.attempt)
          .sort((a, b) => a - b),
      ).toEqual(Array.from({ length: row.attempts }, (_, index) => index + 1));
      const answered = receiver.arrivals
        .filter((arrival) => arrival.deliveryId === row.id)
        .map((arrival) => arrival.status);
      expect(answered).toHaveLength(row.attempts);
      expect(answered.at(-1)).toBe(204);
      expect(answered.filter((status) => status === 204)).toHaveLength(1);
    }
  });
});
