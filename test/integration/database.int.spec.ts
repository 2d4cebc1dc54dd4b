import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

describe('database bootstrap', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('records every migration once and is a no-op when run again', async () => {
    const { rows } = await db.pool.query('SELECT id FROM schema_migrations ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual(migrations.map((m) => m.id));
    const again = await migrate(db.url);
    expect(again.applied).toEqual([]);
  });

  it('serializes concurrent migrators', async () => {
    const fresh = await createTestDatabase({ migrate: false });
    try {
      const reports = await Promise.all([migrate(fresh.url), migrate(fresh.url), migrate(fresh.url)]);
      expect(reports.map((r) => r.applied.length).sort()).toEqual([0, 0, migrations.length]);
    } finally {
      await fresh.drop();
    }
  });
});
