import pg from 'pg';
import { prepared } from '../src/db/sql.js';
import type { StreamType } from '../src/eventSourcing/commandHandler.js';
import type { RecordedEvent } from '../src/eventStore/eventStore.js';
import type { ProjectionDefinition } from './projection.js';

/**
 * A read model of one row per stream of one category, holding the stream's state as the domain's
 * own `evolve` folds it (the one fold: the projection has no rules of its own) and columns lifted
 * out of that state for queries. The helper owns what every such projection needs:
 *
 * - grouping a batch's events by stream, in feed order (which is each stream's revision order);
 * - a revision guard: events at or below the stored revision are skipped, so a replayed batch
 *   changes nothing;
 * - gap detection: an event that is not the next revision means one was never seen, and throwing
 *   parks the subscription on it rather than storing a state that silently lacks a fact;
 * - one upsert per batch, whose WHERE repeats the guard so a row never goes back in time.
 *
 * The table: `<idColumn> text PRIMARY KEY`, the lifted columns, `revision bigint` (the stream
 * revision of the last event folded) and `state jsonb`.
 */
export interface SingleStreamProjectionOptions<Table extends string, State, Event> {
  name: string;
  /** Bump on any change of the fold, the state's shape or the columns: the tables then need a rebuild. */
  version: number;
  table: Table;
  /** The stream type: its category is projected, folded with its evolve. */
  stream: StreamType<State | null, Event>;
  /** The primary key column, holding the stream id (the stream name after `<category>-`). */
  idColumn: string;
  /** Columns lifted out of the state, by name: their SQL type and their value. */
  columns: Record<string, { type: string; value(state: State): unknown }>;
  /**
   * Indexes by name suffix (`<table>_<suffix>`), each on the columns listed (a B-tree), or a GIN
   * index on one jsonb column (containment and key queries: `?|`, `@>`).
   */
  indexes?: Record<string, string[] | { gin: string }>;
}

export function singleStreamProjection<Table extends string, State, Event>(
  options: SingleStreamProjectionOptions<Table, State, Event>,
): ProjectionDefinition<Table> {
  const { stream, idColumn } = options;
  const columns = Object.entries(options.columns);
  const id = pg.escapeIdentifier(idColumn);

  return {
    name: options.name,
    version: options.version,
    categories: [stream.category],
    tables: [options.table],

    ddl(tables) {
      const physical = tables[options.table];
      const table = pg.escapeIdentifier(physical);
      const definitions = [
        `${id} text PRIMARY KEY`,
        ...columns.map(([name, column]) => `${pg.escapeIdentifier(name)} ${column.type} NOT NULL`),
        'revision bigint NOT NULL',
        'state jsonb NOT NULL',
      ];
      const indexes = Object.entries(options.indexes ?? {}).map(([suffix, on]) => {
        const definition = Array.isArray(on)
          ? `(${on.map((c) => pg.escapeIdentifier(c)).join(', ')})`
          : `USING gin (${pg.escapeIdentifier(on.gin)})`;
        return `CREATE INDEX ${pg.escapeIdentifier(`${physical}_${suffix}`)} ON ${table} ${definition};`;
      });
      return [`CREATE TABLE ${table} (\n  ${definitions.join(',\n  ')}\n);`, ...indexes].join('\n');
    },

    async handle(events, tx, tables) {
      const table = pg.escapeIdentifier(tables[options.table]);
      const byStream = eventsByStream(events, stream.category);
      if (byStream.size === 0) return;

      const { rows } = await tx.query<{ id: string; revision: string; state: State }>(
        prepared(`SELECT ${id} AS id, revision, state FROM ${table} WHERE ${id} = ANY($1::text[])`, [
          [...byStream.keys()],
        ]),
      );
      const stored = new Map(
        rows.map((row) => [row.id, { revision: Number(row.revision), state: row.state }]),
      );

      const changed: { id: string; revision: number; state: State }[] = [];
      for (const [streamId, streamEvents] of byStream) {
        const before = stored.get(streamId) ?? { revision: -1, state: stream.initialState() };
        const after = foldNew(options.name, stream, before, streamEvents);
        if (after.revision > before.revision && after.state !== null) {
          changed.push({ id: streamId, revision: after.revision, state: after.state });
        }
      }
      if (changed.length === 0) return;

      const names = [idColumn, ...columns.map(([name]) => name), 'revision', 'state'].map((n) =>
        pg.escapeIdentifier(n),
      );
      const types = ['text', ...columns.map(([, column]) => column.type), 'bigint', 'jsonb'];
      const values: unknown[][] = [
        changed.map((row) => row.id),
        ...columns.map(([, column]) => changed.map((row) => column.value(row.state))),
        changed.map((row) => String(row.revision)),
        changed.map((row) => JSON.stringify(row.state)),
      ];
      await tx.query(
        prepared(
          `INSERT INTO ${table} AS v (${names.join(', ')})
         SELECT * FROM unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})
         ON CONFLICT (${id}) DO UPDATE
           SET ${names
             .slice(1)
             .map((name) => `${name} = EXCLUDED.${name}`)
             .join(', ')}
           WHERE v.revision < EXCLUDED.revision`,
          values,
        ),
      );
    },
  };
}

/** The batch's events per stream id, each stream's in feed order. */
function eventsByStream(events: readonly RecordedEvent[], category: string): Map<string, RecordedEvent[]> {
  const byStream = new Map<string, RecordedEvent[]>();
  for (const event of events) {
    if (event.category !== category) continue;
    const streamId = event.streamName.slice(category.length + 1);
    const list = byStream.get(streamId);
    if (list) list.push(event);
    else byStream.set(streamId, [event]);
  }
  return byStream;
}

/** Folds the events past the stored revision into the stored state; throws on a gap. */
function foldNew<State, Event>(
  projection: string,
  stream: StreamType<State | null, Event>,
  from: { revision: number; state: State | null },
  events: readonly RecordedEvent[],
): { revision: number; state: State | null } {
  let { revision, state } = from;
  for (const recorded of events) {
    const next = Number(recorded.revision);
    if (next <= revision) continue;
    if (next !== revision + 1) {
      throw new Error(
        `${projection}: ${recorded.streamName} revision ${next} follows stored revision ${revision}; an event is missing`,
      );
    }
    state = stream.evolve(state, stream.toEvent(recorded));
    revision = next;
  }
  return { revision, state };
}
