import { describe, expect, it } from 'vitest';
import type { FoundMatch, ReviewStatus } from '../cases/caseEvents.js';
import type { ListedEntity } from '../screening/model/listedEntity.js';
import {
  type ChangeInput,
  detectChanges,
  type FoundParty,
  observationOf,
  type Unfound,
} from './changeDetection.js';
import type { Observation } from './monitoringEvents.js';
import { matchFingerprint } from './monitoringReferences.js';

function entity(id: string, fields: Partial<ListedEntity> = {}): ListedEntity {
  return {
    id,
    kind: 'person',
    names: [{ full: 'IVAN TESTOV', kind: 'primary' }],
    birthDates: [],
    countries: [],
    nationalities: [],
    identifiers: [],
    topics: ['sanction'],
    datasets: ['un'],
    sources: [{ name: 'UN', url: null, dataset: 'un', priority: 1 }],
    programs: ['DPRK'],
    sourceRecordRef: 'KPi.911',
    ...fields,
  };
}

const match = (entityId: string, score: number): FoundMatch => ({
  matchId: `run.${entityId}`,
  rank: 1,
  displayName: 'IVAN TESTOV',
  score,
  matchedEntityId: entityId,
  matchType: 'exact_name',
  reason: {},
  sources: [],
  sourceRecordRef: null,
  sourceSnapshotId: 'snap_2',
  supportingFields: {},
  topics: ['sanction'],
  datasets: ['un'],
});

const found = (party: ListedEntity, score = 0.95): FoundParty => ({
  checkType: 'sanctions',
  entity: party,
  snapshotId: 'snap_2',
  score,
  match: match(party.id, score),
});

const observed = (party: ListedEntity, fields: Partial<Observation> = {}): Observation => ({
  ...observationOf('sanctions', party, 'snap_1', 0.95, true),
  ...fields,
});

function detect(fields: Partial<ChangeInput> & { reviews?: Map<string, ReviewStatus> }) {
  const byFingerprint = (list: Observation[]) => Object.fromEntries(list.map((o) => [o.fingerprint, o]));
  return detectChanges({
    observed: {},
    presented: new Map(),
    reviews: new Map(),
    found: [],
    unfound: new Map<string, Unfound>(),
    ...fields,
    ...(fields.observed && { observed: byFingerprint(Object.values(fields.observed)) }),
  });
}

const IVAN = entity('un:910001');
const fp = matchFingerprint('sanctions', IVAN.id);

describe('detectChanges', () => {
  it('raises a new match for a party never observed, and nothing for one unchanged', () => {
    const first = detect({ found: [found(IVAN)] });
    expect(first.alerts.map((a) => [a.kind, a.noActionNote])).toEqual([['new_match', null]]);
    expect(first.result).toBe('new_matches');
    const again = detect({ observed: { [fp]: observed(IVAN) }, found: [found(IVAN, 0.97)] });
    expect(again.alerts).toEqual([]);
    expect(again.counts).toEqual({
      matchCount: 1,
      newMatchCount: 0,
      changedMatchCount: 0,
      unchangedMatchCount: 1,
    });
    expect(again.observations[0]?.score).toBe(0.97);
  });

  it('counts what a case presented as observed: enrolling after a case alerts nothing the reviewer saw', () => {
    const outcome = detect({ presented: new Map([[fp, observed(IVAN)]]), found: [found(IVAN)] });
    expect(outcome.alerts).toEqual([]);
    expect(outcome.result).toBe('no_change');
  });

  it('raises a changed match, with the fields, when the party changes materially, even one reviewed not relevant', () => {
    const changed = entity(IVAN.id, {
      names: [...IVAN.names, { full: 'Ivan Testovich', kind: 'alias' }],
      notes: ['a note is not material'],
    });
    const outcome = detect({
      observed: { [fp]: observed(IVAN) },
      found: [found(changed)],
      reviews: new Map([[fp, 'not_relevant']]),
    });
    expect(outcome.alerts.map((a) => [a.kind, a.changes.map((c) => c.field), a.noActionNote])).toEqual([
      ['changed_match', ['names'], null],
    ]);
    expect(outcome.alerts[0]?.changeSummary).toContain('names added: Ivan Testovich');
  });

  it('keeps a match reviewed not relevant quiet when only its score crosses the threshold', () => {
    const below = { [fp]: observed(IVAN, { aboveThreshold: false, score: 0.5 }) };
    expect(
      detect({ observed: below, found: [found(IVAN)], reviews: new Map([[fp, 'not_relevant']]) }).alerts,
    ).toEqual([]);
    const crossed = detect({ observed: below, found: [found(IVAN)] }).alerts;
    expect(crossed.map((a) => a.changes)).toEqual([[{ field: 'score', previous: '50', current: '95' }]]);
  });

  it('raises a delisting, needing no action when the match was reviewed not relevant', () => {
    const delisted = (reviews: Map<string, ReviewStatus>) =>
      detect({ observed: { [fp]: observed(IVAN) }, unfound: new Map([[fp, { kind: 'delisted' }]]), reviews });
    const dismissed = delisted(new Map([[fp, 'not_relevant']]));
    expect(dismissed.alerts[0]?.changes).toEqual([
      { field: 'listed', previous: 'listed', current: 'delisted' },
    ]);
    expect(dismissed.alerts[0]?.noActionNote).toMatch(/reviewed not relevant/);
    expect(dismissed.observations[0]).toMatchObject({ listed: false, score: null });
    expect(delisted(new Map()).alerts[0]?.noActionNote).toBeNull();
    // Once delisted, the next run has nothing more to say; listed again, it alerts.
    const after = { [fp]: dismissed.observations[0]! };
    expect(detect({ observed: after, unfound: new Map([[fp, { kind: 'delisted' }]]) }).alerts).toEqual([]);
    expect(detect({ observed: after, found: [found(IVAN)] }).alerts[0]?.changes[0]).toEqual({
      field: 'listed',
      previous: 'delisted',
      current: 'listed',
    });
  });

  it('resolves a drop below the threshold without action, and leaves a party of a dataset not screened alone', () => {
    const fell = detect({
      observed: { [fp]: observed(IVAN) },
      unfound: new Map([[fp, { kind: 'below_threshold', entity: IVAN, snapshotId: 'snap_2', score: 0.4 }]]),
    });
    expect(fell.alerts.map((a) => [a.kind, a.noActionNote !== null])).toEqual([['changed_match', true]]);
    const untouched = detect({
      observed: { [fp]: observed(IVAN) },
      unfound: new Map([[fp, { kind: 'not_screened' }]]),
    });
    expect(untouched.alerts).toEqual([]);
    expect(untouched.observations).toEqual([observed(IVAN)]);
  });
});
