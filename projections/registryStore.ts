import pg from 'pg';
import type { Queryable } from '../src/db/sql.js';
import { assertValidDefinition, type ProjectionDefinition, versionTables } from './projection.js';

/** A projection's row in `projection_registry`. */
export interface RegistryEntry {
  name: string;
  activeVersion: number;
  /** Code version of the projection that built the active tables. */
  activeCodeVersion: number;
  buildingVersion: number | null;
  buildingCodeVersion: number | null;
  /** Replaced tables waiting until no runner can write them any more. */
  retiredVersion: number | null;
  swappedAt: Date | null;
  updatedAt: Date;
}

interface Row {
  name: string;
  active_version: number;
  active_code_version: number;
  building_version: number | null;
  building_code_version: number | null;
  retired_version: number | null;
  swapped_at: Date | null;
  updated_at: Date;
}

const COLUMNS = `name, active_version, active_code_version, building_version, building_code_version,
  retired_version, swapped_at, updated_at`;

function toEntry(row: Row): RegistryEntry {
  return {
    name: row.name,
    activeVersion: row.active_version,
    activeCodeVersion: row.active_code_version,
    buildingVersion: row.building_version,
    buildingCodeVersion: row.building_code_version,
    retiredVersion: row.retired_version,
    swappedAt: row.swapped_at,
    updatedAt: row.updated_at,
  };
}

/** With `lock`, in a transaction: serializes with rebuilds, swaps and every projection batch. */
export async function loadRegistryEntry(
  db: Queryable,
  name: string,
  lock?: 'FOR UPDATE',
): Promise<RegistryEntry | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM projection_registry WHERE name = $1 ${lock ?? ''}`,
    [name],
  );
  return rows[0] && toEntry(rows[0]);
}

export async function listRegistryEntries(db: Queryable): Promise<Map<string, RegistryEntry>> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM projection_registry`);
  return new Map(rows.map((row) => [row.name, toEntry(row)]));
}

/**
 * Points each table's view at `version`. Drop and create rather than CREATE OR REPLACE, which
 * cannot follow a version whose columns changed; inside the caller's transaction, readers wait for
 * the commit and then see the new version, never a missing view.
 */
export async function pointViews(
  tx: pg.PoolClient,
  definition: ProjectionDefinition,
  version: number,
): Promise<void> {
  const tables = versionTables(definition, version);
  for (const [view, table] of Object.entries<string>(tables)) {
    const viewName = pg.escapeIdentifier(view);
    await tx.query(`DROP VIEW IF EXISTS ${viewName}`);
    await tx.query(`CREATE VIEW ${viewName} AS SELECT * FROM ${pg.escapeIdentifier(table)}`);
  }
}

/**
 * The read-model part of migrating: creates version 1 (tables, views, registry row) of every
 * projection that has none yet. Safe from several processes at once.
 */
export async function installProjections(
  pool: pg.Pool,
  definitions: readonly ProjectionDefinition[],
): Promise<string[]> {
  const installed: string[] = [];
  for (const definition of definitions) {
    assertValidDefinition(definition);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('projection:' || $1::text, 0))", [
        definition.name,
      ]);
      if (await loadRegistryEntry(client, definition.name)) {
        await client.query('COMMIT');
        continue;
      }
      await client.query(definition.ddl(versionTables(definition, 1)));
      await pointViews(client, definition, 1);
      await client.query(
        'INSERT INTO projection_registry (name, active_version, active_code_version) VALUES ($1, 1, $2)',
        [definition.name, definition.version],
      );
      await client.query('COMMIT');
      installed.push(definition.name);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
  return installed;
}
