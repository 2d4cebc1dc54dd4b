import { describe, expect, it } from 'vitest';
import {
  CASE_REF,
  SANCTIONS as CHECK,
  CLIENT,
  caseCreated,
  caseSubject,
  found,
  GROUP_A,
  GROUP_B,
  REVIEWER as HUMAN,
  OTHER_KEY_ID,
  NOW as T,
  ALICE as USER,
} from '../../test/support/caseBuilders.js';
import {
  type Actor,
  CASE_EVENT_TYPES,
  type CaseEvent,
  type CaseEventType,
  type MaterialAdded,
  type MaterialType,
  SYSTEM_ACTOR,
} from './caseEvents.js';
import {
  actorResource,
  caseEventResources,
  PUBLIC_CASE_EVENT_TYPES,
  type PublicCaseEventType,
  type StoredCaseEvent,
  visibleForm,
} from './caseEventView.js';
import { CaseEvent as CaseEventSchema } from './http/caseSchemas.js';
import { matchId } from './references.js';

const MATCH = matchId(CHECK, 'ofac:1');
const AGENT: Actor = { type: 'agent', id: OTHER_KEY_ID, displayName: null };

function material(type: MaterialType, fields: Partial<MaterialAdded['data']> = {}): MaterialAdded {
  return {
    type: 'MaterialAdded',
    data: {
      materialId: 'material_0123456789abcdef01234567',
      type,
      title: 'Registry extract',
      note: type === 'link' ? null : 'Director since 2019',
      url: type === 'note' || type === 'file' ? null : 'https://example.org/extract',
      attachments:
        type === 'file'
          ? [
              {
                attachmentId: 'attachment_0123456789abcdef01234567',
                filename: 'extract.pdf',
                contentType: 'application/pdf',
                byteSize: 2048,
                sha256: 'ab'.repeat(32),
              },
            ]
          : [],
      actor: HUMAN,
      occurredAt: T,
      ...fields,
    },
  };
}

/** One sample of every domain event type. */
const SAMPLES: Record<CaseEventType, CaseEvent> = {
  CaseCreated: caseCreated(
    {
      subject: caseSubject({
        type: 'company',
        displayName: 'Acme Trading Ltd',
        countries: ['GB'],
        birthDate: null,
        externalReference: null,
        metadata: {},
      }),
      ownerUserId: null,
      collaboratorUserIds: [],
      notes: 'Onboarding review',
      monitoring: { enable: true, ownerUserId: null, collaboratorUserIds: [] },
    },
    ['sanctions'],
  ),
  CheckStarted: {
    type: 'CheckStarted',
    data: { checkReference: CHECK, attempt: 1, worker: 'worker-1', occurredAt: T },
  },
  CheckCompleted: {
    type: 'CheckCompleted',
    data: {
      checkReference: CHECK,
      attempt: 1,
      screeningProfileId: 'default',
      threshold: 0.7,
      snapshots: [{ id: 'snap-1', dataset: 'us_ofac_sdn', version: 2 }],
      matches: [],
      occurredAt: T,
    },
  },
  CheckFailed: {
    type: 'CheckFailed',
    data: { checkReference: CHECK, attempt: 3, failureReason: 'snapshot stale', occurredAt: T },
  },
  MatchReviewed: {
    type: 'MatchReviewed',
    data: {
      checkReference: CHECK,
      matchId: MATCH,
      reviewStatus: 'confirmed_match',
      previousStatus: 'not_relevant',
      note: 'Same date of birth',
      withdrawsCheckDecision: 'pass',
      actor: AGENT,
      occurredAt: T,
    },
  },
  CheckDecisionRecorded: {
    type: 'CheckDecisionRecorded',
    data: {
      checkReference: CHECK,
      decision: 'fail',
      previousDecision: 'pending_review',
      notes: 'Confirmed on OFAC',
      actor: HUMAN,
      occurredAt: T,
    },
  },
  CheckDecisionWithdrawn: {
    type: 'CheckDecisionWithdrawn',
    data: { checkReference: CHECK, withdrawnDecision: 'pass', cause: 'review changed', occurredAt: T },
  },
  CaseDecisionRecorded: {
    type: 'CaseDecisionRecorded',
    data: {
      decision: 'fail',
      previousDecision: 'pending_decision',
      notes: 'Sanctioned',
      actor: CLIENT,
      occurredAt: T,
    },
  },
  CaseReviewStarted: { type: 'CaseReviewStarted', data: { actor: AGENT, occurredAt: T } },
  CaseReopened: {
    type: 'CaseReopened',
    data: { previousDecision: 'pass', cause: `check ${CHECK} decision changed`, actor: HUMAN, occurredAt: T },
  },
  MaterialAdded: material('note'),
  CaseGroupChanged: {
    type: 'CaseGroupChanged',
    data: { groupId: GROUP_B, previousGroupId: GROUP_A, actor: HUMAN, occurredAt: T },
  },
  CaseOwnerChanged: {
    type: 'CaseOwnerChanged',
    data: { ownerUserId: USER, previousOwnerUserId: null, actor: HUMAN, occurredAt: T },
  },
  CaseCollaboratorsAdded: {
    type: 'CaseCollaboratorsAdded',
    data: { userIds: [USER], actor: HUMAN, occurredAt: T },
  },
  CaseCollaboratorsRemoved: {
    type: 'CaseCollaboratorsRemoved',
    data: { userIds: [USER], actor: HUMAN, occurredAt: T },
  },
  CaseExternalReferenceUpdated: {
    type: 'CaseExternalReferenceUpdated',
    data: { externalReference: 'crm-2', previousExternalReference: 'crm-1', actor: HUMAN, occurredAt: T },
  },
  CaseDecisionDraftSaved: {
    type: 'CaseDecisionDraftSaved',
    data: { decision: 'conditional_pass', notes: 'Draft notes', actor: HUMAN, occurredAt: T },
  },
  CaseDecisionReasonSaved: {
    type: 'CaseDecisionReasonSaved',
    data: { reason: 'Enhanced due diligence done', actor: HUMAN, occurredAt: T },
  },
};

