import type { Outcome, Rejection, RejectionCode } from '../eventSourcing/decision.js';
import { ApiError } from '../server/errors.js';

/** The one table from the domain's rejections to the API's errors. */
const ERROR_OF: Record<Exclude<RejectionCode, 'not_found'>, (rejection: Rejection) => ApiError> = {
  conflict: (r) => ApiError.conflict(r.message, r.details),
  unprocessable: (r) => ApiError.unprocessableEntity(r.message, r.details),
  forbidden: (r) => ApiError.forbidden(r.message, r.details),
  source_unavailable: (r) => ApiError.sourceUnavailable(r.message, r.details),
};

/**
 * The HTTP answer to a rejection. `notFound` is the endpoint's one 404: an object in another group
 * or account, a missing one and an unknown one all get exactly the same body, so references cannot
 * be probed. Without it, the rejection's own message is the 404's.
 */
export function rejectionError(rejection: Rejection, notFound?: () => ApiError): ApiError {
  if (rejection.code === 'not_found') return notFound ? notFound() : ApiError.notFound(rejection.message);
  return ERROR_OF[rejection.code](rejection);
}

/** The value of a use case's outcome, or its rejection thrown as the API's error. */
export function valueOrThrow<T>(outcome: Outcome<T>, notFound?: () => ApiError): T {
  if (!outcome.ok) throw rejectionError(outcome.rejection, notFound);
  return outcome.value;
}
