import pg from 'pg';
import { CASE_CATEGORY } from '../../src/cases/caseEvents.js';
import { toStoredCaseEvent } from '../../src/cases/caseRepository.js';
import { type CaseState, evolve, type MaybeCase } from '../../src/cases/caseState.js';
import type { RecordedEvent } from '../../src/eventStore/eventStore.js';
import type { ProjectionDefinition } from '../projection.js';

/**
 * One row per case: its state as the domain's `evolve` folds it (the one fold; this projection has
 * no rules of its own), with the account and group lifted out for scoped listings. Idempotent by a
 * revision guard: events at or below the stored revision are skipped, so a replayed batch changes
 * nothing. Several events of one case in a batch are folded in order and written once.
 * docs/case-read-model.md describes it, and how the GET endpoints read it.
 */
export const caseViewsProjection: ProjectionDefinition<'case_views'> = {
  name: 'case_views',
  version: 1,
  categories: [CASE_CATEGORY],
  tables: ['case_views'],

  ddl: ({ case_views }) => {
    const table = pg.escapeIdentifier(case_views);
    return `
CREATE TABLE ${table} (
  case_reference text PRIMARY KEY,
  account_id     uuid NOT NULL,
  group_id       uuid NOT NULL,
  revision       bigint NOT NULL,
  state          jsonb NOT NULL,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);
CREATE INDEX ${pg.escapeIdentifier(`${case_views}_account_group`)} ON ${table} (account_id, group_id);`;
  },

  async handle(events, tx, { case_views }) {
    const table = pg.escapeIdentifier(case_views);
    const byCase = eventsByCase(events);
    if (byCase.size === 0) return;

    const { rows } = await tx.query<{ case_reference: string; state: CaseState }>(
      `SELECT case_reference, state FROM ${table} WHERE case_reference = ANY($1::text[])`,
      [[...byCase.keys()]],
    );
    const stored = new Map(rows.map((row) => [row.case_reference, row.state]));

    const changed: CaseState[] = [];
    for (const [caseReference, caseEvents] of byCase) {
      const before = stored.get(caseReference) ?? null;
      const after = foldNew(caseReference, before, caseEvents);
      if (after && after !== before) changed.push(after);
    }
    if (changed.length === 0) return;

    // One statement for the batch. The WHERE repeats the guard, so a row never goes back in time.
    await tx.query(
      `INSERT INTO ${table} AS v (case_reference, account_id, group_id, revision, state, created_at, updated_at)
       SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::bigint[], $5::jsonb[],
                            $6::timestamptz[], $7::timestamptz[])
       ON CONFLICT (case_reference) DO UPDATE
         SET account_id = EXCLUDED.account_id,
             group_id = EXCLUDED.group_id,
             revision = EXCLUDED.revision,
             state = EXCLUDED.state,
             updated_at = EXCLUDED.updated_at
         WHERE v.revision < EXCLUDED.revision`,
      [
        changed.map((state) => state.caseReference),
        changed.map((state) => state.accountId),
        changed.map((state) => state.groupId),
        changed.map((state) => String(state.revision)),
        changed.map((state) => JSON.stringify(state)),
        changed.map((state) => state.createdAt),
        changed.map((state) => state.updatedAt),
      ],
    );
  },
};

/** The case reference of a case stream name (`case-ABC123456`). */
function caseReferenceOfStream(streamName: string): string {
  return streamName.slice(CASE_CATEGORY.length + 1);
}

/** The batch's events per case, each case's in feed order (which is its stream's revision order). */
function eventsByCase(events: readonly RecordedEvent[]): Map<string, RecordedEvent[]> {
  const byCase = new Map<string, RecordedEvent[]>();
  for (const event of events) {
    if (event.category !== CASE_CATEGORY) continue;
    const caseReference = caseReferenceOfStream(event.streamName);
    const list = byCase.get(caseReference);
    if (list) list.push(event);
    else byCase.set(caseReference, [event]);
  }
  return byCase;
}

/**
 * Folds the events past the stored revision into the stored state. An event that is not the next
 * revision is a gap (an event this projection never saw): throwing parks the subscription on it
 * rather than storing a state that silently lacks a fact.
 */
function foldNew(caseReference: string, from: MaybeCase, events: readonly RecordedEvent[]): MaybeCase {
  let state = from;
  for (const recorded of events) {
    const revision = Number(recorded.revision);
    const current = state?.revision ?? -1;
    if (revision <= current) continue;
    if (revision !== current + 1) {
      throw new Error(
        `case_views: ${recorded.streamName} revision ${revision} follows stored revision ${current}; an event is missing`,
      );
    }
    state = evolve(state, toStoredCaseEvent(recorded).event);
    if (state?.caseReference !== caseReference) {
      throw new Error(`case_views: ${recorded.streamName} holds case ${state?.caseReference}`);
    }
  }
  return state;
}
