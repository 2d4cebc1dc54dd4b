import type { CheckType } from '../screening/checkTypes.js';
import type {
  EnrolledFrom,
  MonitoredSubject,
  MonitoringEvent,
  MonitoringResult,
  MonitoringStatus,
  Observation,
  ResolutionStatus,
  RunTrigger,
} from './monitoringEvents.js';

/**
 * The monitoring configuration as its stream folds (the one fold: the command side, the read model
 * and the audit history share it). Runs and alerts themselves are listed from their own read tables
 * (projections/monitoring); the state keeps what the rules need: the observations, the open alerts
 * and the follow-up case being created.
 */
export interface OpenAlert {
  alertId: string;
  runId: string;
  checkType: CheckType;
  actionable: boolean;
  resolutionStatus: ResolutionStatus;
}

export interface LatestRun {
  runId: string;
  trigger: RunTrigger;
  status: 'running' | 'completed' | 'failed' | 'skipped';
  result: 'running' | Exclude<MonitoringResult, 'not_checked'>;
  resultSummary: string | null;
  startedAt: string;
  completedAt: string | null;
}

export interface MonitoringConfigState {
  monitoringConfigId: string;
  accountId: string;
  groupId: string;
  subject: MonitoredSubject;
  checkTypes: CheckType[];
  ownerUserId: string | null;
  collaboratorUserIds: string[];
  status: MonitoringStatus;
  metadata: Record<string, unknown>;
  screeningProfileId: string;
  enrolledFrom: EnrolledFrom;
  createdAt: string;
  updatedAt: string;
  /** By fingerprint. */
  observations: Record<string, Observation>;
  latestRun: LatestRun | null;
  /** Runs started so far. */
  runCount: number;
  latestResult: MonitoringResult;
  latestResultSummary: string | null;
  lastCheckedAt: string | null;
  lastChangeDetectedAt: string | null;
  /** Alerts not yet resolved, by id. */
  openAlerts: Record<string, OpenAlert>;
  /** Runs whose follow-up case was requested and not yet recorded as created. */
  followUpsInProgress: Record<string, string[]>;
  /** Follow-up cases created, oldest first. */
  followUpCaseReferences: string[];
  revision: number;
}

export type MaybeMonitoringConfig = MonitoringConfigState | null;

export function evolveMonitoring(
  state: MaybeMonitoringConfig,
  event: MonitoringEvent,
): MonitoringConfigState {
  if (event.type === 'MonitoringConfigCreated') {
    const { occurredAt, actor: _actor, ...data } = event.data;
    return {
      ...data,
      createdAt: occurredAt,
      updatedAt: occurredAt,
      observations: {},
      latestRun: null,
      runCount: 0,
      latestResult: 'not_checked',
      latestResultSummary: null,
      lastCheckedAt: null,
      lastChangeDetectedAt: null,
      openAlerts: {},
      followUpsInProgress: {},
      followUpCaseReferences: [],
      revision: 0,
    };
  }
  if (state === null) throw new Error(`${event.type} before MonitoringConfigCreated`);
  const next: MonitoringConfigState = { ...state, revision: state.revision + 1 };
  switch (event.type) {
    case 'MonitoringConfigUpdated':
      return { ...next, ...event.data.changes, updatedAt: event.data.occurredAt };
    case 'MonitoringRunStarted': {
      const { runId, trigger, occurredAt } = event.data;
      return {
        ...next,
        runCount: state.runCount + 1,
        latestRun: {
          runId,
          trigger,
          status: 'running',
          result: 'running',
          resultSummary: null,
          startedAt: occurredAt,
          completedAt: null,
        },
      };
    }
    case 'MonitoringRunCompleted': {
      const d = event.data;
      return {
        ...next,
        subject: d.subject,
        observations: Object.fromEntries(d.observations.map((o) => [o.fingerprint, o])),
        latestRun: finishRun(state, d.runId, 'completed', d.result, d.resultSummary, d.occurredAt),
        latestResult: d.result,
        latestResultSummary: d.resultSummary,
        lastCheckedAt: d.occurredAt,
        lastChangeDetectedAt: d.result === 'no_change' ? state.lastChangeDetectedAt : d.occurredAt,
      };
    }
    case 'MonitoringRunSkipped':
      return {
        ...next,
        latestRun: finishRun(
          state,
          event.data.runId,
          'skipped',
          'skipped',
          event.data.reason,
          event.data.occurredAt,
        ),
        latestResult: 'skipped',
        latestResultSummary: event.data.reason,
      };
    case 'MonitoringRunFailed':
      return {
        ...next,
        latestRun: finishRun(
          state,
          event.data.runId,
          'failed',
          'failed',
          event.data.errorMessage,
          event.data.occurredAt,
        ),
        latestResult: 'failed',
        latestResultSummary: event.data.errorMessage,
      };
    case 'MonitoringAlertRaised': {
      const { alertId, runId, checkType, actionable } = event.data;
      return {
        ...next,
        openAlerts: {
          ...state.openAlerts,
          [alertId]: { alertId, runId, checkType, actionable, resolutionStatus: 'pending' },
        },
      };
    }
    case 'MonitoringAlertResolved': {
      const { [event.data.alertId]: _resolved, ...open } = state.openAlerts;
      return { ...next, openAlerts: open };
    }
    case 'FollowUpCaseRequested': {
      const { runId, alertIds } = event.data;
      const openAlerts = { ...state.openAlerts };
      for (const id of alertIds) {
        const alert = openAlerts[id];
        if (alert) openAlerts[id] = { ...alert, resolutionStatus: 'creating_follow_up_case' };
      }
      return {
        ...next,
        openAlerts,
        followUpsInProgress: { ...state.followUpsInProgress, [runId]: alertIds },
      };
    }
    case 'FollowUpCaseCreated': {
      const { runId, alertIds, caseReference } = event.data;
      const openAlerts = { ...state.openAlerts };
      for (const id of alertIds) delete openAlerts[id];
      const { [runId]: _done, ...inProgress } = state.followUpsInProgress;
      return {
        ...next,
        openAlerts,
        followUpsInProgress: inProgress,
        followUpCaseReferences: [...state.followUpCaseReferences, caseReference],
      };
    }
  }
}

function finishRun(
  state: MonitoringConfigState,
  runId: string,
  status: LatestRun['status'],
  result: LatestRun['result'],
  resultSummary: string,
  completedAt: string,
): LatestRun {
  const started = state.latestRun?.runId === runId ? state.latestRun : null;
  return {
    runId,
    trigger: started?.trigger ?? { kind: 'operator' },
    status,
    result,
    resultSummary,
    startedAt: started?.startedAt ?? completedAt,
    completedAt,
  };
}
