import type { Queryable } from '../../src/db/sql.js';

export interface StreamIndexEntry {
  streamName: string;
  category: string;
  lastRevision: bigint;
  eventCount: number;
  lastEventType: string;
  firstRecordedAt: Date;
  lastRecordedAt: Date;
}

interface Row {
  stream_name: string;
  category: string;
  last_revision: string;
  event_count: string;
  last_event_type: string;
  first_recorded_at: Date;
  last_recorded_at: Date;
}

function toEntry(row: Row): StreamIndexEntry {
  return {
    streamName: row.stream_name,
    category: row.category,
    lastRevision: BigInt(row.last_revision),
    eventCount: Number(row.event_count),
    lastEventType: row.last_event_type,
    firstRecordedAt: row.first_recorded_at,
    lastRecordedAt: row.last_recorded_at,
  };
}

// Reads go through the `stream_index` view, which a rebuild re-points at a new table version.
export async function findStream(db: Queryable, streamName: string): Promise<StreamIndexEntry | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM stream_index WHERE stream_name = $1', [streamName]);
  return rows[0] && toEntry(rows[0]);
}

export async function listStreams(
  db: Queryable,
  category: string,
  options: { limit?: number } = {},
): Promise<StreamIndexEntry[]> {
  const { rows } = await db.query<Row>(
    'SELECT * FROM stream_index WHERE category = $1 ORDER BY stream_name LIMIT $2',
    [category, options.limit ?? 100],
  );
  return rows.map(toEntry);
}
