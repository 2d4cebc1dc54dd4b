import { describe, expect, it } from 'vitest';
import {
  ALICE,
  addMaterial,
  CASE_REF,
  complete as completeCheck,
  createCase,
  decideCheck,
  failCheck,
  found,
  GROUP_A as GROUP,
  KEY_ID,
  key,
  OWNER,
  PEP,
  REVIEWER,
  review,
  run,
  SANCTIONS,
  start,
  at as t,
} from '../../../test/support/caseBuilders.js';
import type { CaseCommand } from '../caseDecide.js';
import type { Actor, FoundMatch } from '../caseEvents.js';
import { findCheck } from '../caseState.js';
import { checkId } from '../references.js';
import { actorLabel, caseResource, checkResource, matchResource, materialResource } from './caseResources.js';
import { Case, CaseMaterial, Check, Match } from './caseSchemas.js';

const CLIENT: Actor = { type: 'api_client', id: KEY_ID, displayName: 'CRM integration' };

/** A match with all its evidence: name and birth date on the OFAC list. */
const evidenced = (entityId: string, score: number) =>
  found(SANCTIONS, entityId, {
    score,
    matchType: 'name_and_birth_date',
    reason: { scored: [{ feature: 'name', value: 0.9 }] },
    sources: [{ name: 'OFAC SDN', url: 'https://ofac.example/1', dataset: 'us_ofac_sdn', priority: 1 }],
    sourceRecordRef: 'SDN-1',
    supportingFields: { birth_date: '1950-07-09' },
  });
const M1 = evidenced('ofac:1', 0.82);
const M2 = evidenced('un:2', 0.95);

const created = () =>
  run(null, createCase({ externalReference: 'onboarding-7', metadata: { channel: 'web' }, actor: CLIENT }));

/** The second attempt of a check completes at minute `m`. */
const complete = (check: string, matches: FoundMatch[], m: number): CaseCommand =>
  completeCheck(check, matches, {
    attempt: 2,
    snapshots: [{ id: 'snap-1', dataset: 'us_ofac_sdn', version: 4 }],
    now: t(m),
  });

/** A decided case: sanctions found two matches (one confirmed, decided fail), pep found none. */
const decided = () =>
  run(
    created(),
    start(SANCTIONS, 1, { now: t(1) }),
    complete(SANCTIONS, [M1, M2], 2),
    complete(PEP, [], 3),
    review(M1.matchId, 'confirmed_match', 'checked the DOB', { now: t(4) }),
    review(M2.matchId, 'not_relevant', 'checked the DOB', { now: t(5) }),
    decideCheck(SANCTIONS, 'fail', 'reviewed', { now: t(6) }),
    { type: 'DecideCase', decision: 'fail', notes: 'Sanctioned party', actor: CLIENT, now: t(7) },
    addMaterial({ now: t(20) }),
  );

