import { type Rejection, reject } from '../eventSourcing/decision.js';
import { notFoundText } from '../shared/notFound.js';
import type { ApiKeyRecord } from '../workspace/apiKeys.js';
import { canSeeGroup, type KeyGrant } from '../workspace/keyPolicy.js';
import type { User } from '../workspace/workspaceStore.js';
import type { Actor } from './caseEvents.js';
import type { CaseState } from './caseState.js';

/**
 * Who acts on a case, and whether they may see it. A case they may not see is answered exactly as a
 * missing one, so references cannot be probed.
 */
export interface CaseRequester {
  actor: Actor;
  /** Why they may not act on this case (a `not_found`), or undefined when they may. */
  refusal(state: CaseState): Rejection | undefined;
}

const hidden = (state: CaseState, why?: string): Rejection =>
  reject('not_found', why ?? notFoundText('case', state.caseReference)).rejection;

/** The spec's scope rule for keys: a case of another account, or of a group the key cannot see, is not found. */
export function isCaseVisibleToKey(state: CaseState, key: KeyGrant & { accountId: string }): boolean {
  return state.accountId.toLowerCase() === key.accountId.toLowerCase() && canSeeGroup(key, state.groupId);
}

/** An API client or agent, by key: named in the audit trail by key id and name. */
export function keyRequester(key: ApiKeyRecord): CaseRequester {
  return {
    actor: { type: key.actorType, id: key.id, displayName: key.name },
    refusal: (state) => (isCaseVisibleToKey(state, key) ? undefined : hidden(state)),
  };
}

/** A person of the workspace (the operator CLI): sees every case of the account, named by display name, else email. */
export function userRequester(user: Pick<User, 'id' | 'accountId' | 'email' | 'displayName'>): CaseRequester {
  return {
    actor: { type: 'human', id: user.id, displayName: user.displayName ?? user.email },
    refusal: (state) =>
      state.accountId.toLowerCase() === user.accountId.toLowerCase()
        ? undefined
        : hidden(
            state,
            `user ${user.id} is not a user of account ${state.accountId}, which case ${state.caseReference} belongs to`,
          ),
  };
}
