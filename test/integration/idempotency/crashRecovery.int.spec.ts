import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore, NewEvent } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { idempotentEventId } from '../../../src/idempotency/deterministicIds.js';
import {
  beginRequest,
  completeRequest,
  fingerprintRequest,
} from '../../../src/idempotency/idempotencyStore.js';
import { expireIdempotencyLease } from '../../support/idempotencyLeases.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/**
 * The crash argument of docs/idempotency.md: a process appends its events and dies before storing the
 * response. The retry takes the expired lease over and runs the command again; because the event ids
 * come from the idempotency key, the second append is a no-op and the stream holds the events once.
 */
describe('idempotency across a crash', () => {
  let db: TestDatabase;
  let store: EventStore;
  beforeAll(async () => {
    db = await createTestDatabase();
    store = createPostgresEventStore({ pool: db.pool, connectionString: db.url, pollIntervalMs: 100 });
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  it('appends the events of a recovered command once', async () => {
    const apiKeyId = randomUUID();
    const key = `create-case-${randomUUID()}`;
    const body = { subject: { name: 'Ada Lovelace' } };
    const request = {
      apiKeyId,
      key,
      method: 'POST',
      path: '/v1/cases',
      fingerprint: fingerprintRequest({ method: 'POST', path: '/v1/cases', body }),
      leaseMs: 600_000,
    };
    const stream = `case-${randomUUID()}`;
    const command = (): NewEvent[] => [
      { id: idempotentEventId(apiKeyId, key, 0), type: 'CaseOpened', data: body },
      { id: idempotentEventId(apiKeyId, key, 1), type: 'SubjectAdded', data: body.subject },
    ];

    expect(await beginRequest(db.pool, request)).toMatchObject({ kind: 'started', recovered: false });
    const firstAppend = await store.appendToStream(stream, command(), { expectedRevision: 'no_stream' });
    // Crash: completeRequest never runs. Until the lease runs out, retries are told to wait.
    expect(await beginRequest(db.pool, request)).toEqual({ kind: 'in_flight' });
    await expireIdempotencyLease(db.pool, apiKeyId, key);

    const retry = await beginRequest(db.pool, request);
    expect(retry).toMatchObject({ kind: 'started', recovered: true });
    const secondAppend = await store.appendToStream(stream, command(), { expectedRevision: 'no_stream' });
    expect(secondAppend).toEqual(firstAppend);
    if (retry.kind !== 'started') throw new Error('unreachable');
    await completeRequest(db.pool, {
      apiKeyId,
      key,
      status: 201,
      body: { data: { stream } },
      leaseId: retry.leaseId,
    });

    const { events } = await store.readStream(stream);
    expect(events.map((e) => [e.id, e.type])).toEqual([
      [idempotentEventId(apiKeyId, key, 0), 'CaseOpened'],
      [idempotentEventId(apiKeyId, key, 1), 'SubjectAdded'],
    ]);
    expect(await beginRequest(db.pool, request)).toEqual({
      kind: 'replay',
      status: 201,
      body: { data: { stream } },
    });
  });
});
