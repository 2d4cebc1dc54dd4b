import type pg from 'pg';
import { caseReferencesOfSubject } from '../../projections/cases/queries.js';
import type { ReviewStatus } from '../cases/caseEvents.js';
import { readCase } from '../cases/caseReadModel.js';
import type { CaseState } from '../cases/caseState.js';
import type { Queryable } from '../db/sql.js';
import type { EventStore } from '../eventStore/eventStore.js';
import type { ListedEntity } from '../screening/model/listedEntity.js';
import { observationOf } from './changeDetection.js';
import type { Observation } from './monitoringEvents.js';
import { matchFingerprint } from './monitoringReferences.js';
import type { CaseEvidence } from './runEvaluation.js';

/**
 * What reviewers have seen of a subject in a group (docs/monitoring.md, "The baseline"): every match
 * its cases there presented, as the party was in the list version the check used, and the reviews.
 * A match presented counts as observed, so enrolling right after a case does not alert it again; a
 * match reviewed `not_relevant` stays quiet unless the party changes materially.
 */
const UNDEFINED_TABLE = '42P01';

export async function caseEvidence(
  deps: { pool: pg.Pool; store: EventStore },
  scope: { accountId: string; groupId: string; subjectReference: string; alsoCase?: string },
): Promise<CaseEvidence> {
  const db = deps.pool;
  const found = await caseReferencesOfSubject(db, scope).catch((error: unknown) => {
    // A database only migrated (a tool, a test) has no read model yet: the enrolling case still counts.
    if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return [];
    throw error;
  });
  // Each case as its stream is now (the read model may lag a check that just completed), and the
  // case that enrolled the subject even when the read model has not seen it yet.
  const references = new Set([...found, ...(scope.alsoCase ? [scope.alsoCase] : [])]);
  const rows: { state: CaseState }[] = [];
  for (const reference of references) {
    const state = await readCase(db, deps.store, reference);
    if (
      state &&
      state.accountId === scope.accountId &&
      state.groupId.toLowerCase() === scope.groupId.toLowerCase() &&
      state.subject.subjectReference === scope.subjectReference
    ) {
      rows.push({ state });
    }
  }
  const shown: {
    fingerprint: string;
    checkType: CaseState['checks'][number]['type'];
    entityId: string;
    snapshotId: string | null;
    score: number;
  }[] = [];
  const reviews = new Map<string, ReviewStatus>();
  for (const { state } of rows) {
    for (const check of state.checks) {
      for (const match of check.matches) {
        const fingerprint = matchFingerprint(check.type, match.matchedEntityId);
        shown.push({
          fingerprint,
          checkType: check.type,
          entityId: match.matchedEntityId,
          snapshotId: match.sourceSnapshotId,
          score: match.score,
        });
        reviews.set(fingerprint, strongerReview(reviews.get(fingerprint), match.reviewStatus));
      }
    }
  }
  const entities = await presentedEntities(db, shown);
  const presented = new Map<string, Observation>();
  for (const item of shown) {
    const entity = item.snapshotId ? entities.get(`${item.snapshotId}\n${item.entityId}`) : undefined;
    // A list version no longer stored: the party counts as seen, as it is now (see runEvaluation).
    if (!entity) continue;
    presented.set(item.fingerprint, observationOf(item.checkType, entity, item.snapshotId, item.score, true));
  }
  const seenWithoutFacts = new Set(shown.map((item) => item.fingerprint).filter((fp) => !presented.has(fp)));
  return { presented, reviews, seenWithoutFacts };
}

/** A confirmed match anywhere outweighs a dismissal elsewhere; a dismissal outweighs a pending one. */
function strongerReview(a: ReviewStatus | undefined, b: ReviewStatus): ReviewStatus {
  const rank: Record<ReviewStatus, number> = { pending_review: 0, not_relevant: 1, confirmed_match: 2 };
  return a === undefined || rank[b] > rank[a] ? b : a;
}

async function presentedEntities(
  db: Queryable,
  shown: readonly { snapshotId: string | null; entityId: string }[],
): Promise<Map<string, ListedEntity>> {
  const pairs = shown.filter((item) => item.snapshotId !== null);
  if (pairs.length === 0) return new Map();
  const { rows } = await db.query<{ snapshot_id: string; entity_id: string; entity: ListedEntity }>(
    `SELECT e.snapshot_id, e.entity_id, e.entity
       FROM unnest($1::text[], $2::text[]) AS p(snapshot_id, entity_id)
       JOIN source_snapshot_entities e ON e.snapshot_id = p.snapshot_id AND e.entity_id = p.entity_id`,
    [pairs.map((item) => item.snapshotId), pairs.map((item) => item.entityId)],
  );
  return new Map(rows.map((row) => [`${row.snapshot_id}\n${row.entity_id}`, row.entity]));
}
