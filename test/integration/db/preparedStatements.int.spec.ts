import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { readCase } from '../../../src/cases/caseReadModel.js';
import { createPool } from '../../../src/db/database.js';
import { prepared } from '../../../src/db/sql.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { createRateLimiter } from '../../../src/rateLimit/rateLimiter.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/**
 * The hot statements are prepared once per connection (`prepared` in src/db/sql.ts): on one
 * connection, repeating them adds no prepared statement, and each is there under its own name.
 */
describe('prepared hot statements', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    await installProjections(db.pool, projections);
    pool = createPool(db.url, { max: 1, applicationName: 'casescreen-test-prepared' });
    store = createPostgresEventStore({ pool, connectionString: db.url });
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await db?.drop();
  });

  const preparedOnConnection = async () =>
    (
      await pool.query<{ name: string; statement: string }>(
        'SELECT name, statement FROM pg_prepared_statements',
      )
    ).rows;

  it('prepares the case read with its rate-limit hit and the append once, whatever the values', async () => {
    const limiter = createRateLimiter(pool);
    for (let i = 0; i < 3; i++) {
      const stream = `probe-${randomUUID()}`;
      await store.appendToStream(stream, [{ type: 'Probed', data: { i } }]);
      await readCase(pool, store, `ABC00000${i}`, {
        ...limiter.hitRider(randomUUID()),
        settle: async () => {},
      });
    }
    const statements = await preparedOnConnection();
    expect(statements.every((statement) => statement.name.startsWith('cs_'))).toBe(true);
    expect(statements.filter((statement) => /es_append\(/.test(statement.statement))).toHaveLength(1);
    expect(
      statements.filter((statement) => /rate_limit_windows[\s\S]*case_views/.test(statement.statement)),
    ).toHaveLength(1);
  });

  it('names a statement by its text', () => {
    expect(prepared('SELECT $1::int', [1]).name).toBe(prepared('SELECT $1::int', [2]).name);
    expect(prepared('SELECT $1::int', [1]).name).not.toBe(prepared('SELECT $1::text', [1]).name);
  });
});