/** docs/cases.md, "Case events": the CaseEventType of each domain event; undefined for audit-only ones. */
const EXPECTED: Record<CaseEventType, PublicCaseEventType | undefined> = {
  CaseCreated: 'case_created',
  CheckStarted: undefined,
  CheckCompleted: 'check_completed',
  CheckFailed: 'check_failed',
  MatchReviewed: 'match_disposition_recorded',
  CheckDecisionRecorded: 'check_decision_recorded',
  CheckDecisionWithdrawn: undefined,
  CaseDecisionRecorded: 'case_decision_recorded',
  CaseReviewStarted: 'case_review_started',
  CaseReopened: 'case_reopened',
  MaterialAdded: 'comment_added',
  CaseGroupChanged: 'case_group_changed',
  CaseOwnerChanged: 'case_owner_changed',
  CaseCollaboratorsAdded: 'case_collaborators_added',
  CaseCollaboratorsRemoved: 'case_collaborators_removed',
  CaseExternalReferenceUpdated: 'case_external_reference_updated',
  CaseDecisionDraftSaved: 'case_decision_draft_saved',
  CaseDecisionReasonSaved: 'case_decision_reason_saved',
};

/** A stream as the event store returns it: revisions from 0, one event id each. */
function storedStream(events: CaseEvent[]): StoredCaseEvent[] {
  return events.map((event, revision) => ({
    id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
    revision,
    recordedAt: new Date('2026-06-09T10:00:01.000Z'),
    event,
  }));
}

function completedWith(scores: number[]): CaseEvent {
  const data = (SAMPLES.CheckCompleted as Extract<CaseEvent, { type: 'CheckCompleted' }>).data;
  return {
    type: 'CheckCompleted',
    data: { ...data, matches: scores.map((score, i) => found(CHECK, `ofac:${i}`, { rank: i + 1, score })) },
  };
}

