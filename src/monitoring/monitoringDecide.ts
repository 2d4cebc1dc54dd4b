import { notMembers } from '../cases/caseDecide.js';
import type { Actor } from '../cases/caseEvents.js';
import { accept, type Decision, reject } from '../eventSourcing/decision.js';
import type { CheckType } from '../screening/checkTypes.js';
import type {
  ConfigChanges,
  EnrolledFrom,
  MonitoredSubject,
  MonitoringEvent,
  MonitoringStatus,
} from './monitoringEvents.js';
import type { MaybeMonitoringConfig, MonitoringConfigState } from './monitoringState.js';

/**
 * The rules of a monitoring configuration (docs/monitoring.md). Pure: the members of the selected
 * group and the time come in the command. Runs are decided by the run itself (runEvents.ts) and
 * recorded through `RecordRun`, which only guards that the configuration exists.
 */
export type MonitoringCommand =
  | {
      /** POST /v1/monitoring-configs and `monitoring.enable`: create, or update what was sent. */
      type: 'Enroll';
      monitoringConfigId: string;
      accountId: string;
      groupId: string;
      subject: MonitoredSubject;
      checkTypes: CheckType[];
      /** Undefined: keep (an update) or the default owner (a creation, resolved by the caller). */
      ownerUserId: string | null | undefined;
      collaboratorUserIds: string[] | undefined;
      status: MonitoringStatus | undefined;
      metadata: Record<string, unknown> | undefined;
      screeningProfileId: string;
      enrolledFrom: EnrolledFrom;
      /** Members of the group among the users the command names. */
      groupMemberIds: readonly string[];
      actor: Actor;
      now: string;
    }
  | {
      type: 'Update';
      changes: ConfigChanges;
      /** Members of the group the configuration ends up in, among the users it names. */
      groupMemberIds: readonly string[];
      actor: Actor;
      now: string;
    }
  | {
      /** A run evaluated on the state at `basedOnRevision`: refused when the stream moved on since. */
      type: 'RecordRun';
      basedOnRevision: number;
      events: MonitoringEvent[];
    }
  | { type: 'RecordFollowUpCase'; runId: string; caseReference: string; now: string };

export type MonitoringDecision = Decision<MonitoringEvent>;

export function decideMonitoring(
  command: MonitoringCommand,
  state: MaybeMonitoringConfig,
): MonitoringDecision {
  if (command.type === 'Enroll') return enroll(command, state);
  if (state === null) return reject('not_found', 'no such monitoring configuration');
  switch (command.type) {
    case 'Update':
      return update(command.changes, command, state);
    case 'RecordRun':
      // Another run or a change landed while this one screened: its comparison would be stale.
      if (state.revision !== command.basedOnRevision) {
        return reject('conflict', 'the configuration changed while the run screened');
      }
      return accept(...command.events);
    case 'RecordFollowUpCase': {
      const alertIds = state.followUpsInProgress[command.runId];
      if (!alertIds) return accept();
      return accept({
        type: 'FollowUpCaseCreated',
        data: {
          runId: command.runId,
          alertIds,
          caseReference: command.caseReference,
          occurredAt: command.now,
        },
      });
    }
  }
}

