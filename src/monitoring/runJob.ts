import type pg from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { loadCase } from '../cases/caseStream.js';
import type { IndexManager } from '../checks/indexManager.js';
import type { EventStore } from '../eventStore/eventStore.js';
import { defaultProfile, findProfile } from '../screening/scoring/profiles.js';
import type { ReadySnapshot } from '../screening/snapshots/snapshotStore.js';
import type { Clock } from '../shared/clock.js';
import { subjectCommandHandler } from '../subjects/subjectStream.js';
import { caseEvidence } from './caseEvidence.js';
import { openFollowUpCase } from './followUpCase.js';
import { decideMonitoring } from './monitoringDecide.js';
import type { MonitoringRunCompleted, RunTrigger } from './monitoringEvents.js';
import { insertRuns, queuedRun } from './monitoringScheduler.js';
import { monitoredSubject } from './monitoringService.js';
import type { MonitoringConfigState } from './monitoringState.js';
import { monitoringCommandHandler } from './monitoringStream.js';
import { type CaseEvidence, evaluateRun, planRun, type RunInput } from './runEvaluation.js';

/**
 * Makes one run of a configuration and sees its follow-up case through (docs/monitoring.md,
 * "Runs"). Every step is safe to repeat: the run's events have ids derived from the run id, so a
 * job taken over after a crash finds the run recorded and goes on with its follow-up case, which
 * in turn is found where an earlier attempt opened it.
 */

export type RunJobOutcome =
  | { kind: 'recorded' | 'already_recorded'; result: string; followUpCaseReference: string | null }
  | { kind: 'not_run'; why: string }
  /** Try again after a moment (the case whose checks the baseline waits for, a concurrent change). */
  | { kind: 'later'; why: string };

const RUN_EVENTS_NAMESPACE = 'c2d6a8f4-1f3e-4b7a-9e0d-6a5b4c3d2e1f';
const runEventId = (runId: string, purpose: string) => (index: number) =>
  uuidv5(`${runId}:${purpose}:${index}`, RUN_EVENTS_NAMESPACE);

export interface RunJobDeps {
  pool: pg.Pool;
  store: EventStore;
  indexManager: IndexManager;
  staleAfterMs: number;
  clock: Clock;
}

export async function runMonitoringJob(
  deps: RunJobDeps,
  job: { runId: string; monitoringConfigId: string; trigger: RunTrigger },
  signal?: AbortSignal,
): Promise<RunJobOutcome> {
  const { runId, monitoringConfigId } = job;
  const loaded = await monitoringCommandHandler.load(deps.store, monitoringConfigId);
  const config = loaded.state;
  if (!config) return { kind: 'not_run', why: 'no such configuration' };
  const recorded = loaded.events.find(
    (stored) => stored.event.type === 'MonitoringRunStarted' && stored.event.data.runId === runId,
  );
  let state: MonitoringConfigState = config;
  let kind: 'recorded' | 'already_recorded' = 'already_recorded';
  if (!recorded) {
    const waiting = await notYet(deps, config, job.trigger);
    if (waiting) return waiting;
    const seen = await deps.indexManager.currentSnapshots({ fresh: true });
    const events = evaluateRun(await gatherRunInput(deps, config, job, { signal, current: seen }));
    const outcome = await monitoringCommandHandler.handle(
      deps.store,
      monitoringConfigId,
      (current) => decideMonitoring({ type: 'RecordRun', basedOnRevision: config.revision, events }, current),
      runEventId(runId, 'run'),
      // Decided on the stream read above: a writer since then fails the append, and it is read again.
      { read: loaded },
    );
    if (!outcome.ok) {
      if (outcome.rejection.code === 'conflict') return { kind: 'later', why: outcome.rejection.message };
      return { kind: 'not_run', why: outcome.rejection.message };
    }
    state = outcome.state!;
    kind = outcome.alreadyApplied ? 'already_recorded' : 'recorded';
    if (kind === 'recorded') await requeueForNewerLists(deps, monitoringConfigId, seen);
  }
  const followUp = await completeFollowUp(deps, monitoringConfigId, runId, state);
  if (followUp) state = followUp.state;
  return {
    kind,
    result: state.latestRun?.runId === runId ? state.latestRun.result : 'superseded',
    followUpCaseReference: followUp?.caseReference ?? null,
  };
}

