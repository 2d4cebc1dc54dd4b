import pg from 'pg';
import { prepared } from '../../src/db/sql.js';
import type { ProjectionDefinition } from '../projection.js';

/**
 * One row per stream: its category, last revision, event count, last event type and the first and
 * last times it was written. Idempotent by a revision guard: events at or below the stored revision
 * are ignored, so a replayed batch changes nothing.
 */
export const streamIndexProjection: ProjectionDefinition<'stream_index'> = {
  name: 'stream_index',
  version: 1,
  tables: ['stream_index'],

  ddl: ({ stream_index }) => {
    const table = pg.escapeIdentifier(stream_index);
    return `
CREATE TABLE ${table} (
  stream_name       text PRIMARY KEY,
  category          text NOT NULL,
  last_revision     bigint NOT NULL,
  event_count       bigint NOT NULL,
  last_event_type   text NOT NULL,
  first_recorded_at timestamptz NOT NULL,
  last_recorded_at  timestamptz NOT NULL
);
CREATE INDEX ${pg.escapeIdentifier(`${stream_index}_category`)} ON ${table} (category, stream_name);`;
  },

  async handle(events, tx, { stream_index }) {
    const table = pg.escapeIdentifier(stream_index);
    // Only events past the stored revision count; one statement so the guard and the upsert agree.
    await tx.query(
      prepared(
        `WITH batch AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::timestamptz[])
           AS b(stream_name, category, revision, event_type, recorded_at)
       ),
       fresh AS (
         SELECT b.* FROM batch b LEFT JOIN ${table} s USING (stream_name)
          WHERE s.stream_name IS NULL OR b.revision > s.last_revision
       ),
       per_stream AS (
         SELECT stream_name, min(category) AS category, max(revision) AS last_revision,
                count(*) AS event_count,
                (array_agg(event_type ORDER BY revision DESC))[1] AS last_event_type,
                min(recorded_at) AS first_recorded_at, max(recorded_at) AS last_recorded_at
           FROM fresh GROUP BY stream_name
       )
       INSERT INTO ${table} AS s
         (stream_name, category, last_revision, event_count, last_event_type, first_recorded_at, last_recorded_at)
       SELECT stream_name, category, last_revision, event_count, last_event_type, first_recorded_at,
              last_recorded_at
         FROM per_stream
       ON CONFLICT (stream_name) DO UPDATE
         SET last_revision = EXCLUDED.last_revision,
             event_count = s.event_count + EXCLUDED.event_count,
             last_event_type = EXCLUDED.last_event_type,
             last_recorded_at = EXCLUDED.last_recorded_at
         WHERE s.last_revision < EXCLUDED.last_revision`,
        [
          events.map((event) => event.streamName),
          events.map((event) => event.category),
          events.map((event) => event.revision.toString()),
          events.map((event) => event.type),
          events.map((event) => event.recordedAt.toISOString()),
        ],
      ),
    );
  },
};
