import { describe, expect, it } from 'vitest';
import { ScreeningIndexBuilder } from '../screening/index/screeningIndex.js';
import type { ListedEntity } from '../screening/model/listedEntity.js';
import { defaultProfile } from '../screening/scoring/profiles.js';
import type { MonitoringEvent } from './monitoringEvents.js';
import { evolveMonitoring, type MonitoringConfigState } from './monitoringState.js';
import { evaluateRun, type RunInput } from './runEvaluation.js';

const SNAPSHOT = { id: 'snap_1', dataset: 'un', version: 1 };

function person(id: string, name: string): ListedEntity {
  return {
    id: `un:${id}`,
    kind: 'person',
    names: [{ full: name, kind: 'primary' }],
    birthDates: [],
    countries: [],
    nationalities: [],
    identifiers: [],
    topics: ['sanction'],
    datasets: ['un'],
    sources: [{ name: 'UN', url: null, dataset: 'un', priority: 1 }],
    programs: ['DPRK'],
    sourceRecordRef: id,
  };
}

const SUBJECT = {
  subjectReference: 'sub_0123456789abcdef01234567',
  type: 'person' as const,
  displayName: 'Ivan Testov',
  countries: [],
  birthDate: null,
  externalReference: null,
  metadata: {},
};

function configState(): MonitoringConfigState {
  return evolveMonitoring(null, {
    type: 'MonitoringConfigCreated',
    data: {
      monitoringConfigId: 'mon_01',
      accountId: 'a',
      groupId: 'g',
      subject: SUBJECT,
      checkTypes: ['sanctions'],
      ownerUserId: null,
      collaboratorUserIds: [],
      status: 'active',
      metadata: {},
      screeningProfileId: 'default',
      enrolledFrom: { kind: 'api' },
      actor: { type: 'system', id: null, displayName: 'test' },
      occurredAt: '2026-11-26T00:00:00.000Z',
    },
  });
}

function run(config: MonitoringConfigState, parties: ListedEntity[], fields: Partial<RunInput> = {}) {
  const builder = new ScreeningIndexBuilder();
  for (const party of parties) builder.add(party, SNAPSHOT.id);
  return evaluateRun({
    config,
    subject: SUBJECT,
    runId: `run_${config.revision}`,
    trigger: { kind: 'schedule' },
    profile: defaultProfile(),
    sources: { ok: true, snapshots: [SNAPSHOT] },
    index: builder.build(),
    evidence: { presented: new Map(), reviews: new Map(), seenWithoutFacts: new Set() },
    now: '2026-11-26T01:00:00.000Z',
    ...fields,
  });
}

const fold = (state: MonitoringConfigState, events: MonitoringEvent[]) =>
  events.reduce(evolveMonitoring, state);
const types = (events: MonitoringEvent[]) => events.map((event) => event.type);

describe('evaluateRun', () => {
  const ivan = person('KPi.1', 'IVAN TESTOV');
  const twin = person('KPi.2', 'IVAN TESTOV');

  it('raises new matches, requests a follow-up case, then finds nothing new on the same list', () => {
    const first = run(configState(), [ivan, twin]);
    expect(types(first)).toEqual([
      'MonitoringRunStarted',
      'MonitoringRunCompleted',
      'MonitoringAlertRaised',
      'MonitoringAlertRaised',
      'FollowUpCaseRequested',
    ]);
    const again = run(fold(configState(), first), [ivan, twin]);
    expect(types(again)).toEqual(['MonitoringRunStarted', 'MonitoringRunCompleted']);
  });

  it('keeps following an observed party the profile maximum left out of the search: no false drop below the threshold', () => {
    const observedBoth = fold(configState(), run(configState(), [ivan, twin]));
    const capped = run(observedBoth, [ivan, twin], { profile: { ...defaultProfile(), maxMatches: 1 } });
    expect(types(capped)).toEqual(['MonitoringRunStarted', 'MonitoringRunCompleted']);
    const completed = capped[1] as Extract<MonitoringEvent, { type: 'MonitoringRunCompleted' }>;
    expect(completed.data.counts).toMatchObject({ matchCount: 2, unchangedMatchCount: 2 });
  });

  it('skips a run whose sources are missing, recording why', () => {
    const skipped = run(configState(), [ivan], {
      sources: {
        ok: false,
        reason: 'source_unavailable: no current source list provides pep screening',
        staleDatasets: [],
      },
      index: undefined,
    });
    expect(skipped[1]).toMatchObject({
      type: 'MonitoringRunSkipped',
      data: { reason: expect.stringMatching(/pep/) },
    });
  });
});
