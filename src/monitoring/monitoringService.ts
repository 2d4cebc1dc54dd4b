import type pg from 'pg';
import { findConfigIdsOfSubjectInGroup } from '../../projections/monitoring/queries.js';
import type { Actor } from '../cases/caseEvents.js';
import type { EventIds } from '../eventSourcing/commandHandler.js';
import { type Outcome, type Rejection, reject } from '../eventSourcing/decision.js';
import type { EventStore } from '../eventStore/eventStore.js';
import type { CheckType } from '../screening/checkTypes.js';
import { DEFAULT_PROFILE_ID } from '../screening/scoring/profiles.js';
import type { Clock } from '../shared/clock.js';
import { notFoundText } from '../shared/notFound.js';
import { decideSubject } from '../subjects/subjectDecide.js';
import { SUBJECT_REFERENCE, type SubjectState } from '../subjects/subjectEvents.js';
import { subjectCommandHandler } from '../subjects/subjectStream.js';
import { findGroup, groupMembersAmong } from '../workspace/workspaceStore.js';
import { decideMonitoring, type MonitoringCommand } from './monitoringDecide.js';
import type {
  EnrolledFrom,
  MonitoredSubject,
  MonitoringEvent,
  MonitoringStatus,
} from './monitoringEvents.js';
import { readMonitoringConfig } from './monitoringReadModel.js';
import { monitoringConfigId } from './monitoringReferences.js';
import type { MonitoringConfigState } from './monitoringState.js';
import { monitoringCommandHandler } from './monitoringStream.js';

/**
 * The use cases of monitoring configurations (spec: POST and PATCH /v1/monitoring-configs;
 * docs/monitoring.md), called alike by the HTTP routes and the enrollment of a case created with
 * `monitoring.enable`. Runs are not here: the monitoring worker records them (monitoringRunner.ts).
 */

export interface MonitoringServiceDeps {
  pool: pg.Pool;
  store: EventStore;
  clock: Clock;
}

/** Who enrolls or changes a configuration, and which groups they may see. */
export interface MonitoringRequester {
  accountId: string;
  actor: Actor;
  /** Lower case. */
  visibleGroupIds: readonly string[];
}

export function canSeeConfig(requester: MonitoringRequester, state: MonitoringConfigState): boolean {
  return (
    state.accountId.toLowerCase() === requester.accountId.toLowerCase() &&
    requester.visibleGroupIds.includes(state.groupId.toLowerCase())
  );
}

export interface EnrollInput {
  subjectReference: string;
  /** Visible to the requester; resolved by the caller (the key's default group when the request names none). */
  groupId: string;
  checkTypes: CheckType[];
  /** Undefined or null: keep the owner of an existing configuration, or the default owner of a new one. */
  ownerUserId: string | null | undefined;
  collaboratorUserIds: string[] | undefined;
  status: MonitoringStatus | undefined;
  metadata: Record<string, unknown> | undefined;
  enrolledFrom: EnrolledFrom;
}

export interface ConfigChange {
  state: MonitoringConfigState;
  /** The configuration did not exist before this request. */
  created: boolean;
  appended: MonitoringEvent[];
}

/** Subject events take ids from here on, apart from the configuration's. */
const SUBJECT_EVENT_IDS = 100;

const noConfig = (id: string) => reject('not_found', notFoundText('monitoringConfig', id));

/**
 * Enrolls a subject in a group, or updates its configuration there (the spec's create-or-update).
 * The subject must be one the requester can see; it joins the group (as a case in that group would
 * make it), so the group's keys see what is monitored.
 */
