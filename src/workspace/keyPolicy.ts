/**
 * What an API key may do, as pure rules shared by the key store (creation), the CLI (input) and the
 * HTTP auth layer (each request). The spec's Authentication section is the source.
 */

/** The ten scopes of the spec's endpoint summary, in its order. Migration 0003 repeats this list. */
export const SCOPES = [
  'cases:create',
  'cases:read',
  'case_decisions:write',
  'materials:write',
  'events:read',
  'checks:read',
  'checks:decide',
  'matches:review',
  'monitoring:read',
  'monitoring:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export const ACTOR_TYPES = ['api_client', 'agent'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export type ParsedList<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * `all`, or a comma list of scopes. Returned in the spec's order without duplicates, so equal grants
 * look equal in listings. Unknown names are refused rather than dropped: a typo must not silently
 * produce a key with less (or, after a rename, other) access than the operator meant.
 */
export function parseScopeList(input: string): ParsedList<Scope[]> {
  const names = splitList(input);
  if (names.length === 0) return { ok: false, message: 'no scopes given' };
  if (names.includes('all')) {
    if (names.length > 1) return { ok: false, message: '"all" cannot be combined with other scopes' };
    return { ok: true, value: [...SCOPES] };
  }
  const unknown = names.filter((name) => !isScope(name));
  if (unknown.length > 0) {
    const quoted = unknown.map((name) => `"${name}"`).join(', ');
    return { ok: false, message: `unknown scope ${quoted}; known: all, ${SCOPES.join(', ')}` };
  }
  return { ok: true, value: SCOPES.filter((scope) => names.includes(scope)) };
}

/** Group selection of a new key: the account's default group, every group it has now, or a list. */
export type GroupSelection = { kind: 'default' } | { kind: 'all' } | { kind: 'ids'; ids: string[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseGroupList(input: string | undefined): ParsedList<GroupSelection> {
  if (input === undefined) return { ok: true, value: { kind: 'default' } };
  const items = splitList(input);
  if (items.length === 0) return { ok: false, message: 'no groups given' };
  if (items.includes('all')) {
    if (items.length > 1) return { ok: false, message: '"all" cannot be combined with group ids' };
    return { ok: true, value: { kind: 'all' } };
  }
  const invalid = items.filter((item) => !UUID.test(item));
  if (invalid.length > 0) return { ok: false, message: `not a group id: ${invalid.join(', ')}` };
  return { ok: true, value: { kind: 'ids', ids: [...new Set(items.map((id) => id.toLowerCase()))] } };
}

/** Agents gather evidence and escalate; the final case decision stays with humans or API clients. */
export function finalDecisionProblem(actorType: ActorType, finalDecision: boolean): string | undefined {
  return actorType === 'agent' && finalDecision
    ? 'agent keys cannot have the final-decision permission'
    : undefined;
}

/** The parts of a key record the access rules read. */
export interface KeyGrant {
  scopes: readonly Scope[];
  actorType: ActorType;
  finalDecision: boolean;
  groupIds: readonly string[];
}

export function hasScope(key: KeyGrant, scope: Scope): boolean {
  return key.scopes.includes(scope);
}

/**
 * PATCH /v1/cases/{ref}/decision needs the scope and the permission, and never an agent. The actor
 * check repeats what the database already forbids so that a hand-edited row cannot widen access.
 */
export function canRecordFinalDecision(key: KeyGrant): boolean {
  return key.actorType === 'api_client' && key.finalDecision && hasScope(key, 'case_decisions:write');
}

/** Check decisions, like the case decision, stay with people and API clients: never an agent. */
export function canDecideChecks(key: KeyGrant): boolean {
  return key.actorType !== 'agent' && hasScope(key, 'checks:decide');
}

export function canSeeGroup(key: KeyGrant, groupId: string): boolean {
  return key.groupIds.includes(groupId.toLowerCase());
}

export type KeyStatus = 'active' | 'revoked' | 'expired';

/** Revocation wins over expiry in reports: it is the deliberate act. */
export function keyStatus(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): KeyStatus {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** The non-empty, trimmed items of a comma list. */
export function splitList(input: string): string[] {
  return input
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
