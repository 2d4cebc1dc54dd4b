import type pg from 'pg';
import { caseViewsProjection } from '../../projections/cases/caseProjection.js';
import { findCaseView } from '../../projections/cases/queries.js';
import { prepared, runRiderAlone, type StatementRider } from '../db/sql.js';
import type { EventStore } from '../eventStore/eventStore.js';
import { eventsOfStreamTail, streamTailJson } from '../eventStore/postgres/postgresEventStore.js';
import type { KeyGrant } from '../workspace/keyPolicy.js';
import { isCaseVisibleToKey } from './caseAccess.js';
import type { CaseState, MaybeCase } from './caseState.js';
import { caseStream, loadCase } from './caseStream.js';

/**
 * Reading a case for the API, read-your-writes (docs/case-read-model.md): the `case_views` row,
 * then whatever its stream holds past that row's revision, folded with the same `evolve`. The row
 * saves folding the whole stream; the catch-up makes the answer as fresh as the stream, whether or
 * not a projection runner is keeping up (or running at all). Usually the catch-up reads nothing.
 */

const UNDEFINED_TABLE = '42P01';

/** The case's current state, or undefined when no such case exists. */
export async function readCase(
  pool: Pick<pg.Pool, 'query'>,
  store: EventStore,
  caseReference: string,
  rider?: StatementRider<Promise<void>>,
): Promise<CaseState | undefined> {
  if (store.kind === 'postgres') {
    const read = await readInOneStatement(pool, caseReference, rider).catch((error: unknown) => {
      if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return undefined;
      throw error;
    });
    if (read) return read.state ?? undefined;
  }
  // The rider's statement failed with the read, or the event store lives elsewhere.
  if (rider) await runRiderAlone(pool, rider);
  const view = await findCaseView(pool, caseReference).catch((error: unknown) => {
    // Every process installs the projections at start-up, so the view exists; a database that was
    // only migrated (a test, a tool) still answers correctly from the stream alone.
    if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return undefined;
    throw error;
  });
  const loaded = await loadCase(store, caseReference, view?.state ?? null);
  return loaded.state ?? undefined;
}

/**
 * On the PostgreSQL event store, which lives in the read models' database: the `case_views` row and
 * the stream's events past its revision in one statement (one snapshot), folded with the same
 * `evolve`. A row folded by another code version is ignored and the whole stream read instead.
 */
async function readInOneStatement(
  pool: Pick<pg.Pool, 'query'>,
  caseReference: string,
  rider: StatementRider<Promise<void>> | undefined,
): Promise<{ state: MaybeCase }> {
  const $ = (n: number) => `$${n + (rider?.params.length ?? 0)}`;
  const { rows } = await pool.query<{
    state: CaseState | null;
    tail: Parameters<typeof eventsOfStreamTail>[0];
  }>(
    prepared(
      `${rider ? `WITH ${rider.with}` : ''}
     SELECT ${rider ? `${rider.columns},` : ''} v.state,
            ${streamTailJson(`'case-' || ${$(1)}`, 'coalesce(v.revision, -1)')} AS tail
       FROM ${rider ? `${rider.from},` : ''} (SELECT 1) one
       LEFT JOIN (SELECT c.state, c.revision FROM case_views c
                    JOIN projection_registry r ON r.name = ${$(2)} AND r.active_code_version = ${$(3)}
                   WHERE c.case_reference = ${$(1)}) v ON true`,
      [...(rider?.params ?? []), caseReference, caseViewsProjection.name, caseViewsProjection.version],
    ),
  );
  const row = rows[0]!;
  await rider?.settle(row);
  const state = eventsOfStreamTail(row.tail).reduce<MaybeCase>(
    (folded, recorded) => caseStream.evolve(folded, caseStream.toEvent(recorded)),
    row.state,
  );
  return { state };
}

/** `readCase`, then the key's scope: undefined for a missing case and for one the key may not see alike. */
export async function readCaseForKey(
  pool: Pick<pg.Pool, 'query'>,
  store: EventStore,
  caseReference: string,
  key: KeyGrant & { accountId: string },
  rider?: StatementRider<Promise<void>>,
): Promise<CaseState | undefined> {
  const state = await readCase(pool, store, caseReference, rider);
  return state && isCaseVisibleToKey(state, key) ? state : undefined;
}
