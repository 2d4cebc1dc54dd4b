import type { Rejection } from '../../eventSourcing/decision.js';
import { ApiError } from '../../server/errors.js';
import type { ApiKeyRecord } from '../../workspace/apiKeys.js';
import { canSeeGroup } from '../../workspace/keyPolicy.js';
import type { Actor } from '../caseEvents.js';
import type { CaseState, MaybeCase } from '../caseState.js';

/** What the case mutation routes share: the acting key as an actor, visibility, refusals. */

/** The key as the actor of what it records: API clients and agents by key id and name. */
export function keyActor(key: ApiKeyRecord): Actor {
  return { type: key.actorType, id: key.id, displayName: key.name };
}

/** A case the key may see: of its account and in one of its groups. */
export function isVisible(state: MaybeCase, key: ApiKeyRecord): state is CaseState {
  return state !== null && state.accountId === key.accountId && canSeeGroup(key, state.groupId);
}

/**
 * The HTTP answer to a refusal of the domain. `notFound` is the endpoint's one 404: an object in
 * another group or account, a missing one and an unknown one all get exactly the same body.
 */
export function rejectionError(rejection: Rejection, notFound: () => ApiError): ApiError {
  switch (rejection.code) {
    case 'not_found':
      return notFound();
    case 'conflict':
      return ApiError.conflict(rejection.message, rejection.details);
    case 'unprocessable':
      return ApiError.unprocessableEntity(rejection.message, rejection.details);
    case 'forbidden':
      return ApiError.forbidden(rejection.message, rejection.details);
    case 'source_unavailable':
      return ApiError.sourceUnavailable(rejection.message, rejection.details);
  }
}

export const caseNotFound = (caseReference: string) => () =>
  ApiError.notFound(`Case ${caseReference} not found.`);
export const checkNotFound = (checkReference: string) => () =>
  ApiError.notFound(`Check ${checkReference} not found.`);
export const matchNotFound = (matchId: string) => () => ApiError.notFound(`Match ${matchId} not found.`);