export async function enrollSubject(
  deps: MonitoringServiceDeps,
  requester: MonitoringRequester,
  input: EnrollInput,
  eventId: EventIds,
): Promise<Outcome<ConfigChange>> {
  const now = deps.clock().toISOString();
  const subject = await useSubject(deps, requester, input.subjectReference, input.groupId, now, (i) =>
    eventId(SUBJECT_EVENT_IDS + i),
  );
  if ('code' in subject) return { ok: false, rejection: subject };

  const id = await configIdOf(deps.pool, {
    accountId: requester.accountId,
    subjectReference: subject.subjectReference,
    groupId: input.groupId,
  });
  const existing = await readMonitoringConfig(deps.pool, deps.store, id);
  const ownerUserId =
    input.ownerUserId ?? (existing ? undefined : await defaultOwner(deps.pool, input.groupId));
  const named = [
    ...(ownerUserId ? [ownerUserId] : []),
    ...(input.collaboratorUserIds ?? []),
    ...(existing
      ? [...(existing.ownerUserId ? [existing.ownerUserId] : []), ...existing.collaboratorUserIds]
      : []),
  ];
  const command: MonitoringCommand = {
    type: 'Enroll',
    monitoringConfigId: id,
    accountId: requester.accountId,
    groupId: input.groupId,
    subject: monitoredSubject(subject),
    checkTypes: input.checkTypes,
    ownerUserId,
    collaboratorUserIds: input.collaboratorUserIds,
    status: input.status,
    metadata: input.metadata,
    screeningProfileId: DEFAULT_PROFILE_ID,
    enrolledFrom: input.enrolledFrom,
    groupMemberIds: await groupMembersAmong(deps.pool, input.groupId, named),
    actor: requester.actor,
    now,
  };
  const outcome = await monitoringCommandHandler.handle(
    deps.store,
    id,
    (state) => decideMonitoring(command, state),
    eventId,
  );
  if (!outcome.ok) return outcome;
  if (!outcome.state) throw new Error(`Enrolling ${subject.subjectReference} left no configuration ${id}`);
  const created = outcome.alreadyApplied
    ? outcome.state.revision === 0
    : outcome.appended[0]?.type === 'MonitoringConfigCreated';
  return { ok: true, value: { state: outcome.state, created, appended: outcome.appended } };
}

export interface UpdateInput {
  monitoringConfigId: string;
  checkTypes?: CheckType[];
  /** A group the requester can see (checked here). */
  groupId?: string;
  ownerUserId?: string | null;
  collaboratorUserIds?: string[];
  status?: MonitoringStatus;
  metadata?: Record<string, unknown>;
}

/** PATCH: changes what was sent; a move to another group needs the subject to have no configuration there. */
export async function updateMonitoringConfig(
  deps: MonitoringServiceDeps,
  requester: MonitoringRequester,
  input: UpdateInput,
  eventId: EventIds,
): Promise<Outcome<ConfigChange>> {
  const now = deps.clock().toISOString();
  const { monitoringConfigId: id } = input;
  const existing = await readMonitoringConfig(deps.pool, deps.store, id);
  if (!existing || !canSeeConfig(requester, existing)) return noConfig(id);
  const groupId = input.groupId ?? existing.groupId;
  const moving = groupId.toLowerCase() !== existing.groupId.toLowerCase();
  if (moving) {
    if (
      !requester.visibleGroupIds.includes(groupId.toLowerCase()) ||
      !(await findGroup(deps.pool, groupId))
    ) {
      return reject('not_found', notFoundText('group', groupId));
    }
    const there = await configIdOf(deps.pool, {
      accountId: existing.accountId,
      subjectReference: existing.subject.subjectReference,
      groupId,
    });
    if (
      there !== id &&
      (await readMonitoringConfig(deps.pool, deps.store, there))?.groupId.toLowerCase() ===
        groupId.toLowerCase()
    ) {
      return reject('conflict', `The subject is already monitored in group ${groupId}.`, {
        monitoring_config_id: there,
      });
    }
    const joined = await useSubject(deps, requester, existing.subject.subjectReference, groupId, now, (i) =>
      eventId(SUBJECT_EVENT_IDS + i),
    );
    if ('code' in joined) return { ok: false, rejection: joined };
  }
  const named = [
    ...((input.ownerUserId ?? existing.ownerUserId) ? [input.ownerUserId ?? existing.ownerUserId!] : []),
    ...(input.collaboratorUserIds ?? existing.collaboratorUserIds),
  ];
  const command: MonitoringCommand = {
    type: 'Update',
    changes: {
      ...(input.checkTypes && { checkTypes: input.checkTypes }),
      ...(moving && { groupId }),
      ...(input.ownerUserId !== undefined && { ownerUserId: input.ownerUserId }),
      ...(input.collaboratorUserIds && { collaboratorUserIds: input.collaboratorUserIds }),
      ...(input.status && { status: input.status }),
      ...(input.metadata && { metadata: input.metadata }),
    },
    groupMemberIds: await groupMembersAmong(deps.pool, groupId, named),
    actor: requester.actor,
    now,
  };
  const outcome = await monitoringCommandHandler.handle(
    deps.store,
    id,
    (state) => {
      // Decided again on the stream as it is now: it may have moved out of the requester's sight.
      if (!state || !canSeeConfig(requester, state)) return noConfig(id);
      return decideMonitoring(command, state);
    },
    eventId,
  );
  if (!outcome.ok) return outcome;
  if (!outcome.state) throw new Error(`Updating ${id} left no configuration`);
  return { ok: true, value: { state: outcome.state, created: false, appended: outcome.appended } };
}