/**
 * A list version that became current while this run screened: the run used the version before,
 * and the sweep of the new one may have read this configuration before the run was recorded, so
 * the run queues the configuration's run for that version itself (the id the sweep would give it:
 * one run whoever queues it first).
 */
async function requeueForNewerLists(
  deps: RunJobDeps,
  monitoringConfigId: string,
  seen: readonly { id: string }[],
): Promise<void> {
  const before = new Set(seen.map((snapshot) => snapshot.id));
  const now = await deps.indexManager.currentSnapshots({ fresh: true });
  const newer = now.filter((snapshot) => !before.has(snapshot.id));
  await insertRuns(
    deps.pool,
    newer.map((snapshot) =>
      queuedRun(
        monitoringConfigId,
        { kind: 'snapshot', snapshotIds: [snapshot.id] },
        `snapshot:${snapshot.id}`,
      ),
    ),
  );
}

/**
 * Records the run as failed with the error that stopped it (after the worker's last attempt): the
 * configuration shows `failed` and the message, and the next trigger runs it again. False when the
 * run was recorded already: then its follow-up case is what fails, and the job is retried instead.
 */
export async function recordFailedRun(
  deps: Pick<RunJobDeps, 'store' | 'clock'>,
  job: { runId: string; monitoringConfigId: string; trigger: RunTrigger },
  errorMessage: string,
): Promise<boolean> {
  const now = deps.clock().toISOString();
  const outcome = await monitoringCommandHandler.handle(
    deps.store,
    job.monitoringConfigId,
    (state) =>
      state === null
        ? decideMonitoring({ type: 'RecordRun', basedOnRevision: -1, events: [] }, state)
        : decideMonitoring(
            {
              type: 'RecordRun',
              basedOnRevision: state.revision,
              events: [
                {
                  type: 'MonitoringRunStarted',
                  data: {
                    runId: job.runId,
                    trigger: job.trigger,
                    checkTypes: state.checkTypes,
                    occurredAt: now,
                  },
                },
                { type: 'MonitoringRunFailed', data: { runId: job.runId, errorMessage, occurredAt: now } },
              ],
            },
            state,
          ),
    runEventId(job.runId, 'run'),
  );
  // Applied before: the run itself is on the stream (what kept failing came after it, its
  // follow-up case), so nothing is recorded and the job must go on being retried.
  return outcome.ok && !outcome.alreadyApplied;
}

/** Why this run must not be made now: a paused config, or a baseline whose case is still screening. */
async function notYet(
  deps: RunJobDeps,
  config: MonitoringConfigState,
  trigger: RunTrigger,
): Promise<RunJobOutcome | undefined> {
  if (config.status === 'paused' && trigger.kind !== 'operator') {
    return { kind: 'not_run', why: 'the configuration is paused' };
  }
  if (trigger.kind === 'enrollment' && config.enrolledFrom.kind === 'case') {
    // The baseline of a case's enrollment counts what the case presents: wait for its checks.
    const { state } = await loadCase(deps.store, config.enrolledFrom.caseReference);
    const screening = state?.checks.some(
      (check) => check.lifecycleStatus === 'queued' || check.lifecycleStatus === 'running',
    );
    if (screening)
      return { kind: 'later', why: `waiting for the checks of case ${config.enrolledFrom.caseReference}` };
  }
  return undefined;
}

