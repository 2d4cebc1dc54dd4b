import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScreeningIndex } from '../../../src/screening/index/loadIndex.js';
import { japaneseReadingsLoaded } from '../../../src/screening/matching/vocabulary/japaneseReadings.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

describe('loadScreeningIndex', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('reads the dictionary of Japanese name readings, so that no search waits for it', async () => {
    // No snapshot holds a name in kanji here: only the load itself can have read it.
    expect(japaneseReadingsLoaded()).toBe(false);
    const loaded = await loadScreeningIndex(db.pool);
    expect(loaded.snapshots).toEqual([]);
    expect(japaneseReadingsLoaded()).toBe(true);
  });
});