/** The configuration the requester may see, or undefined (a missing one and a hidden one alike). */
export async function findConfigForRequester(
  deps: Pick<MonitoringServiceDeps, 'pool' | 'store'>,
  requester: MonitoringRequester,
  monitoringConfigId: string,
): Promise<MonitoringConfigState | undefined> {
  const state = await readMonitoringConfig(deps.pool, deps.store, monitoringConfigId);
  return state && canSeeConfig(requester, state) ? state : undefined;
}

/**
 * The subject, seen by the requester, joining the group when it is new there (SubjectUsedInGroup);
 * a subject the requester cannot see is not found, like a missing one.
 */
async function useSubject(
  deps: MonitoringServiceDeps,
  requester: MonitoringRequester,
  subjectReference: string,
  groupId: string,
  now: string,
  eventId: EventIds,
): Promise<SubjectState | Rejection> {
  const notFound = reject('not_found', notFoundText('subject', subjectReference)).rejection;
  if (!SUBJECT_REFERENCE.test(subjectReference)) return notFound;
  const outcome = await subjectCommandHandler.handle(
    deps.store,
    subjectReference,
    (state) =>
      decideSubject(
        {
          type: 'UseSubject',
          subjectReference,
          accountId: requester.accountId,
          named: true,
          groupId,
          visibleGroupIds: requester.visibleGroupIds,
          sent: {},
          now,
        },
        state,
      ),
    eventId,
  );
  if (!outcome.ok) return outcome.rejection;
  return outcome.state ?? notFound;
}

/** The configuration of the subject in the group: one moved there, else the one created there. */
async function configIdOf(
  pool: pg.Pool,
  scope: { accountId: string; subjectReference: string; groupId: string },
): Promise<string> {
  const [moved] = await findConfigIdsOfSubjectInGroup(pool, scope).catch((error: unknown) => {
    // A database only migrated has no read model: no configuration was moved anywhere.
    if ((error as { code?: unknown }).code === '42P01') return [];
    throw error;
  });
  return moved ?? monitoringConfigId(scope.accountId, scope.subjectReference, scope.groupId);
}

/**
 * The owner of a configuration enrolled without one: the group's longest-standing member
 * (docs/monitoring.md, "Owner"), null for a group without members.
 */
async function defaultOwner(pool: pg.Pool, groupId: string): Promise<string | null> {
  const { rows } = await pool.query<{ user_id: string }>(
    'SELECT user_id FROM group_memberships WHERE group_id = $1 ORDER BY created_at, user_id LIMIT 1',
    [groupId],
  );
  return rows[0]?.user_id ?? null;
}

export function monitoredSubject(subject: SubjectState): MonitoredSubject {
  return {
    subjectReference: subject.subjectReference,
    type: subject.type,
    displayName: subject.displayName,
    countries: subject.countries,
    birthDate: subject.birthDate,
    externalReference: subject.externalReference,
    metadata: subject.metadata,
  };
}
