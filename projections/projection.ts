import type pg from 'pg';
import type { RecordedEvent } from '../src/eventStore/eventStore.js';

/** Physical table names of one version, by the base name each table is read through. */
export type VersionTables<Table extends string = string> = Record<Table, string>;

/**
 * A read model. Its tables exist in numbered versions (`<table>_v<n>`); readers query a view named
 * after each table, which points at the active version, so a rebuild can fill version n+1 while
 * version n keeps serving and swap them in one transaction.
 */
export interface ProjectionDefinition<Table extends string = string> {
  /** SQL-safe ([a-z][a-z0-9_]*); also the name operators use in the CLI. */
  readonly name: string;
  /** Version of the handler and table shapes. Bump it on any change: stored tables then need a rebuild. */
  readonly version: number;
  /** Stream categories to project; every event when absent. */
  readonly categories?: string[];
  /** Base names of its tables; each is read through a view of that name. */
  readonly tables: readonly Table[];
  /** CREATE statements for one version's tables (and their indexes, named after the tables). */
  ddl(tables: VersionTables<Table>): string;
  /** Idempotent: replaying events already applied must change nothing (guard by stream revision). */
  handle(events: RecordedEvent[], tx: pg.PoolClient, tables: VersionTables<Table>): Promise<void>;
}

const IDENTIFIER = /^[a-z][a-z0-9_]*$/;
// PostgreSQL truncates identifiers beyond 63 bytes; keep room for `_v<n>` and index suffixes.
const MAX_BASE_LENGTH = 40;

export function assertValidDefinition(definition: ProjectionDefinition): void {
  for (const name of [definition.name, ...definition.tables]) {
    if (!IDENTIFIER.test(name) || name.length > MAX_BASE_LENGTH) {
      throw new TypeError(`Projection ${definition.name}: "${name}" is not a valid table or projection name`);
    }
  }
  if (!Number.isInteger(definition.version) || definition.version < 1) {
    throw new TypeError(`Projection ${definition.name}: version must be a positive integer`);
  }
}

export function versionTables<Table extends string>(
  definition: ProjectionDefinition<Table>,
  version: number,
): VersionTables<Table> {
  return Object.fromEntries(
    definition.tables.map((table) => [table, `${table}_v${version}`]),
  ) as VersionTables<Table>;
}

export function projectionSubscriptionId(name: string, version: number): string {
  return `projection:${name}:v${version}`;
}