describe('caseResource', () => {
  it('renders a new case that passes the Case schema', () => {
    const resource = caseResource(created(), key());
    expect(() => Case.parse(resource)).not.toThrow();
    expect(resource).toMatchObject({
      case_reference: CASE_REF,
      subject: {
        subject_reference: 'sub_0123456789abcdef01234567',
        type: 'person',
        display_name: 'Viktor Yanukovych',
        countries: ['UA'],
        birth_date: { year: 1950, month: 7, day: 9 },
        external_reference: 'crm-42',
        metadata: { segment: 'private' },
      },
      group_id: GROUP,
      owner_user_id: OWNER,
      collaborator_user_ids: [ALICE],
      decision: 'pending_decision',
      decision_notes: null,
      resolved_by: null,
      resolved_at: null,
      external_reference: 'onboarding-7',
      metadata: { channel: 'web' },
      materials: [],
      created_by_actor: { type: 'api_client', id: KEY_ID, display_name: 'CRM integration' },
      created_at: t(0),
      updated_at: t(0),
      allowed_actions: ['add_material'],
      recommended_next_actions: ['wait_for_checks'],
      requires_human_review: true,
    });
    expect(resource.checks.map((c) => [c.check_reference, c.type, c.lifecycle_status, c.decision])).toEqual([
      [SANCTIONS, 'sanctions', 'queued', 'pending_review'],
      [PEP, 'pep', 'queued', 'pending_review'],
    ]);
  });

  it('renders a decided case that passes the Case schema, resolved_by naming the actor', () => {
    const resource = caseResource(decided(), key());
    expect(() => Case.parse(resource)).not.toThrow();
    expect(resource).toMatchObject({
      decision: 'fail',
      decision_notes: 'Sanctioned party',
      resolved_by: `api_client:${KEY_ID}`,
      resolved_at: t(7),
      updated_at: t(20),
      requires_human_review: true,
    });
    expect(resource.materials).toHaveLength(1);
  });

  it('reads differently to an agent', () => {
    const state = run(created(), complete(SANCTIONS, [], 1), complete(PEP, [], 2));
    const agent = key({ actorType: 'agent', finalDecision: false });
    expect(caseResource(state, key()).recommended_next_actions).toEqual(['record_case_decision']);
    expect(caseResource(state, agent).recommended_next_actions).toEqual(['escalate_to_human']);
    expect(caseResource(state, agent).allowed_actions).not.toContain('record_case_decision');
    expect(caseResource(state, key()).requires_human_review).toBe(false);
  });
});

describe('checkResource', () => {
  it('renders a queued check with a short result summary', () => {
    const state = created();
    const resource = checkResource(state, findCheck(state, SANCTIONS)!, key());
    expect(() => Check.parse(resource)).not.toThrow();
    expect(resource).toMatchObject({
      check_reference: SANCTIONS,
      id: checkId(SANCTIONS),
      match_count: 0,
      top_score: null,
      case_reference: CASE_REF,
      subject_reference: 'sub_0123456789abcdef01234567',
      decided_by: null,
      started_at: null,
      checked_at: null,
      failure_reason: null,
      result_summary: { screening_profile_id: 'default', attempts: 0 },
      matches: [],
      blocking_items: ['check_queued'],
      recommended_next_actions: ['wait_for_checks'],
    });
  });

  it('renders a decided check: decided_by names the reviewer, top_score is the best match', () => {
    const state = decided();
    const resource = checkResource(state, findCheck(state, SANCTIONS)!, key());
    expect(() => Check.parse(resource)).not.toThrow();
    expect(resource).toMatchObject({
      lifecycle_status: 'completed',
      decision: 'fail',
      decision_notes: 'reviewed',
      decided_at: t(6),
      decided_by: `human:${ALICE}`,
      match_count: 2,
      top_score: 0.95,
      started_at: t(1),
      checked_at: t(2),
      result_summary: {
        screening_profile_id: 'default',
        threshold: 0.7,
        source_snapshots: [{ id: 'snap-1', dataset: 'us_ofac_sdn', version: 4 }],
        match_count: 2,
        top_score: 0.95,
        attempts: 2,
      },
      blocking_items: [],
    });
  });

  it('takes the best score as top_score, wherever the match is ranked', () => {
    const state = run(created(), complete(SANCTIONS, [M2, M1], 2));
    const resource = checkResource(state, findCheck(state, SANCTIONS)!, key());
    expect(resource.top_score).toBe(0.95);
    expect(resource.result_summary).toMatchObject({ top_score: 0.95, match_count: 2 });
  });

  it('renders a check without matches with a null top score', () => {
    const state = decided();
    const resource = checkResource(state, findCheck(state, PEP)!, key());
    expect(resource).toMatchObject({
      decision: 'no_matches_found',
      match_count: 0,
      top_score: null,
      result_summary: { match_count: 0, top_score: null },
    });
  });

  it('renders a failed check with its reason', () => {
    const state = run(created(), failCheck(PEP, 'source unavailable', { now: t(9) }));
    const resource = checkResource(state, findCheck(state, PEP)!, key());
    expect(() => Check.parse(resource)).not.toThrow();
    expect(resource).toMatchObject({
      lifecycle_status: 'failed',
      decision: 'pending_review',
      failure_reason: 'source unavailable',
      checked_at: t(9),
      result_summary: { screening_profile_id: 'default', attempts: 3 },
      blocking_items: ['check_failed'],
      recommended_next_actions: ['investigate_failed_check'],
    });
    expect(resource.result_summary).not.toHaveProperty('match_count');
  });
});

