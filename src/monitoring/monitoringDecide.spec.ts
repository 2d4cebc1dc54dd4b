import { describe, it } from 'vitest';
import { deciderSpecification } from '../../test/support/deciderSpecification.js';
import { decideMonitoring, type MonitoringCommand } from './monitoringDecide.js';
import type { MonitoringConfigCreated, MonitoringEvent } from './monitoringEvents.js';
import { evolveMonitoring, type MaybeMonitoringConfig } from './monitoringState.js';

const given = deciderSpecification<MonitoringCommand, MonitoringEvent, MaybeMonitoringConfig>({
  decide: decideMonitoring,
  evolve: evolveMonitoring,
  initialState: () => null,
});

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const GROUP = '22222222-2222-4222-8222-222222222222';
const OTHER_GROUP = '33333333-3333-4333-8333-333333333333';
const OWNER = '44444444-4444-4444-8444-444444444444';
const COLLEAGUE = '55555555-5555-4555-8555-555555555555';
const ACTOR = { type: 'api_client' as const, id: 'key', displayName: 'key' };
const NOW = '2026-11-26T10:00:00.000Z';
const SUBJECT = {
  subjectReference: 'sub_0123456789abcdef01234567',
  type: 'person' as const,
  displayName: 'Ivan Testov',
  countries: [],
  birthDate: null,
  externalReference: null,
  metadata: {},
};

function enroll(fields: Partial<Extract<MonitoringCommand, { type: 'Enroll' }>> = {}): MonitoringCommand {
  return {
    type: 'Enroll',
    monitoringConfigId: 'mon_0123456789abcdef01234567',
    accountId: ACCOUNT,
    groupId: GROUP,
    subject: SUBJECT,
    checkTypes: ['sanctions'],
    ownerUserId: OWNER,
    collaboratorUserIds: undefined,
    status: undefined,
    metadata: undefined,
    screeningProfileId: 'default',
    enrolledFrom: { kind: 'api' },
    groupMemberIds: [OWNER, COLLEAGUE],
    actor: ACTOR,
    now: NOW,
    ...fields,
  };
}

const created: MonitoringConfigCreated = {
  type: 'MonitoringConfigCreated',
  data: {
    monitoringConfigId: 'mon_0123456789abcdef01234567',
    accountId: ACCOUNT,
    groupId: GROUP,
    subject: SUBJECT,
    checkTypes: ['sanctions'],
    ownerUserId: OWNER,
    collaboratorUserIds: [],
    status: 'active',
    metadata: {},
    screeningProfileId: 'default',
    enrolledFrom: { kind: 'api' },
    actor: ACTOR,
    occurredAt: '2026-11-25T10:00:00.000Z',
  },
};

describe('decideMonitoring', () => {
  it('creates a configuration, active unless told, with no collaborators unless told', () => {
    given([])
      .when(enroll())
      .then([{ ...created, data: { ...created.data, occurredAt: NOW } }]);
  });

  it('refuses an owner or collaborator outside the group, naming them', () => {
    given([])
      .when(enroll({ collaboratorUserIds: [COLLEAGUE, '66666666-6666-4666-8666-666666666666'] }))
      .thenRejects('unprocessable', /members of the selected group/);
  });

  it('updates only what an enrollment of the same subject and group changes', () => {
    given([created])
      .when(enroll({ checkTypes: ['pep', 'sanctions'], ownerUserId: null, status: 'active' }))
      .then([
        {
          type: 'MonitoringConfigUpdated',
          data: { changes: { checkTypes: ['pep', 'sanctions'] }, actor: ACTOR, occurredAt: NOW },
        },
      ]);
    given([created])
      .when(enroll({ checkTypes: ['sanctions'] }))
      .thenNothingHappens();
  });

  it('checks the people kept against the group a configuration moves to', () => {
    const move = (groupMemberIds: string[]): MonitoringCommand => ({
      type: 'Update',
      changes: { groupId: OTHER_GROUP },
      groupMemberIds,
      actor: ACTOR,
      now: NOW,
    });
    given([created])
      .when(move([]))
      .thenRejects('unprocessable', /members/);
    given([created])
      .when(move([OWNER]))
      .then([
        {
          type: 'MonitoringConfigUpdated',
          data: { changes: { groupId: OTHER_GROUP }, actor: ACTOR, occurredAt: NOW },
        },
      ]);
  });

  it('records a run only on the revision it was evaluated on', () => {
    const started: MonitoringEvent = {
      type: 'MonitoringRunStarted',
      data: { runId: 'run_1', trigger: { kind: 'schedule' }, checkTypes: ['sanctions'], occurredAt: NOW },
    };
    given([created])
      .when({ type: 'RecordRun', basedOnRevision: 0, events: [started] })
      .then([started]);
    given([created, started])
      .when({ type: 'RecordRun', basedOnRevision: 0, events: [started] })
      .thenRejects('conflict', /changed while the run screened/);
  });

  it('records a follow-up case once, for a run that requested one', () => {
    const requested: MonitoringEvent = {
      type: 'FollowUpCaseRequested',
      data: { runId: 'run_1', alertIds: ['alt_1'], occurredAt: NOW },
    };
    const recorded: MonitoringEvent = {
      type: 'FollowUpCaseCreated',
      data: { runId: 'run_1', alertIds: ['alt_1'], caseReference: 'ABC123456', occurredAt: NOW },
    };
    const command: MonitoringCommand = {
      type: 'RecordFollowUpCase',
      runId: 'run_1',
      caseReference: 'ABC123456',
      now: NOW,
    };
    given([created, requested]).when(command).then([recorded]);
    given([created, requested, recorded]).when(command).thenNothingHappens();
    given([created]).when(command).thenNothingHappens();
  });

  it('knows no configuration before it is created', () => {
    given([])
      .when({ type: 'Update', changes: { status: 'paused' }, groupMemberIds: [], actor: ACTOR, now: NOW })
      .thenRejects('not_found', /no such monitoring configuration/);
  });
});
