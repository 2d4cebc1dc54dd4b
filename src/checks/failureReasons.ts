import { isTransientDatabaseError } from '../subscriptions/failurePolicy.js';

/**
 * The `failure_reason` of a check that could not be screened, as callers read it: a code, a colon,
 * a sentence. The reasons of `source_unavailable` (missing or stale lists) are made where the plan
 * is (screeningPlan.ts). Internal error texts (hosts, SQL) stay in the job's `last_error` and in
 * the logs, not in the case.
 *
 * | Code | When |
 * |---|---|
 * | `source_unavailable` | no current list provides the check type, or one that does is stale |
 * | `unknown_screening_profile` | the case names a profile this service does not have |
 * | `screening_error` | every attempt failed on an error (database, index build, unexpected) |
 * | `worker_lost` | the last attempt's worker stopped responding (its lease expired) |
 */

/** The screening index could not be built (wraps the build's own error as `cause`). */
export class IndexBuildError extends Error {
  override readonly name = 'IndexBuildError';
}

function describeCause(error: unknown): string {
  if (error instanceof IndexBuildError) return 'the screening index could not be built';
  if (isTransientDatabaseError(error) || hasSqlState(error)) return 'the database was unavailable or failed';
  return 'of an unexpected error';
}

function hasSqlState(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

export function screeningErrorReason(error: unknown, attempts: number): string {
  return `screening_error: ${attempts} attempts failed, the last because ${describeCause(error)}; the check was not screened`;
}

export function workerLostReason(attempts: number): string {
  return `worker_lost: the worker screening this check stopped responding (attempt ${attempts} of ${attempts}); the check was not screened`;
}