describe('matchResource', () => {
  it('renders an unreviewed match with an empty review', () => {
    const state = run(created(), complete(SANCTIONS, [M1], 2));
    const resource = matchResource(findCheck(state, SANCTIONS)!.matches[0]!);
    expect(() => Match.parse(resource)).not.toThrow();
    expect(resource).toEqual({
      match_id: M1.matchId,
      rank: 1,
      display_name: 'Viktor Yanukovych',
      review_status: 'pending_review',
      score: 0.82,
      matched_entity_id: 'ofac:1',
      match_type: 'name_and_birth_date',
      reason: M1.reason,
      sources: M1.sources,
      source_record_ref: 'SDN-1',
      source_snapshot_id: 'snap-1',
      supporting_fields: { birth_date: '1950-07-09' },
      review: {},
      created_at: t(2),
    });
  });

  it('renders the latest review with its reviewer', () => {
    const resource = matchResource(findCheck(decided(), SANCTIONS)!.matches[0]!);
    expect(() => Match.parse(resource)).not.toThrow();
    expect(resource.review_status).toBe('confirmed_match');
    expect(resource.review).toEqual({
      status: 'confirmed_match',
      note: 'checked the DOB',
      reviewed_by: { type: 'human', id: ALICE, display_name: 'Alice Reviewer' },
      reviewed_at: t(4),
    });
  });
});

describe('materialResource', () => {
  it('renders a mixed material available at once, case-wide', () => {
    const state = decided();
    const resource = materialResource(state, state.materials[0]!);
    expect(() => CaseMaterial.parse(resource)).not.toThrow();
    expect(resource).toEqual({
      material_id: 'material_0123456789abcdef01234567',
      case_reference: CASE_REF,
      type: 'mixed',
      status: 'available',
      title: 'Registry extract',
      attachments: [],
      created_at: t(20),
      updated_at: t(20),
      group_id: GROUP,
      note: 'Director since 2019',
      url: 'https://example.org/extract',
      check_id: null,
      created_by_actor: { type: 'human', id: ALICE, display_name: 'Alice Reviewer' },
      finalized_at: t(20),
    });
  });

  it('renders a file material with its attachments available', () => {
    const state = run(
      created(),
      addMaterial({
        note: null,
        url: null,
        now: t(20),
        attachments: [
          {
            attachmentId: 'attachment_0123456789abcdef01234567',
            filename: 'passport.pdf',
            contentType: 'application/pdf',
            byteSize: 4096,
            sha256: 'cd'.repeat(32),
          },
        ],
      }),
    );
    const resource = materialResource(state, state.materials[0]!);
    expect(() => CaseMaterial.parse(resource)).not.toThrow();
    expect(resource.type).toBe('file');
    expect(resource.attachments).toEqual([
      {
        attachment_id: 'attachment_0123456789abcdef01234567',
        filename: 'passport.pdf',
        content_type: 'application/pdf',
        byte_size: 4096,
        status: 'available',
        finalized_at: t(20),
        created_at: t(20),
      },
    ]);
  });
});

describe('actorLabel', () => {
  it('is <actor type>:<actor id>', () => {
    expect(actorLabel(CLIENT)).toBe(`api_client:${KEY_ID}`);
    expect(actorLabel(REVIEWER)).toBe(`human:${ALICE}`);
    expect(actorLabel({ type: 'agent', id: 'k2', displayName: null })).toBe('agent:k2');
  });

  it('is the type alone for an actor without id, and null for none', () => {
    expect(actorLabel({ type: 'system', id: null, displayName: 'Case screening service' })).toBe('system');
    expect(actorLabel(null)).toBeNull();
  });
});
