import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Checkpoint, RecordedEvent } from '../eventStore/eventStore.js';
import { MONITORING_CATEGORY, type MonitoringEvent } from './monitoringEvents.js';
import { monitoringRunId } from './monitoringReferences.js';
import { runsOf } from './monitoringScheduler.js';

/**
 * Which configuration events queue a run (docs/monitoring.md, "Run triggers"): the baseline of an
 * active configuration, a resume, new check types; nothing else a PATCH records.
 */

const ID = 'mon_0123456789abcdef01234567';
const at = '2026-11-20T10:00:00.000Z';
const actor = { type: 'api_client' as const, id: 'k1', displayName: 'CRM' };

function recorded(event: MonitoringEvent, revision: number): RecordedEvent {
  return {
    id: randomUUID(),
    type: event.type,
    data: event.data,
    metadata: {},
    streamName: `${MONITORING_CATEGORY}-${ID}`,
    category: MONITORING_CATEGORY,
    revision: BigInt(revision),
    position: `${revision}` as Checkpoint,
    recordedAt: new Date(at),
  };
}

const updated = (changes: Extract<MonitoringEvent, { type: 'MonitoringConfigUpdated' }>['data']['changes']) =>
  recorded({ type: 'MonitoringConfigUpdated', data: { changes, actor, occurredAt: at } }, 1);

const created = (status: 'active' | 'paused') =>
  recorded(
    {
      type: 'MonitoringConfigCreated',
      data: {
        monitoringConfigId: ID,
        accountId: randomUUID(),
        groupId: randomUUID(),
        subject: {
          subjectReference: 'sub_0123456789abcdef01234567',
          type: 'person',
          displayName: 'Ri Won Ho',
          countries: [],
          birthDate: null,
          externalReference: null,
          metadata: {},
        },
        checkTypes: ['sanctions'],
        ownerUserId: null,
        collaboratorUserIds: [],
        status,
        metadata: {},
        screeningProfileId: 'default',
        enrolledFrom: { kind: 'api' },
        actor,
        occurredAt: at,
      },
    },
    0,
  );

describe('the runs the monitoring scheduler queues for configuration events', () => {
  it('queues a resume run keyed by the event that moved the configuration to active', () => {
    const resumed = updated({ status: 'active' });
    expect(runsOf([resumed])).toEqual([
      {
        runId: monitoringRunId(ID, `resume:${resumed.id}`),
        monitoringConfigId: ID,
        trigger: { kind: 'resume' },
      },
    ]);
    // Another resume later is another run.
    const again = updated({ status: 'active' });
    expect(runsOf([again])[0]!.runId).not.toBe(runsOf([resumed])[0]!.runId);
    // A resume that also changes the check types is one run, the resume.
    expect(runsOf([updated({ status: 'active', checkTypes: ['pep'] })]).map((run) => run.trigger)).toEqual([
      { kind: 'resume' },
    ]);
  });

  it('queues nothing for an update that neither resumes nor changes the check types', () => {
    for (const changes of [
      { status: 'paused' as const },
      { metadata: { tier: 'high' } },
      { ownerUserId: randomUUID(), collaboratorUserIds: [randomUUID()] },
      { groupId: randomUUID() },
    ]) {
      expect(runsOf([updated(changes)]), JSON.stringify(changes)).toEqual([]);
    }
  });

  it('queues the baseline of an active configuration only, and a run for new check types', () => {
    expect(runsOf([created('active')])).toEqual([
      { runId: monitoringRunId(ID, 'enrollment'), monitoringConfigId: ID, trigger: { kind: 'enrollment' } },
    ]);
    expect(runsOf([created('paused')])).toEqual([]);
    const changed = updated({ checkTypes: ['pep', 'sanctions'] });
    expect(runsOf([changed])).toEqual([
      {
        runId: monitoringRunId(ID, `check_types:${changed.id}`),
        monitoringConfigId: ID,
        trigger: { kind: 'check_types_changed' },
      },
    ]);
  });
});
