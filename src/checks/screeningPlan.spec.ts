import { describe, expect, it } from 'vitest';
import type { CaseSubject } from '../cases/caseEvents.js';
import { matchId } from '../cases/references.js';
import { ScreeningIndexBuilder } from '../screening/index/screeningIndex.js';
import type { ListedEntity } from '../screening/model/listedEntity.js';
import { defaultProfile, findProfile } from '../screening/scoring/profiles.js';
import type { ReadySnapshot } from '../screening/snapshots/snapshotStore.js';
import { foundMatchesOf, identifiersFromMetadata, planCheck, screeningSubjectOf } from './screeningPlan.js';

const DAY = 86_400_000;
const NOW = new Date('2026-11-23T12:00:00Z');
const STALE_AFTER = 14 * DAY;

function snapshot(
  id: string,
  dataset: string,
  countsByTopic: Record<string, number>,
  ageDays = 1,
  published = true,
): ReadySnapshot {
  const date = new Date(NOW.getTime() - ageDays * DAY);
  return {
    id,
    dataset,
    format: 'un-xml',
    status: 'ready',
    version: 3,
    baseSnapshotId: null,
    contentHash: '0'.repeat(64),
    publishedAt: published ? date : null,
    missingFiles: [],
    startedAt: date,
    loadedAt: date,
    entityCount: 10,
    countsByKind: { person: 10 },
    countsByTopic,
    error: null,
  };
}

const subject: CaseSubject = {
  subjectReference: 'sub_0123456789abcdef01234567',
  type: 'person',
  displayName: 'Ivan Testov',
  countries: ['ru', 'XX', 'de', 'RU'],
  birthDate: { year: 1970, month: 3 },
  externalReference: null,
  metadata: {},
};

describe('screeningSubjectOf', () => {
  it('screens the case subject snapshot: name, type, birth date and known countries, upper case, once each', () => {
    expect(screeningSubjectOf(subject)).toEqual({
      name: 'Ivan Testov',
      kind: 'person',
      birthDate: { year: 1970, month: 3 },
      countries: ['RU', 'DE'],
      identifiers: [],
    });
    expect(screeningSubjectOf({ ...subject, birthDate: null, countries: [] })).not.toHaveProperty(
      'birthDate',
    );
  });

  it('reads identifiers from metadata.identifiers when it is an array of {scheme, value}', () => {
    expect(
      identifiersFromMetadata({
        identifiers: [
          { scheme: 'IMO', value: ' 9123456 ' },
          { value: 'AB123' },
          { scheme: 'passport', value: 'X1', country: 'ua' },
          { scheme: 'bad scheme!', value: 'Y2' },
          { scheme: 'lei' },
          { scheme: 'lei', value: '' },
          'imo:1',
          null,
        ],
      }),
    ).toEqual([
      { scheme: 'imo', value: '9123456' },
      { scheme: 'other', value: 'AB123' },
      { scheme: 'passport', value: 'X1', country: 'UA' },
      { scheme: 'other', value: 'Y2' },
    ]);
    expect(identifiersFromMetadata({ identifiers: 'imo:9123456' })).toEqual([]);
    expect(identifiersFromMetadata({})).toEqual([]);
    const many = Array.from({ length: 30 }, (_, i) => ({ scheme: 'other', value: String(i) }));
    expect(identifiersFromMetadata({ identifiers: many })).toHaveLength(20);
  });
});

