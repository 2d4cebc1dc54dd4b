import type pg from 'pg';
import { findCaseView } from '../../projections/cases/queries.js';
import type { EventStore } from '../eventStore/eventStore.js';
import type { KeyGrant } from '../workspace/keyPolicy.js';
import { isCaseVisibleToKey } from './caseAccess.js';
import type { CaseState } from './caseState.js';
import { loadCase } from './caseStream.js';

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
): Promise<CaseState | undefined> {
  const view = await findCaseView(pool, caseReference).catch((error: unknown) => {
    // Every process installs the projections at start-up, so the view exists; a database that was
    // only migrated (a test, a tool) still answers correctly from the stream alone.
    if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return undefined;
    throw error;
  });
  const loaded = await loadCase(store, caseReference, view?.state ?? null);
  return loaded.state ?? undefined;
}

/** `readCase`, then the key's scope: undefined for a missing case and for one the key may not see alike. */
export async function readCaseForKey(
  pool: Pick<pg.Pool, 'query'>,
  store: EventStore,
  caseReference: string,
  key: KeyGrant & { accountId: string },
): Promise<CaseState | undefined> {
  const state = await readCase(pool, store, caseReference);
  return state && isCaseVisibleToKey(state, key) ? state : undefined;
}
