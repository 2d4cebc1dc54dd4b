import type pg from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { type CaseCommand, queuedChecks } from '../cases/caseDecide.js';
import { type FoundMatch, SYSTEM_ACTOR } from '../cases/caseEvents.js';
import type { CaseState } from '../cases/caseState.js';
import { runCaseCommand } from '../cases/caseStream.js';
import { candidateCaseReference, checkId, checkReference, matchId } from '../cases/references.js';
import type { EventStore } from '../eventStore/eventStore.js';
import type { CheckType } from '../screening/checkTypes.js';
import { groupMembersAmong } from '../workspace/workspaceStore.js';
import type { MonitoringRunCompleted } from './monitoringEvents.js';
import type { MonitoringConfigState } from './monitoringState.js';

/**
 * The follow-up case of a run (docs/monitoring.md, "Resolution"): a real case, through the case's
 * own rules, of the config's subject in its group, with its owner and collaborators, holding one
 * check per alerted check type completed with every match the run found of that type. Its
 * references and event ids derive from the run, so a run taken over after a crash finds the case
 * it already opened instead of opening a second one.
 */

/** Fixed: other ids on a retry would open a second case. */
const FOLLOW_UP_NAMESPACE = '0b6f7f0e-4c55-4d8e-93a1-5d3c2e7f9a10';
const MAX_REFERENCE_ATTEMPTS = 20;

export const followUpEventId = (runId: string, purpose: string, index: number) =>
  uuidv5(`${runId}:${purpose}:${index}`, FOLLOW_UP_NAMESPACE);

export async function openFollowUpCase(
  deps: { pool: pg.Pool; store: EventStore },
  input: {
    config: MonitoringConfigState;
    run: MonitoringRunCompleted['data'];
    alertIds: string[];
    alertedTypes: CheckType[];
    now: string;
  },
): Promise<CaseState> {
  const { config, run } = input;
  const named = [...(config.ownerUserId ? [config.ownerUserId] : []), ...config.collaboratorUserIds];
  // People who left the group since enrollment are left off rather than block the case.
  const members = await groupMembersAmong(deps.pool, config.groupId, named);
  const isMember = (id: string) => members.includes(id.toLowerCase());
  const types = config.checkTypes.filter((type) => input.alertedTypes.includes(type));
  const eventId = (index: number) => followUpEventId(run.runId, 'case', index);

  const command = (caseReference: string): CaseCommand => {
    const checks = queuedChecks(caseReference, types, { reference: checkReference, id: checkId });
    return {
      type: 'OpenFollowUpCase',
      now: input.now,
      groupMemberIds: members,
      caseReference,
      accountId: config.accountId,
      groupId: config.groupId,
      subject: {
        subjectReference: run.subject.subjectReference,
        type: run.subject.type,
        displayName: run.subject.displayName,
        countries: run.subject.countries,
        birthDate: run.subject.birthDate,
        externalReference: run.subject.externalReference,
        metadata: run.subject.metadata,
      },
      ownerUserId: config.ownerUserId && isMember(config.ownerUserId) ? config.ownerUserId : null,
      collaboratorUserIds: config.collaboratorUserIds.filter(isMember),
      externalReference: run.subject.externalReference,
      notes: `Opened by monitoring run ${run.runId}: ${run.resultSummary}`,
      metadata: { monitoring_config_id: config.monitoringConfigId, monitoring_run_id: run.runId },
      screeningProfileId: run.screeningProfileId,
      checks,
      monitoring: { enable: false, ownerUserId: null, collaboratorUserIds: [] },
      origin: {
        kind: 'monitoring',
        monitoringConfigId: config.monitoringConfigId,
        monitoringRunId: run.runId,
        alertIds: input.alertIds,
      },
      actor: SYSTEM_ACTOR,
      completed: checks.map((check) => ({
        checkReference: check.checkReference,
        attempt: 0,
        screeningProfileId: run.screeningProfileId,
        threshold: run.threshold,
        snapshots: run.snapshots.filter((snapshot) =>
          run.matches.some((m) => m.checkType === check.type && m.match.sourceSnapshotId === snapshot.id),
        ),
        matches: run.matches
          .filter((m) => m.checkType === check.type)
          .map(
            (m, i): FoundMatch => ({
              ...m.match,
              matchId: matchId(check.checkReference, m.match.matchedEntityId),
              rank: i + 1,
            }),
          ),
      })),
    };
  };

  for (let attempt = 0; attempt < MAX_REFERENCE_ATTEMPTS; attempt++) {
    const caseReference = candidateCaseReference('monitoring', run.runId, attempt);
    const outcome = await runCaseCommand(deps.store, caseReference, command(caseReference), eventId);
    if (outcome.ok) return outcome.state;
    // Another case holds this candidate (and not this run's: that would read "applied before").
    if (outcome.rejection.code !== 'conflict') {
      throw new Error(`the follow-up case of run ${run.runId} was refused: ${outcome.rejection.message}`);
    }
  }
  throw new Error(`No free case reference for the follow-up case of run ${run.runId}`);
}