describe('planCheck', () => {
  const un = snapshot('snap_un', 'un_sc_sanctions', { sanction: 5 });
  const sdn = snapshot('snap_sdn', 'us_ofac_sdn', { sanction: 7, 'role.pep': 0 });
  const pep = snapshot('snap_pep', 'us_congress', { 'role.pep': 500 });
  const plan = (
    current: ReadySnapshot[],
    checkType: 'sanctions' | 'pep' = 'sanctions',
    profile = defaultProfile(),
  ) => planCheck({ checkType, profile, current, now: NOW, staleAfterMs: STALE_AFTER });

  it('screens every current, fresh snapshot that provides the check type', () => {
    expect(plan([un, sdn, pep])).toEqual({
      ok: true,
      snapshots: [
        { id: 'snap_un', dataset: 'un_sc_sanctions', version: 3 },
        { id: 'snap_sdn', dataset: 'us_ofac_sdn', version: 3 },
      ],
    });
    expect(plan([un, sdn, pep], 'pep')).toMatchObject({ ok: true, snapshots: [{ id: 'snap_pep' }] });
  });

  it('refuses a check type no current snapshot provides', () => {
    expect(plan([un, sdn], 'pep')).toEqual({
      ok: false,
      failureReason: 'source_unavailable: no current source list provides pep screening',
      staleDatasets: [],
    });
    expect(plan([], 'sanctions')).toMatchObject({ ok: false });
  });

  it('refuses the check type when one providing snapshot is stale, naming it, however many are fresh', () => {
    const staleSdn = snapshot('snap_sdn', 'us_ofac_sdn', { sanction: 7 }, 30);
    // Loaded yesterday, but without a publication date (a load from before dates were required):
    // its list may be years old, so it is stale.
    const undatedUn = snapshot('snap_un', 'un_sc_sanctions', { sanction: 5 }, 1, false);
    expect(plan([un, staleSdn])).toEqual({
      ok: false,
      failureReason:
        'source_unavailable: sanctions sources older than 14d: us_ofac_sdn (version 3, published 2026-10-24)',
      staleDatasets: ['us_ofac_sdn'],
    });
    expect(plan([undatedUn, staleSdn])).toMatchObject({
      ok: false,
      failureReason:
        'source_unavailable: sanctions sources older than 14d: un_sc_sanctions (version 3, no publication date), us_ofac_sdn (version 3, published 2026-10-24)',
    });
    expect(plan([undatedUn, sdn])).toMatchObject({ ok: false, staleDatasets: ['un_sc_sanctions'] });
    // A stale list of another check type does not matter.
    expect(plan([un, snapshot('snap_pep', 'us_congress', { 'role.pep': 1 }, 40)])).toMatchObject({
      ok: true,
    });
  });

  it("applies a profile's dataset restriction to both what is screened and what must be fresh", () => {
    const usOfac = findProfile('us-ofac')!;
    const staleUn = snapshot('snap_un', 'un_sc_sanctions', { sanction: 5 }, 30);
    expect(plan([staleUn, sdn], 'sanctions', usOfac)).toEqual({
      ok: true,
      snapshots: [{ id: 'snap_sdn', dataset: 'us_ofac_sdn', version: 3 }],
    });
    expect(plan([un], 'sanctions', usOfac)).toMatchObject({
      ok: false,
      failureReason:
        'source_unavailable: no current source list provides sanctions screening among the datasets of screening profile us-ofac (us_ofac_sdn, us_ofac_cons)',
    });
  });
});

describe('foundMatchesOf', () => {
  const party = (id: string, name: string, dataset: string): ListedEntity => ({
    id,
    kind: 'person',
    names: [
      { full: name, kind: 'primary' },
      { full: `${name} Junior`, kind: 'alias' },
    ],
    birthDates: [{ from: '1970-03-01' }],
    countries: ['RU'],
    nationalities: [],
    identifiers: [],
    topics: ['sanction'],
    datasets: [dataset],
    sources: [{ name: 'UN SC', url: 'https://www.un.org/', dataset, priority: 1 }],
    programs: ['DPRK'],
    sourceRecordRef: `${id}-ref`,
  });
  const builder = new ScreeningIndexBuilder();
  builder.add(party('un_sc_sanctions:1', 'Ivan Testov', 'un_sc_sanctions'), 'snap_un');
  builder.add(party('old_list:1', 'Ivan Testov', 'old_list'), 'snap_old');
  builder.add(party('un_sc_sanctions:2', 'Ivan Testova', 'un_sc_sanctions'), 'snap_un');
  const index = builder.build();
  const matches = index.search(screeningSubjectOf(subject), {
    profile: defaultProfile(),
    checkTypes: ['sanctions'],
  });
  const searched = [{ id: 'snap_un', dataset: 'un_sc_sanctions', version: 3 }];

  it('records each match of the snapshots searched, ranked from 1, with its evidence and source', () => {
    expect(matches.map((match) => match.entity.id)).toContain('old_list:1');
    const found = foundMatchesOf('ABC123456-1', matches, searched, 50);
    expect(found.map((match) => [match.rank, match.matchedEntityId])).toEqual([
      [1, 'un_sc_sanctions:1'],
      [2, 'un_sc_sanctions:2'],
    ]);
    expect(found[0]).toMatchObject({
      matchId: matchId('ABC123456-1', 'un_sc_sanctions:1'),
      displayName: 'Ivan Testov',
      matchType: 'exact_name',
      sources: [{ name: 'UN SC', url: 'https://www.un.org/', dataset: 'un_sc_sanctions', priority: 1 }],
      sourceRecordRef: 'un_sc_sanctions:1-ref',
      sourceSnapshotId: 'snap_un',
      topics: ['sanction'],
      datasets: ['un_sc_sanctions'],
    });
    expect(found[0]!.score).toBeGreaterThan(found[1]!.score);
    expect(found[0]!.reason).toHaveProperty('summary');
    expect(found[0]!.supportingFields).toHaveProperty('birth_date.status', 'agreed');
    // Stored as JSON in the event: nothing that would not survive the round trip.
    expect(JSON.parse(JSON.stringify(found))).toEqual(found);
  });

  it("cuts to the profile's maximum after leaving out other snapshots' parties", () => {
    expect(foundMatchesOf('ABC123456-1', matches, searched, 1).map((match) => match.matchedEntityId)).toEqual(
      ['un_sc_sanctions:1'],
    );
    expect(foundMatchesOf('ABC123456-1', matches, [], 50)).toEqual([]);
  });
});
