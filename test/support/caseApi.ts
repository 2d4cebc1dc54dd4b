import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { pino } from 'pino';
import { buildApiServer } from '../../src/api/apiServer.js';
import type { CaseCommand } from '../../src/cases/caseDecide.js';
import type { CaseSubject } from '../../src/cases/caseEvents.js';
import type { CaseState } from '../../src/cases/caseState.js';
import { runCaseCommand } from '../../src/cases/caseStream.js';
import type { EventStore } from '../../src/eventStore/eventStore.js';
import { createRateLimiter } from '../../src/rateLimit/rateLimiter.js';
import type { CheckType } from '../../src/screening/checkTypes.js';
import { type Clock, systemClock } from '../../src/shared/clock.js';
import type { Scope } from '../../src/workspace/keyPolicy.js';
import { type CreatedApiKey, createApiKey, type NewApiKey } from '../../src/workspace/keyStore.js';
import {
  addMembership,
  createGroup,
  createUser,
  createWorkspace,
} from '../../src/workspace/workspaceStore.js';
import { type CreateCaseCommand, caseSubject, createCase } from './caseBuilders.js';
import { explicitRevisionsOnly } from './explicitRevisions.js';

/**
 * The setup the case integration specs share: a workspace with groups, users and API keys, the API
 * server on a free port, and cases written through the domain (`runCaseCommand`), as the service
 * and the check runner write them.
 */

export const DAY_MS = 86_400_000;

export interface CaseWorkspace {
  accountId: string;
  defaultGroupId: string;
  /** The groups named in `groups`, in that order. */
  groupIds: string[];
  /** Another account, and its default group: what a key of the account must not see. */
  foreignAccountId: string;
  foreignGroupId: string;
}

/** An account with its default group and the `groups` named, and a foreign account. */
export async function createCaseWorkspace(
  pool: pg.Pool,
  names: { account: string; groups: string[]; foreign: string },
): Promise<CaseWorkspace> {
  const workspace = await createWorkspace(pool, { name: names.account });
  const accountId = workspace.account.id;
  const groupIds: string[] = [];
  for (const name of names.groups) groupIds.push((await createGroup(pool, { accountId, name })).id);
  const foreign = await createWorkspace(pool, { name: names.foreign });
  return {
    accountId,
    defaultGroupId: workspace.defaultGroup.id,
    groupIds,
    foreignAccountId: foreign.account.id,
    foreignGroupId: foreign.defaultGroup.id,
  };
}

/** A user of the account and a member of each of `groupIds`: the user id. */
export async function createMember(
  pool: pg.Pool,
  user: { accountId: string; email: string; displayName?: string | null },
  groupIds: readonly string[],
): Promise<string> {
  const created = await createUser(pool, user);
  for (const groupId of groupIds) await addMembership(pool, { groupId, userId: created.id });
  return created.id;
}

/** An API client key of the account in its default group, without the final decision, unless told otherwise. */
export function createKey(
  pool: pg.Pool,
  accountId: string,
  scopes: readonly Scope[],
  more: Partial<NewApiKey> = {},
): Promise<CreatedApiKey> {
  return createApiKey(pool, {
    accountId,
    scopes: [...scopes],
    actorType: 'api_client',
    finalDecision: false,
    groups: { kind: 'default' },
    expiresAt: null,
    ...more,
  });
}

/**
 * The API server listening on a free local port, logging nothing, sources stale after 14 days
 * unless told otherwise; `rateLimit` replaces the spec's limit (tests making many requests).
 */
export async function startApiServer(deps: {
  pool: pg.Pool;
  store: EventStore;
  sourceStaleAfterMs?: number;
  rateLimit?: number;
  clock?: Clock;
  maxInFlightRequests?: number;
}): Promise<{ app: FastifyInstance; url: string }> {
  const app = buildApiServer({
    logger: pino({ level: 'silent' }),
    readiness: [],
    pool: deps.pool,
    store: explicitRevisionsOnly(deps.store),
    sourceStaleAfterMs: deps.sourceStaleAfterMs ?? 14 * DAY_MS,
    clock: deps.clock ?? systemClock,
    rateLimiter:
      deps.rateLimit === undefined ? undefined : createRateLimiter(deps.pool, { limit: deps.rateLimit }),
    ...(deps.maxInFlightRequests !== undefined && { maxInFlightRequests: deps.maxInFlightRequests }),
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

/** GET `url` with the key as bearer token (none for `null`): the status and the JSON body. */
export async function getJson<T>(
  url: string,
  key: CreatedApiKey | null,
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key.rawKey}` } : {};
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as T };
}

/**
 * Runs a command through the case's rules and appends what they decide, with event ids fresh for
 * this command (the same on its retries); the rules must accept it. The case after it.
 */
export async function runCase(
  store: EventStore,
  caseReference: string,
  command: CaseCommand,
): Promise<CaseState> {
  const ids: string[] = [];
  const outcome = await runCaseCommand(store, caseReference, command, (index) => {
    ids[index] ??= randomUUID();
    return ids[index];
  });
  if (!outcome.ok) throw new Error(`${command.type} refused: ${JSON.stringify(outcome)}`);
  return outcome.state;
}

/** A subject reference of its own for each case a test creates. */
export const freshSubjectReference = () => `sub_${randomUUID().replaceAll('-', '').slice(0, 24)}`;

/**
 * A CreateCase command made now, about a fresh subject with the details given: no owner or
 * collaborators unless told, and a sanctions check unless other `types` are given.
 */
export function createCaseNow(
  fields: Partial<CreateCaseCommand> &
    Pick<CreateCaseCommand, 'caseReference' | 'accountId' | 'groupId' | 'actor'>,
  subject: Partial<CaseSubject>,
  types: readonly CheckType[] = ['sanctions'],
): CreateCaseCommand {
  return createCase(
    {
      now: new Date().toISOString(),
      groupMemberIds: [],
      ownerUserId: null,
      collaboratorUserIds: [],
      ...fields,
      subject: caseSubject({ subjectReference: freshSubjectReference(), ...subject }),
    },
    types,
  );
}