function enroll(
  command: Extract<MonitoringCommand, { type: 'Enroll' }>,
  state: MaybeMonitoringConfig,
): MonitoringDecision {
  if (state !== null) {
    if (state.accountId.toLowerCase() !== command.accountId.toLowerCase()) {
      return reject('not_found', 'no such monitoring configuration');
    }
    // The stream of the subject's id in this group holds a configuration since moved to another
    // group (PATCH): enrolling here must not change it (the requester may not even see that group).
    if (state.groupId.toLowerCase() !== command.groupId.toLowerCase()) {
      return reject(
        'conflict',
        "The subject's monitoring configuration created in this group was moved to another group; move it back with PATCH to monitor the subject here.",
      );
    }
    // Enrolling again updates what the request sent; the group stays (the id is the subject's in it).
    return update(
      {
        checkTypes: command.checkTypes,
        ...(command.ownerUserId != null && { ownerUserId: command.ownerUserId }),
        ...(command.collaboratorUserIds !== undefined && {
          collaboratorUserIds: command.collaboratorUserIds,
        }),
        ...(command.status !== undefined && { status: command.status }),
        ...(command.metadata !== undefined && { metadata: command.metadata }),
      },
      command,
      state,
    );
  }
  const ownerUserId = command.ownerUserId ?? null;
  const collaboratorUserIds = command.collaboratorUserIds ?? [];
  const outsiders = notMembers(
    [...(ownerUserId ? [ownerUserId] : []), ...collaboratorUserIds],
    command.groupMemberIds,
  );
  if (outsiders.length > 0) return notInGroup(command.groupId, outsiders);
  return accept({
    type: 'MonitoringConfigCreated',
    data: {
      monitoringConfigId: command.monitoringConfigId,
      accountId: command.accountId,
      groupId: command.groupId,
      subject: command.subject,
      checkTypes: command.checkTypes,
      ownerUserId,
      collaboratorUserIds,
      status: command.status ?? 'active',
      metadata: command.metadata ?? {},
      screeningProfileId: command.screeningProfileId,
      enrolledFrom: command.enrolledFrom,
      actor: command.actor,
      occurredAt: command.now,
    },
  });
}

/**
 * Only what differs is recorded; a request that changes nothing appends nothing. Owner and
 * collaborators must be members of the group the configuration ends up in, those kept included.
 */
function update(
  requested: ConfigChanges,
  command: { groupMemberIds: readonly string[]; actor: Actor; now: string },
  state: MonitoringConfigState,
): MonitoringDecision {
  const changes = differences(requested, state);
  const after = { ...state, ...changes };
  const touchesPeople =
    changes.groupId !== undefined ||
    changes.ownerUserId !== undefined ||
    changes.collaboratorUserIds !== undefined;
  if (touchesPeople) {
    const named = [...(after.ownerUserId ? [after.ownerUserId] : []), ...after.collaboratorUserIds];
    const outsiders = notMembers(named, command.groupMemberIds);
    if (outsiders.length > 0) return notInGroup(after.groupId, outsiders);
  }
  if (Object.keys(changes).length === 0) return accept();
  return accept({
    type: 'MonitoringConfigUpdated',
    data: { changes, actor: command.actor, occurredAt: command.now },
  });
}

function differences(requested: ConfigChanges, state: MonitoringConfigState): ConfigChanges {
  const changes: ConfigChanges = {};
  if (requested.checkTypes && !sameSet(requested.checkTypes, state.checkTypes))
    changes.checkTypes = requested.checkTypes;
  if (requested.groupId && requested.groupId.toLowerCase() !== state.groupId.toLowerCase()) {
    changes.groupId = requested.groupId;
  }
  if (requested.ownerUserId !== undefined && !sameId(requested.ownerUserId, state.ownerUserId)) {
    changes.ownerUserId = requested.ownerUserId;
  }
  if (
    requested.collaboratorUserIds &&
    !sameSet(requested.collaboratorUserIds.map(lower), state.collaboratorUserIds.map(lower))
  ) {
    changes.collaboratorUserIds = [...new Set(requested.collaboratorUserIds.map(lower))];
  }
  if (requested.status && requested.status !== state.status) changes.status = requested.status;
  if (requested.metadata && JSON.stringify(requested.metadata) !== JSON.stringify(state.metadata)) {
    changes.metadata = requested.metadata;
  }
  return changes;
}

const lower = (id: string) => id.toLowerCase();
const sameId = (a: string | null, b: string | null) => (a ?? '').toLowerCase() === (b ?? '').toLowerCase();
const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

function notInGroup(groupId: string, outsiders: string[]): MonitoringDecision {
  return reject('unprocessable', 'The owner and collaborators must be members of the selected group.', {
    group_id: groupId,
    non_member_user_ids: outsiders,
  });
}
