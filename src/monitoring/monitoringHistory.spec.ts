import { describe, expect, it } from 'vitest';
import type { MonitoringEvent } from './monitoringEvents.js';
import { eventSummary, snapshotIdsNamed, triggerText } from './monitoringHistory.js';
import { runOverview } from './monitoringOperations.js';

const SNAP = 'snap_00000000000000000000000000000002';
const at = '2026-11-20T10:00:00.000Z';

describe('monitoring history summaries', () => {
  it('says what triggered a run, with the list version of a snapshot trigger when it is known', () => {
    const labels = new Map([[SNAP, 'un_sc_sanctions@2']]);
    expect(triggerText({ kind: 'snapshot', snapshotIds: [SNAP] }, labels)).toBe(
      `new list version un_sc_sanctions@2 (${SNAP})`,
    );
    expect(triggerText({ kind: 'snapshot', snapshotIds: [SNAP] })).toBe(`new list version ${SNAP}`);
    expect(triggerText({ kind: 'enrollment' })).toBe('baseline at enrollment');
    expect(triggerText({ kind: 'resume' })).toBe('resumed');
    expect(triggerText({ kind: 'check_types_changed' })).toBe('check types changed');
    expect(triggerText({ kind: 'schedule' })).toBe('safety-net schedule');
    // Operator runs recorded before the reason existed read as plain operator runs.
    expect(triggerText({ kind: 'operator' })).toBe('operator rerun');
    expect(triggerText({ kind: 'operator', reason: 'list\nreloaded', requestedAt: at })).toBe(
      `operator rerun at ${at}: "list reloaded"`,
    );
  });

  it("sums up a completed run in one sentence, the summary's own full stop left out", () => {
    const completed = {
      type: 'MonitoringRunCompleted',
      data: {
        runId: 'run_1',
        result: 'new_matches',
        resultSummary: '1 match, 1 new, against un_sc_sanctions v2.',
        counts: { matchCount: 1, newMatchCount: 1, changedMatchCount: 0, unchangedMatchCount: 0 },
        snapshots: [{ id: SNAP, dataset: 'un_sc_sanctions', version: 2 }],
      },
    } as unknown as MonitoringEvent;
    expect(eventSummary(completed)).toBe(
      `Run run_1 completed: new_matches (1 match, 1 new, against un_sc_sanctions v2); lists un_sc_sanctions@2 (${SNAP}); ` +
        '1 match(es): 1 new, 0 changed, 0 unchanged',
    );
  });

  it('names the changes of an update and the snapshots the events name by id', () => {
    const updated: MonitoringEvent = {
      type: 'MonitoringConfigUpdated',
      data: {
        changes: { status: 'paused', ownerUserId: null, collaboratorUserIds: [], metadata: {} },
        actor: { type: 'api_client', id: 'k1', displayName: 'CRM' },
        occurredAt: at,
      },
    };
    expect(eventSummary(updated)).toBe(
      'Updated by api_client:k1 (CRM): status paused; owner none; collaborators none; metadata replaced',
    );
    const started: MonitoringEvent = {
      type: 'MonitoringRunStarted',
      data: {
        runId: 'run_1',
        trigger: { kind: 'snapshot', snapshotIds: [SNAP] },
        checkTypes: ['sanctions'],
        occurredAt: at,
      },
    };
    expect(snapshotIdsNamed([updated, started])).toEqual([SNAP]);
  });

  it('tells a failed run from the stream, and only the run asked for', () => {
    const events: MonitoringEvent[] = [
      {
        type: 'MonitoringRunStarted',
        data: { runId: 'run_1', trigger: { kind: 'schedule' }, checkTypes: ['pep'], occurredAt: at },
      },
      {
        type: 'MonitoringRunFailed',
        data: { runId: 'run_1', errorMessage: 'index\nbuild failed', occurredAt: at },
      },
      {
        type: 'MonitoringRunStarted',
        data: { runId: 'run_2', trigger: { kind: 'resume' }, checkTypes: ['pep'], occurredAt: at },
      },
    ];
    expect(runOverview(events, 'run_1')).toMatchObject({
      status: 'failed',
      result: 'failed',
      errorMessage: 'index\nbuild failed',
      completedAt: at,
    });
    expect(runOverview(events, 'run_2')).toMatchObject({ status: 'running', completedAt: null });
    expect(runOverview(events, 'run_3')).toBeNull();
    expect(eventSummary(events[1]!)).toBe('Run run_1 failed: index build failed');
  });
});
