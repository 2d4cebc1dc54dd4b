import { describe, expect, it } from 'vitest';
import {
  canRecordFinalDecision,
  canSeeGroup,
  finalDecisionProblem,
  hasScope,
  type KeyGrant,
  keyStatus,
  parseGroupList,
  parseScopeList,
  SCOPES,
} from './keyPolicy.js';

const GROUP_A = '6f1c2a9e-8a4b-4c1e-9f3e-0a1b2c3d4e5f';
const GROUP_B = '0b0c0d0e-1111-4222-8333-444455556666';

describe('parseScopeList', () => {
  it('expands "all" to the ten scopes of the spec', () => {
    expect(parseScopeList('all')).toEqual({ ok: true, value: [...SCOPES] });
    expect(SCOPES).toHaveLength(10);
  });

  it("returns named scopes once each, in the spec's order, ignoring blanks", () => {
    expect(parseScopeList(' checks:read, cases:create,,checks:read ')).toEqual({
      ok: true,
      value: ['cases:create', 'checks:read'],
    });
  });

  it('refuses unknown scopes, naming them and the known ones', () => {
    const result = parseScopeList('cases:read,cases:delete');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/unknown scope "cases:delete"; known: all, cases:create/);
  });

  it('refuses an empty list and "all" mixed with names', () => {
    expect(parseScopeList(' , ')).toEqual({ ok: false, message: 'no scopes given' });
    expect(parseScopeList('all,cases:read').ok).toBe(false);
  });
});

describe('parseGroupList', () => {
  it('defaults to the default group, and knows "all"', () => {
    expect(parseGroupList(undefined)).toEqual({ ok: true, value: { kind: 'default' } });
    expect(parseGroupList('all')).toEqual({ ok: true, value: { kind: 'all' } });
  });

  it('takes group ids, lowercased and without repeats', () => {
    expect(parseGroupList(`${GROUP_A.toUpperCase()},${GROUP_B},${GROUP_A}`)).toEqual({
      ok: true,
      value: { kind: 'ids', ids: [GROUP_A, GROUP_B] },
    });
  });

  it('refuses what is not a group id', () => {
    expect(parseGroupList(`${GROUP_A},sales`)).toEqual({ ok: false, message: 'not a group id: sales' });
    expect(parseGroupList('').ok).toBe(false);
    expect(parseGroupList(`all,${GROUP_A}`).ok).toBe(false);
  });
});

describe('key permissions', () => {
  const client: KeyGrant = {
    scopes: ['cases:read', 'case_decisions:write'],
    actorType: 'api_client',
    finalDecision: true,
    groupIds: [GROUP_A],
  };

  it('forbids the final-decision permission to agents only', () => {
    expect(finalDecisionProblem('agent', true)).toMatch(/agent keys cannot/);
    expect(finalDecisionProblem('agent', false)).toBeUndefined();
    expect(finalDecisionProblem('api_client', true)).toBeUndefined();
  });

  it('needs scope, permission and an API client actor for a final case decision', () => {
    expect(canRecordFinalDecision(client)).toBe(true);
    expect(canRecordFinalDecision({ ...client, finalDecision: false })).toBe(false);
    expect(canRecordFinalDecision({ ...client, scopes: ['cases:read'] })).toBe(false);
    expect(canRecordFinalDecision({ ...client, actorType: 'agent' })).toBe(false);
  });

  it('checks scopes and groups', () => {
    expect(hasScope(client, 'cases:read')).toBe(true);
    expect(hasScope(client, 'cases:create')).toBe(false);
    expect(canSeeGroup(client, GROUP_A.toUpperCase())).toBe(true);
    expect(canSeeGroup(client, GROUP_B)).toBe(false);
  });
});

describe('keyStatus', () => {
  const now = new Date('2030-01-01T00:00:00Z');
  it('is expired from the expiry instant on, and revoked whatever the expiry', () => {
    expect(keyStatus({ revokedAt: null, expiresAt: null }, now)).toBe('active');
    expect(keyStatus({ revokedAt: null, expiresAt: new Date(now.getTime() + 1) }, now)).toBe('active');
    expect(keyStatus({ revokedAt: null, expiresAt: now }, now)).toBe('expired');
    expect(keyStatus({ revokedAt: now, expiresAt: new Date(0) }, now)).toBe('revoked');
  });
});