describe('visibleForm: the allowlist', () => {
  it.each(CASE_EVENT_TYPES.map((type) => [type, EXPECTED[type]] as const))('%s -> %s', (type, expected) => {
    expect(visibleForm(SAMPLES[type])?.type).toBe(expected);
  });

  it('hides exactly the audit-only events', () => {
    const hidden = CASE_EVENT_TYPES.filter((type) => visibleForm(SAMPLES[type]) === undefined);
    expect(hidden).toEqual(['CheckStarted', 'CheckDecisionWithdrawn']);
  });

  it('shows every CaseEventType of the API, each from some domain event', () => {
    const shown = new Set([
      ...CASE_EVENT_TYPES.map((type) => visibleForm(SAMPLES[type])?.type),
      visibleForm(material('link'))?.type,
      visibleForm(material('file'))?.type,
    ]);
    expect([...PUBLIC_CASE_EVENT_TYPES].filter((type) => !shown.has(type))).toEqual([]);
  });

  it.each([
    ['note', 'comment_added'],
    ['link', 'case_reference_added'],
    ['mixed', 'case_reference_added'],
    ['file', 'case_attachment_added'],
  ] as const)('shows a %s material as %s', (type, expected) => {
    expect(visibleForm(material(type))?.type).toBe(expected);
  });
});

describe('visibleForm: comments, actors and payloads', () => {
  it.each([
    ['CaseCreated', 'Onboarding review'],
    ['MatchReviewed', 'Same date of birth'],
    ['CheckDecisionRecorded', 'Confirmed on OFAC'],
    ['CaseDecisionRecorded', 'Sanctioned'],
    ['MaterialAdded', 'Director since 2019'],
    ['CaseDecisionDraftSaved', 'Draft notes'],
    ['CaseDecisionReasonSaved', 'Enhanced due diligence done'],
    ['CheckCompleted', null],
    ['CaseGroupChanged', null],
  ] as const)('%s has the comment %j', (type, comment) => {
    expect(visibleForm(SAMPLES[type])?.comment).toBe(comment);
  });

  it('has no comment for a link without a note, and the note of a mixed material', () => {
    expect(visibleForm(material('link'))?.comment).toBeNull();
    expect(visibleForm(material('mixed'))?.comment).toBe('Director since 2019');
  });

  it('credits the check runner to the system and every other event to its actor', () => {
    expect(visibleForm(SAMPLES.CheckCompleted)?.actor).toEqual(SYSTEM_ACTOR);
    expect(visibleForm(SAMPLES.CheckFailed)?.actor).toEqual(SYSTEM_ACTOR);
    expect(visibleForm(SAMPLES.CaseCreated)?.actor).toEqual(CLIENT);
    expect(visibleForm(SAMPLES.MatchReviewed)?.actor).toEqual(AGENT);
    expect(visibleForm(SAMPLES.CaseGroupChanged)?.actor).toEqual(HUMAN);
  });

  it('maps an actor to the API form', () => {
    expect(actorResource(HUMAN)).toEqual({ type: 'human', id: USER, display_name: 'Alice Reviewer' });
    expect(actorResource(SYSTEM_ACTOR)).toEqual({
      type: 'system',
      id: null,
      display_name: 'Case screening service',
    });
  });

  it('says which decision a changed review withdrew', () => {
    expect(visibleForm(SAMPLES.MatchReviewed)?.payload).toEqual({
      check_reference: CHECK,
      match_id: MATCH,
      review_status: 'confirmed_match',
      previous_review_status: 'not_relevant',
      withdrawn_check_decision: 'pass',
    });
  });

  it('reports a completed check with its match count, top score and system decision', () => {
    expect(visibleForm(completedWith([0.72, 0.91]))?.payload).toMatchObject({
      match_count: 2,
      top_score: 0.91,
      decision: 'pending_review',
    });
    expect(visibleForm(SAMPLES.CheckCompleted)?.payload).toEqual({
      check_reference: CHECK,
      match_count: 0,
      top_score: null,
      decision: 'no_matches_found',
      source_snapshot_ids: ['snap-1'],
    });
  });

  it('reports a failure with its reason and attempts', () => {
    expect(visibleForm(SAMPLES.CheckFailed)?.payload).toEqual({
      check_reference: CHECK,
      failure_reason: 'snapshot stale',
      attempts: 3,
    });
  });

  it.each([
    ['CaseCreated', CASE_REF],
    ['CaseCreated', 'Acme Trading Ltd'],
    ['CheckCompleted', CHECK],
    ['CheckFailed', CHECK],
    ['CheckFailed', 'snapshot stale'],
    ['MatchReviewed', MATCH],
    ['CheckDecisionRecorded', CHECK],
    ['CheckDecisionRecorded', 'fail'],
    ['CaseDecisionRecorded', 'fail'],
    ['CaseReopened', CHECK],
    ['MaterialAdded', 'Registry extract'],
    ['CaseDecisionDraftSaved', 'conditional_pass'],
  ] as const)('%s: the summary mentions %s', (type, text) => {
    expect(visibleForm(SAMPLES[type])?.summary).toContain(text);
  });
});

