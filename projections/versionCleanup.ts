import pg from 'pg';
import { openLockSession, tryLockSubscription } from '../src/subscriptions/leadership.js';
import { type ProjectionDefinition, projectionSubscriptionId, versionTables } from './projection.js';
import { loadRegistryEntry } from './registryStore.js';

export interface VersionCleanupOptions {
  pool: pg.Pool;
  /** For the session that holds the version's subscription lock while its tables go. */
  databaseUrl: string;
  definition: ProjectionDefinition;
}

/**
 * Drops a version's tables and checkpoint, and forgets it as retired or building. Only while holding
 * the version's subscription lock, the same lock its runners lead with: no runner can be writing
 * those tables meanwhile. False when a runner (another worker, another rebuild) still holds it.
 */
export async function discardVersion(options: VersionCleanupOptions, version: number): Promise<boolean> {
  const { definition } = options;
  const subscriptionId = projectionSubscriptionId(definition.name, version);
  const session = openLockSession(options.databaseUrl);
  session.on('error', () => {});
  await session.connect();
  try {
    if (!(await tryLockSubscription(session, subscriptionId))) return false;
    const client = await options.pool.connect();
    try {
      await client.query('BEGIN');
      // A reader still on the old tables must not make this wait long while it blocks later readers.
      await client.query("SET LOCAL lock_timeout = '5s'");
      const entry = await loadRegistryEntry(client, definition.name, 'FOR UPDATE');
      if (entry?.activeVersion === version) throw new Error(`${definition.name} v${version} is serving`);
      for (const table of Object.values<string>(versionTables(definition, version))) {
        await client.query(`DROP TABLE IF EXISTS ${pg.escapeIdentifier(table)}`);
      }
      await client.query('DELETE FROM es_checkpoints WHERE subscription_id = $1', [subscriptionId]);
      await client.query(
        `UPDATE projection_registry
            SET retired_version = CASE WHEN retired_version = $2 THEN NULL ELSE retired_version END,
                building_code_version = CASE WHEN building_version = $2 THEN NULL ELSE building_code_version END,
                building_version = CASE WHEN building_version = $2 THEN NULL ELSE building_version END,
                updated_at = now()
          WHERE name = $1`,
        [definition.name, version],
      );
      await client.query('COMMIT');
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      if ((error as { code?: string }).code === '55P03') return false; // lock_timeout: retry later
      throw error;
    } finally {
      client.release();
    }
  } finally {
    await session.end().catch(() => {});
  }
}

export type RetiredCleanup = { kind: 'none' } | { kind: 'dropped' | 'in-use'; version: number };

/** Drops the replaced version's tables if no runner still holds it. */
export async function dropRetiredVersion(options: VersionCleanupOptions): Promise<RetiredCleanup> {
  const entry = await loadRegistryEntry(options.pool, options.definition.name);
  const version = entry?.retiredVersion;
  if (version === null || version === undefined) return { kind: 'none' };
  return { kind: (await discardVersion(options, version)) ? 'dropped' : 'in-use', version };
}