/** What the subject's cases in the config's group have shown reviewers: the run's evidence. */
export function evidenceOf(
  deps: Pick<RunJobDeps, 'pool' | 'store'>,
  config: MonitoringConfigState,
): Promise<CaseEvidence> {
  return caseEvidence(deps, {
    accountId: config.accountId,
    groupId: config.groupId,
    subjectReference: config.subject.subjectReference,
    ...(config.enrolledFrom.kind === 'case' && { alsoCase: config.enrolledFrom.caseReference }),
  });
}

/**
 * Everything a run of `config` is decided on, read as the worker reads it: the subject as its stream
 * is now, the profile, the current snapshots and an index holding them, the evidence of the
 * subject's cases. A caller that evaluates runs without recording them (the equivalence test and
 * the monitoring benchmark's full re-screen) passes the evidence it read before the list version
 * arrived, since the runs of that version open follow-up cases that would count as presented.
 */
export async function gatherRunInput(
  deps: RunJobDeps,
  config: MonitoringConfigState,
  job: { runId: string; trigger: RunTrigger },
  options: {
    signal?: AbortSignal | undefined;
    evidence?: CaseEvidence;
    /** The current snapshots, when the caller has just read them. */
    current?: readonly ReadySnapshot[];
  } = {},
): Promise<RunInput> {
  const now = deps.clock();
  const subjectState = (await subjectCommandHandler.load(deps.store, config.subject.subjectReference)).state;
  const subject = subjectState ? monitoredSubject(subjectState) : config.subject;
  const profile = findProfile(config.screeningProfileId) ?? defaultProfile();
  const current = options.current ?? (await deps.indexManager.currentSnapshots({ fresh: true }));
  const sources = planRun({ config, profile, current, now, staleAfterMs: deps.staleAfterMs });
  const index = sources.ok
    ? (
        await deps.indexManager.indexFor(
          current,
          sources.snapshots.map((snapshot) => snapshot.id),
          options.signal,
        )
      ).index
    : undefined;
  return {
    config,
    subject,
    runId: job.runId,
    trigger: job.trigger,
    profile,
    sources,
    index,
    evidence: options.evidence ?? (await evidenceOf(deps, config)),
    now: now.toISOString(),
  };
}

/**
 * The follow-up case of the run, if it requested one that is not recorded yet: opened (or found,
 * after a crash) and recorded on the config stream. `known` is the configuration as read or
 * recorded after the run: without a follow-up in progress for the run there, none can be (the run
 * requests it in its own events, and only recording the case ends it), and the stream is not read.
 */
async function completeFollowUp(
  deps: RunJobDeps,
  monitoringConfigId: string,
  runId: string,
  known: MonitoringConfigState,
) {
  if (!known.followUpsInProgress[runId]) return undefined;
  const loaded = await monitoringCommandHandler.load(deps.store, monitoringConfigId);
  const config = loaded.state;
  const alertIds = config?.followUpsInProgress[runId];
  if (!config || !alertIds) return undefined;
  const run = loaded.events.find(
    (stored): stored is typeof stored & { event: MonitoringRunCompleted } =>
      stored.event.type === 'MonitoringRunCompleted' && stored.event.data.runId === runId,
  )?.event.data;
  if (!run) throw new Error(`run ${runId} requested a follow-up case but has no completion`);
  const alertedTypes = loaded.events.flatMap((stored) =>
    stored.event.type === 'MonitoringAlertRaised' && alertIds.includes(stored.event.data.alertId)
      ? [stored.event.data.checkType]
      : [],
  );
  const now = deps.clock().toISOString();
  const opened = await openFollowUpCase(deps, { config, run, alertIds, alertedTypes, now });
  const recorded = await monitoringCommandHandler.handle(
    deps.store,
    monitoringConfigId,
    (state) =>
      decideMonitoring(
        { type: 'RecordFollowUpCase', runId, caseReference: opened.caseReference, now },
        state,
      ),
    runEventId(runId, 'follow-up-recorded'),
    { read: loaded },
  );
  if (!recorded.ok || !recorded.state) throw new Error(`recording the follow-up case of run ${runId} failed`);
  return { state: recorded.state, caseReference: opened.caseReference };
}
