import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WrongExpectedVersionError } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/** What PostgreSQL adds to the port's multi-stream append: all or nothing, and no deadlock. */
describe('PostgreSQL multi-stream append', () => {
  let db: TestDatabase;
  let store: ReturnType<typeof createPostgresEventStore>;
  beforeAll(async () => {
    db = await createTestDatabase();
    store = createPostgresEventStore({ pool: db.pool, connectionString: db.url });
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });
  const event = (n: number) => ({ type: 'Tested', data: { n } });

  it('writes nothing when a later stream refuses its expected revision', async () => {
    const [subject, kase] = [`subject-${randomUUID()}`, `case-${randomUUID()}`];
    await store.appendToStream(kase, [event(0)]);
    await expect(
      store.appendToStreams([
        { streamName: subject, events: [event(1)], expectedRevision: 'no_stream' },
        { streamName: kase, events: [event(2)], expectedRevision: 'no_stream' },
      ]),
    ).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await store.readStream(subject)).toMatchObject({ exists: false, events: [] });
    expect((await store.readStream(kase)).events).toHaveLength(1);
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM es_streams WHERE stream_name = $1', [
      subject,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('commits both streams in one transaction', async () => {
    const [subject, kase] = [`subject-${randomUUID()}`, `case-${randomUUID()}`];
    await store.appendToStreams([
      { streamName: subject, events: [event(1)], expectedRevision: 'no_stream' },
      { streamName: kase, events: [event(2), event(3)], expectedRevision: 'no_stream' },
    ]);
    const { rows } = await db.pool.query<{ transactions: number }>(
      'SELECT count(DISTINCT transaction_id)::int AS transactions FROM es_events WHERE stream_name = ANY($1)',
      [[subject, kase]],
    );
    expect(rows[0]!.transactions).toBe(1);
  });

  it('lets writers that share streams in opposite orders all finish, each stream without gaps', async () => {
    const [a, b] = [`subject-${randomUUID()}`, `case-${randomUUID()}`];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        store.appendToStreams(
          i % 2 === 0
            ? [
                { streamName: a, events: [event(i)] },
                { streamName: b, events: [event(i)] },
              ]
            : [
                { streamName: b, events: [event(i)] },
                { streamName: a, events: [event(i)] },
              ],
        ),
      ),
    );
    for (const name of [a, b]) {
      const read = await store.readStream(name);
      expect(read.events.map((e) => Number(e.revision))).toEqual(Array.from({ length: 40 }, (_, i) => i));
    }
  });
});
