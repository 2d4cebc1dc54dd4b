import type { CaseState } from '../../src/cases/caseState.js';
import type { Queryable } from '../../src/db/sql.js';
import { caseViewsProjection } from './caseProjection.js';

/** A case as the `case_views` projection last stored it: possibly behind its stream. */
export interface CaseView {
  caseReference: string;
  accountId: string;
  groupId: string;
  /** Stream revision of the last event folded into `state`. */
  revision: number;
  state: CaseState;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  case_reference: string;
  account_id: string;
  group_id: string;
  revision: string;
  state: CaseState;
  created_at: Date;
  updated_at: Date;
}

function toView(row: Row): CaseView {
  return {
    caseReference: row.case_reference,
    accountId: row.account_id,
    groupId: row.group_id,
    revision: Number(row.revision),
    state: row.state,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * The stored row of a case. Reads go through the `case_views` view, which a rebuild re-points at a
 * new table version. Only rows folded by this code's version of the projection are returned: after
 * a deploy that changed `evolve` or the state's shape (and bumped the projection's version), the
 * tables still serving were folded by the old code until an operator rebuilds, and a state of one
 * shape must never be caught up by a fold of another; callers then fold the stream from the start.
 */
export async function findCaseView(db: Queryable, caseReference: string): Promise<CaseView | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT v.* FROM case_views v
       JOIN projection_registry r ON r.name = $2 AND r.active_code_version = $3
      WHERE v.case_reference = $1`,
    [caseReference, caseViewsProjection.name, caseViewsProjection.version],
  );
  return rows[0] && toView(rows[0]);
}

/** The cases of an account in some of its groups, newest first (uses the (account_id, group_id) index). */
export async function listCaseViews(
  db: Queryable,
  scope: { accountId: string; groupIds: readonly string[] },
  options: { limit?: number } = {},
): Promise<CaseView[]> {
  const { rows } = await db.query<Row>(
    `SELECT * FROM case_views WHERE account_id = $1 AND group_id = ANY($2::uuid[])
      ORDER BY created_at DESC, case_reference LIMIT $3`,
    [scope.accountId, [...scope.groupIds], options.limit ?? 100],
  );
  return rows.map(toView);
}

/**
 * The groups of an account's cases that screened a subject. Only for a subject created before
 * subjects recorded their groups (docs/cases.md, "Subjects"): its groups are those of its cases.
 */
export async function groupsOfSubjectCases(
  db: Queryable,
  scope: { accountId: string; subjectReference: string },
): Promise<string[]> {
  const { rows } = await db.query<{ group_id: string }>(
    `SELECT DISTINCT group_id FROM case_views
      WHERE account_id = $1 AND state->'subject'->>'subjectReference' = $2
      ORDER BY group_id`,
    [scope.accountId, scope.subjectReference],
  );
  return rows.map((row) => row.group_id);
}

/** The decision of each of these cases that `case_views` holds (follow-up cases of monitoring). */
export async function caseDecisions(
  db: Queryable,
  caseReferences: readonly string[],
): Promise<Map<string, string>> {
  if (caseReferences.length === 0) return new Map();
  const { rows } = await db.query<{ case_reference: string; decision: string }>(
    `SELECT case_reference, state->>'decision' AS decision FROM case_views
      WHERE case_reference = ANY($1::text[])`,
    [[...new Set(caseReferences)]],
  );
  return new Map(rows.map((row) => [row.case_reference, row.decision]));
}

/** The cases of a subject in one group of an account (monitoring's baseline: what reviewers saw). */
export async function caseReferencesOfSubject(
  db: Queryable,
  scope: { accountId: string; groupId: string; subjectReference: string },
): Promise<string[]> {
  const { rows } = await db.query<{ case_reference: string }>(
    `SELECT case_reference FROM case_views
      WHERE account_id = $1 AND group_id = $2 AND state->'subject'->>'subjectReference' = $3
      ORDER BY created_at, case_reference`,
    [scope.accountId, scope.groupId, scope.subjectReference],
  );
  return rows.map((row) => row.case_reference);
}