describe('caseEventResources', () => {
  const stream = () =>
    storedStream([
      SAMPLES.CaseCreated,
      SAMPLES.CheckStarted,
      SAMPLES.CheckCompleted,
      SAMPLES.CaseReviewStarted,
      SAMPLES.CheckDecisionWithdrawn,
      SAMPLES.CaseGroupChanged,
      SAMPLES.MaterialAdded,
    ]);

  it('lists the visible events oldest first, with their stream revisions', () => {
    const resources = caseEventResources(stream());
    expect(resources.map((r) => [r.revision, r.event_type])).toEqual([
      [0, 'case_created'],
      [2, 'check_completed'],
      [3, 'case_review_started'],
      [5, 'case_group_changed'],
      [6, 'comment_added'],
    ]);
  });

  it('gives each event the group the case was in when it happened; a move is shown under the old group', () => {
    const groups = caseEventResources(stream()).map((r) => [r.event_type, r.group_id]);
    expect(groups).toEqual([
      ['case_created', GROUP_A],
      ['check_completed', GROUP_A],
      ['case_review_started', GROUP_A],
      ['case_group_changed', GROUP_A],
      ['comment_added', GROUP_B],
    ]);
  });

  it('fills every field of the spec, and passes the CaseEvent schema', () => {
    const events = stream();
    const resources = caseEventResources(events);
    const material = resources[4]!;
    expect(material).toEqual({
      revision: 6,
      event_id: events[6]!.id,
      event_type: 'comment_added',
      object_type: 'case',
      object_reference: CASE_REF,
      case_reference: CASE_REF,
      group_id: GROUP_B,
      actor: { type: 'human', id: USER, display_name: 'Alice Reviewer' },
      summary: expect.stringContaining('Registry extract'),
      payload: {
        material_id: 'material_0123456789abcdef01234567',
        material_type: 'note',
        title: 'Registry extract',
        url: null,
        attachments: [],
      },
      occurred_at: T,
      created_at: '2026-06-09T10:00:01.000Z',
      comment: 'Director since 2019',
    });
    for (const resource of resources) {
      const { revision: _revision, ...body } = resource;
      expect(CaseEventSchema.safeParse(body).success).toBe(true);
    }
  });

  it('renders every visible sample through the schema', () => {
    const all = [
      SAMPLES.CaseCreated,
      ...CASE_EVENT_TYPES.filter((t) => t !== 'CaseCreated').map((t) => SAMPLES[t]),
    ];
    const resources = caseEventResources(storedStream(all));
    expect(resources).toHaveLength(CASE_EVENT_TYPES.length - 2);
    for (const { revision: _revision, ...body } of resources) {
      expect(CaseEventSchema.parse(body)).toBeTruthy();
    }
  });

  it('lists a file material with its attachments, without their checksums', () => {
    const [, file] = caseEventResources(storedStream([SAMPLES.CaseCreated, material('file')]));
    expect(file).toMatchObject({
      event_type: 'case_attachment_added',
      payload: {
        material_type: 'file',
        attachments: [
          {
            attachment_id: 'attachment_0123456789abcdef01234567',
            filename: 'extract.pdf',
            content_type: 'application/pdf',
            byte_size: 2048,
          },
        ],
      },
    });
  });
});
