import { describe, expect, it } from 'vitest';
import type { CheckType } from '../checkTypes.js';
import type { EntityKind, ListedEntity } from '../model/listedEntity.js';
import { defaultProfile, findProfile, type ScreeningProfile } from '../scoring/profiles.js';
import type { ScreeningSubject } from '../scoring/query.js';
import { ScreeningIndex, ScreeningIndexBuilder, type ScreeningMatch } from './screeningIndex.js';

interface Party {
  id: string;
  name: string;
  kind?: EntityKind;
  aliases?: string[];
  topics?: string[];
  dataset?: string;
  priority?: number;
  fields?: Partial<ListedEntity>;
}

function listed({
  id,
  name,
  kind = 'person',
  aliases = [],
  topics = ['sanction'],
  dataset,
  priority = 1,
  fields,
}: Party): ListedEntity {
  const datasetName = dataset ?? id.split(':')[0]!;
  return {
    id,
    kind,
    names: [{ full: name, kind: 'primary' }, ...aliases.map((full) => ({ full, kind: 'alias' as const }))],
    birthDates: [],
    countries: [],
    nationalities: [],
    identifiers: [],
    topics,
    datasets: [datasetName],
    sources: [{ name: datasetName, url: null, dataset: datasetName, priority }],
    programs: [],
    sourceRecordRef: id,
    ...fields,
  };
}

const PARTIES: ListedEntity[] = [
  listed({
    id: 'us_ofac_sdn:yanukovych',
    name: 'Viktor Fedorovych YANUKOVYCH',
    fields: { birthDates: [{ from: '1950-07-09' }], countries: ['UA'] },
  }),
  listed({ id: 'un_sc_sanctions:mutmain', name: 'ABDULHAI MUTMAIN' }),
  listed({ id: 'un_sc_sanctions:noorzai', name: 'Abdul Basir NOORZAI' }),
  listed({ id: 'eu_fsf:bin-salman', name: 'محمد بن سلمان' }),
  listed({
    id: 'us_ofac_sdn:ocean-star',
    name: 'OCEAN STAR',
    kind: 'vessel',
    fields: { identifiers: [{ scheme: 'imo', value: '9123456' }], countries: ['KP'] },
  }),
  listed({ id: 'everypolitician:merkel', name: 'Angela Merkel', topics: ['role.pep'], priority: 2 }),
  listed({
    id: 'worldbank_debarred:acme',
    name: 'Acme Construction Ltd',
    kind: 'company',
    topics: ['debarment'],
    priority: 2,
  }),
  listed({ id: 'us_ofac_sdn:rosneft', name: 'Rosneft Oil Company', kind: 'company' }),
  // Three parties named Ivan Petrov: an aggregated source first, then two official lists.
  listed({ id: 'opensanctions:petrov', name: 'Ivan Petrov', priority: 3 }),
  listed({ id: 'us_ofac_sdn:petrov', name: 'Ivan Petrov' }),
  listed({ id: 'eu_fsf:petrov', name: 'Ivan Petrov' }),
  listed({ id: 'us_ofac_sdn:petrov-llc', name: 'IVAN PETROV', kind: 'company' }),
  listed({ id: 'gb_hmt:lavrov', name: 'Sergey Viktorovich Lavrov', topics: ['sanction', 'role.pep'] }),
];

const SNAPSHOTS: Record<string, string> = {
  us_ofac_sdn: 'snapshot-ofac-1',
  un_sc_sanctions: 'snapshot-un-7',
  eu_fsf: 'snapshot-eu-3',
};

function buildIndex(): ScreeningIndex {
  const builder = new ScreeningIndexBuilder();
  for (const party of PARTIES) builder.add(party, SNAPSHOTS[party.datasets[0]!] ?? null);
  return builder.build();
}

const index = buildIndex();
const ALL_CHECKS: CheckType[] = ['sanctions', 'pep', 'business_entity_risk'];

interface Search {
  kind?: EntityKind;
  subject?: Partial<ScreeningSubject>;
  checkTypes?: CheckType[];
  profile?: ScreeningProfile;
  limit?: number;
  threshold?: number;
  on?: ScreeningIndex;
}

function search(name: string, options: Search = {}): ScreeningMatch[] {
  const {
    kind = 'unknown',
    subject,
    checkTypes = ALL_CHECKS,
    profile = defaultProfile(),
    on = index,
  } = options;
  return on.search(
    { name, kind, countries: [], identifiers: [], ...subject },
    {
      profile,
      checkTypes,
      ...(options.limit !== undefined && { limit: options.limit }),
      ...(options.threshold !== undefined && { threshold: options.threshold }),
    },
  );
}

const ids = (matches: ScreeningMatch[]) => matches.map((m) => m.entity.id);

describe('ScreeningIndexBuilder', () => {
  it('refuses the same entity id twice', () => {
    const builder = new ScreeningIndexBuilder();
    builder.add(PARTIES[0]!, 'snapshot-a');
    expect(() =>
      builder.add({ ...PARTIES[0]!, names: [{ full: 'Someone Else', kind: 'primary' }] }, 'snapshot-b'),
    ).toThrow('entity us_ofac_sdn:yanukovych is indexed twice');
  });

  it('counts what it indexed', () => {
    const stats = index.stats();
    expect(stats.entities).toBe(PARTIES.length);
    expect(stats.names).toBe(PARTIES.reduce((total, p) => total + p.names.length, 0));
    expect(stats.terms).toBeGreaterThan(0);
    expect(stats.postings).toBeGreaterThanOrEqual(stats.terms);
    expect([...stats.datasets].sort()).toEqual([...new Set(PARTIES.map((p) => p.datasets[0]!))].sort());
  });
});

describe('ScreeningIndex.search: finding a party', () => {
  it('finds the exact name and returns the party as indexed', () => {
    const [match, ...rest] = search('Rosneft Oil Company', { kind: 'company' });
    expect(rest).toEqual([]);
    expect(match!.entity).toEqual(PARTIES.find((p) => p.id === 'us_ofac_sdn:rosneft'));
    expect(match!.explanation.score).toBe(0.9);
    expect(match!.explanation.matchType).toBe('exact_name');
  });

  it('finds a party from a typo', () => {
    const matches = search('Viktor Yanukovich', { kind: 'person' });
    expect(ids(matches)).toEqual(['us_ofac_sdn:yanukovych']);
    expect(matches[0]!.explanation.matchType).toBe('fuzzy_name');
  });

  it('finds a party from "SURNAME, Given"', () => {
    expect(ids(search('YANUKOVYCH, Viktor', { kind: 'person' }))).toEqual(['us_ofac_sdn:yanukovych']);
    expect(ids(search('NOORZAI, Abdul Basir', { kind: 'person' }))).toEqual(['un_sc_sanctions:noorzai']);
  });

  it('finds a name listed glued ("ABDULHAI") from its parts written apart', () => {
    // "Abdul" and "Hai" alone reach no term: only the joined pair does.
    const matches = search('Abdul Hai', { kind: 'person' });
    expect(ids(matches)).toEqual(['un_sc_sanctions:mutmain']);
    expect(ids(search('Abdul Hai Mutmain', { kind: 'person' }))).toEqual(['un_sc_sanctions:mutmain']);
  });

  it('finds a name listed in parts from a glued query', () => {
    const matches = search('Abdulbasir Noorzai', { kind: 'person' });
    expect(ids(matches)).toEqual(['un_sc_sanctions:noorzai']);
    expect(matches[0]!.explanation.score).toBeGreaterThan(0.85);
    // No other part brings the party in: the glued word is split into two listed parts.
    const lavrov = listed({ id: 'gb_hmt:lavrov-only', name: 'Sergei Lavrov' });
    const alone = ScreeningIndex.build([lavrov]);
    expect(ids(search('SergeiLavrov', { kind: 'person', on: alone }))).toEqual(['gb_hmt:lavrov-only']);
  });

  it('finds parts glued or split otherwise across an abjad transliteration, by their skeletons', () => {
    // Arabic writes the compound as one word where the list has two parts, and the other way round;
    // neither text nor a single part's skeleton reaches a term.
    const latin = ScreeningIndex.build([
      listed({ id: 'un_sc_sanctions:rahman', name: 'ABDUL RAHMAN' }),
      listed({ id: 'un_sc_sanctions:walijan', name: 'WALIJAN' }),
    ]);
    expect(ids(search('عبد الرحمن', { kind: 'person', on: latin }))).toEqual(['un_sc_sanctions:rahman']);
    expect(ids(search('ولی جان', { kind: 'person', on: latin }))).toEqual(['un_sc_sanctions:walijan']);
    // A part whose letters are written another way reaches its term under that reading (ض as z).
    const faiz = ScreeningIndex.build([listed({ id: 'un_sc_sanctions:faiz', name: 'FAIZ' })]);
    expect(ids(search('فيض', { kind: 'person', on: faiz }))).toEqual(['un_sc_sanctions:faiz']);
    // And from Latin parts to a compound listed in Arabic script.
    const arabic = ScreeningIndex.build([listed({ id: 'un_sc_sanctions:hamid', name: 'عبدالحميد' })]);
    expect(ids(search('Abdul Hamid', { kind: 'person', on: arabic }))).toEqual(['un_sc_sanctions:hamid']);
  });

  it('finds a name typed backwards, as the scorer reads it', () => {
    const putin = ScreeningIndex.build([
      listed({ id: 'eu_fsf:putin', name: 'Vladimir Vladimirovich PUTIN' }),
    ]);
    const [match] = search('nituP rimidalV', { kind: 'person', on: putin });
    expect(match?.entity.id).toBe('eu_fsf:putin');
    // Its parts then meet exactly, but the name as given did not: a reviewer is told it is fuzzy.
    expect(match?.explanation.matchType).toBe('fuzzy_name');
  });

  it('finds a name whose words are written without vowels, by their skeletons', () => {
    const putin = ScreeningIndex.build([
      listed({ id: 'eu_fsf:putin', name: 'Vladimir Vladimirovich PUTIN' }),
      listed({ id: 'test:popov', name: 'Vladimir POPOV' }),
    ]);
    expect(ids(search('Vldmr Ptn', { kind: 'person', on: putin }))).toEqual(['eu_fsf:putin']);
  });

  it('finds a compound name in Persian letters among namesakes, not only the names its halves reach', () => {
    // Four Shamsuddins make the compound the query's commonest part; the halves heard as words
    // (شمس shams, الدین eldin) reach rarer names. Read as words, they kept every Shamsuddin out.
    const shamsuddins = ['SHAMSUDDIN', 'Shamsuddin Haqqani', 'Shamsuddin Omari', 'Shamsuddin Rahimi'];
    const parties = ScreeningIndex.build([
      ...shamsuddins.map((name, i) => listed({ id: `un_sc_sanctions:shamsuddin-${i}`, name })),
      listed({ id: 'test:shams', name: 'Shams Karimi' }),
      listed({ id: 'test:eldin', name: 'Eldin Hodzic' }),
    ]);
    expect(ids(search('شمس الدین', { kind: 'person', on: parties }))).toContain(
      'un_sc_sanctions:shamsuddin-0',
    );
  });

  it('finds a Korean name with a slip of the key among names sharing its other syllables', () => {
    const koreans = ScreeningIndex.build(
      ['KIM JONG SIK', 'KIM SONG SIK', 'KIM JONG NAM', 'PAK HAN SE', 'KANG HAN SE'].map((name) =>
        listed({ id: `un_sc_sanctions:${name.toLowerCase().replaceAll(' ', '-')}`, name }),
      ),
    );
    const jong = search('Kim Jomg Sik', { kind: 'person', on: koreans });
    expect(ids(jong)).toEqual(['un_sc_sanctions:kim-jong-sik']);
    expect(jong[0]?.explanation.matchType).toBe('fuzzy_name');
    expect(ids(search('Psk Han Se', { kind: 'person', on: koreans }))).toEqual([
      'un_sc_sanctions:pak-han-se',
    ]);
  });

  it('finds an organisation from its acronym, not a person whose name has the letters', () => {
    const parties = ScreeningIndex.build([
      listed({ id: 'us_ofac_sdn:pla', name: "People's Liberation Army", kind: 'organization' }),
      listed({ id: 'us_ofac_sdn:nioc', name: 'National Iranian Oil Company', kind: 'company' }),
      listed({ id: 'us_ofac_sdn:person', name: 'Nadia Ivanova Orlova Chen' }),
    ]);
    // No part of the acronym is a term: only the letters a run of the name's words spells reach it.
    expect(ids(search('PLA', { on: parties }))).toEqual(['us_ofac_sdn:pla']);
    expect(ids(search('NIOC', { kind: 'company', on: parties }))).toEqual(['us_ofac_sdn:nioc']);
    // A person's name is not read as an acronym, either side.
    expect(ids(search('NIOC', { kind: 'person', on: parties }))).toEqual([]);
    // In a name written in small letters too, only a word in capitals is read as an acronym.
    expect(ids(search('Pla', { on: parties }))).toEqual([]);
    expect(ids(search('pla', { on: parties }))).toEqual(['us_ofac_sdn:pla']);
    // Two letters are not looked up: they spell too many names.
    const bank = ScreeningIndex.build([
      listed({ id: 'us_ofac_sdn:bank', name: 'Al-Aqsa Islamic Bank', kind: 'company' }),
    ]);
    expect(ids(search('AIB', { on: bank }))).toEqual(['us_ofac_sdn:bank']);
    expect(ids(search('Ib Albert Lassen', { on: bank }))).toEqual([]);
  });

  it('finds a number written otherwise ("250th" for "250")', () => {
    const funds = ScreeningIndex.build(
      Array.from({ length: 300 }, (_, i) =>
        listed({ id: `test:fund-${i + 1}`, name: `Fund ${i + 1}`, kind: 'company' }),
      ),
    );
    expect(ids(search('Fund 250th', { kind: 'company', on: funds }))).toEqual(['test:fund-250']);
  });

  it('finds a Latin-listed person from a Cyrillic query', () => {
    const matches = search('Виктор Янукович', { kind: 'person' });
    expect(ids(matches)).toEqual(['us_ofac_sdn:yanukovych']);
    expect(matches[0]!.explanation.matchType).toBe('transliterated_name');
  });

  it('finds an Arabic-script listed person from the Latin spelling', () => {
    const matches = search('Mohammed bin Salman', { kind: 'person' });
    expect(ids(matches)).toEqual(['eu_fsf:bin-salman']);
    expect(matches[0]!.explanation.matchType).toBe('transliterated_name');
    expect(matches[0]!.explanation.matchedName).toBe('محمد بن سلمان');
  });

  it('reads a listed name in Chinese characters as the direct comparison does, with the index alone', () => {
    const chinese = new ScreeningIndexBuilder();
    chinese.add(listed({ id: 'us_ofac_sdn:chen', name: '明輝 陳' }));
    const on = chinese.build();
    // 明輝 is Minghui: Mingguo is another given name (tokenSimilarity otherChineseSyllables), which
    // the index must know from its own tokens, as it keeps no name's full text for scoring.
    expect(search('Mingguo Chen', { kind: 'person', on })).toEqual([]);
    expect(ids(search('Minghui Chen', { kind: 'person', on }))).toEqual(['us_ofac_sdn:chen']);
  });

  it('finds a vessel by its IMO number under another name', () => {
    const matches = search('SEA PEARL', {
      kind: 'vessel',
      subject: { identifiers: [{ scheme: 'imo', value: '9123456' }] },
    });
    expect(ids(matches)).toEqual(['us_ofac_sdn:ocean-star']);
    expect(matches[0]!.explanation.matchType).toBe('identifier');
    expect(matches[0]!.explanation.score).toBeGreaterThanOrEqual(0.9);
    // Without the number the name alone finds nothing.
    expect(search('SEA PEARL', { kind: 'vessel' })).toEqual([]);
  });

  it('finds a vessel by an IMO number written with its label, labelled or not', () => {
    for (const identifier of [
      { scheme: 'imo', value: 'IMO 9123456' },
      { scheme: 'other', value: 'IMO 9123456' },
    ]) {
      const matches = search('SEA PEARL', { kind: 'vessel', subject: { identifiers: [identifier] } });
      expect(ids(matches)).toEqual(['us_ofac_sdn:ocean-star']);
      expect(matches[0]!.explanation.supportingFields.identifiers.status).toBe('agreed');
    }
  });

  it('finds the identifier holder only among parties of a compatible kind', () => {
    const asPerson = search('SEA PEARL', {
      kind: 'person',
      subject: { identifiers: [{ scheme: 'imo', value: '9123456' }] },
    });
    expect(asPerson).toEqual([]);
  });

  it('explains each match with the subject evidence', () => {
    const [match] = search('Viktor Yanukovych', {
      kind: 'person',
      subject: { birthDate: { year: 1950, month: 7, day: 9 }, countries: ['UA'] },
    });
    expect(match!.explanation.matchType).toBe('partial_name');
    expect(match!.explanation.supportingFields.birth_date.status).toBe('agreed');
    expect(match!.explanation.supportingFields.countries.status).toBe('agreed');
    expect(match!.explanation.matchedName).toBe('Viktor Fedorovych YANUKOVYCH');
  });
});

describe('ScreeningIndex.search: filters', () => {
  it('returns a PEP only to a pep check, and never a sanction-only party to a pep check', () => {
    expect(ids(search('Angela Merkel', { checkTypes: ['pep'] }))).toEqual(['everypolitician:merkel']);
    expect(search('Angela Merkel', { checkTypes: ['sanctions'] })).toEqual([]);
    expect(search('Ivan Petrov', { checkTypes: ['pep'] })).toEqual([]);
    expect(search('Viktor Yanukovych', { checkTypes: ['pep'] })).toEqual([]);
  });

  it('returns a debarred company only to a business entity risk check', () => {
    expect(
      ids(search('Acme Construction', { kind: 'company', checkTypes: ['business_entity_risk'] })),
    ).toEqual(['worldbank_debarred:acme']);
    expect(search('Acme Construction', { kind: 'company', checkTypes: ['sanctions', 'pep'] })).toEqual([]);
  });

  it('gives each match the check types its topics select', () => {
    const [lavrov] = search('Sergey Lavrov', { kind: 'person', checkTypes: ['pep'] });
    expect(lavrov!.entity.id).toBe('gb_hmt:lavrov');
    expect(lavrov!.checkTypes).toEqual(['sanctions', 'pep']);
    const [acme] = search('Acme Construction', { kind: 'company', checkTypes: ['business_entity_risk'] });
    expect(acme!.checkTypes).toEqual(['business_entity_risk']);
  });

  it("keeps only the profile's datasets", () => {
    const ofac = findProfile('us-ofac')!;
    expect(ids(search('Ivan Petrov', { profile: ofac }))).toEqual([
      'us_ofac_sdn:petrov',
      'us_ofac_sdn:petrov-llc',
    ]);
    expect(search('Angela Merkel', { profile: ofac })).toEqual([]);
    expect(search('Mohammed bin Salman', { profile: ofac })).toEqual([]);
  });

  it("keeps a party any of whose datasets is one of the profile's", () => {
    const aggregated = listed({
      id: 'opensanctions:aggregated-petrov',
      name: 'Pyotr Aggregatov',
      fields: { datasets: ['opensanctions', 'us_ofac_sdn'] },
    });
    const withAggregated = ScreeningIndex.build([...PARTIES, aggregated]);
    expect(ids(search('Pyotr Aggregatov', { profile: findProfile('us-ofac')!, on: withAggregated }))).toEqual(
      ['opensanctions:aggregated-petrov'],
    );
  });

  it('returns only parties of a kind the subject may be', () => {
    expect(ids(search('Ivan Petrov', { kind: 'person' }))).toEqual([
      'us_ofac_sdn:petrov',
      'eu_fsf:petrov',
      'opensanctions:petrov',
    ]);
    expect(ids(search('Ivan Petrov', { kind: 'company' }))).toEqual(['us_ofac_sdn:petrov-llc']);
    expect(ids(search('Ivan Petrov', { kind: 'organization' }))).toEqual(['us_ofac_sdn:petrov-llc']);
    expect(search('Ivan Petrov', { kind: 'vessel' })).toEqual([]);
    expect(search('Ivan Petrov', { kind: 'unknown' })).toHaveLength(4);
  });
});

describe('ScreeningIndex.search: order, limit, threshold', () => {
  it('returns the best first, ties by source priority, then by index order', () => {
    // Three persons and a company score 0.9; OFAC and EU (priority 1) before OpenSanctions (3),
    // and among priority 1 the order of indexing.
    expect(ids(search('Ivan Petrov'))).toEqual([
      'us_ofac_sdn:petrov',
      'eu_fsf:petrov',
      'us_ofac_sdn:petrov-llc',
      'opensanctions:petrov',
    ]);
  });

  it('lets other evidence lift a party above its namesakes', () => {
    const builder = new ScreeningIndexBuilder();
    for (const party of PARTIES) {
      builder.add(
        party.id === 'opensanctions:petrov' ? { ...party, birthDates: [{ from: '1971-04-02' }] } : party,
      );
    }
    const matches = search('Ivan Petrov', {
      kind: 'person',
      subject: { birthDate: { year: 1971, month: 4, day: 2 } },
      on: builder.build(),
    });
    expect(ids(matches)[0]).toBe('opensanctions:petrov');
    const scores = matches.map((m) => m.explanation.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeGreaterThan(scores[1]!);
  });

  it('sorts differing scores best first, whatever the order of indexing', () => {
    // Indexed worst first.
    const graded = ScreeningIndex.build([
      listed({ id: 'test:far', name: 'Ivan Sergeyevich Petrovsky' }),
      listed({ id: 'test:middle', name: 'Ivan Sergeyevich Petrov' }),
      listed({ id: 'test:typo', name: 'Ivan Petrow' }),
      listed({ id: 'test:exact', name: 'Ivan Petrov' }),
    ]);
    const matches = search('Ivan Petrov', { kind: 'person', threshold: 0, on: graded });
    expect(ids(matches)[0]).toBe('test:exact');
    const scores = matches.map((m) => m.explanation.score);
    expect(matches.length).toBeGreaterThanOrEqual(3);
    expect(new Set(scores).size).toBe(scores.length);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('returns at most `limit` matches, the best ones', () => {
    expect(ids(search('Ivan Petrov', { limit: 2 }))).toEqual(['us_ofac_sdn:petrov', 'eu_fsf:petrov']);
    expect(search('Ivan Petrov', { limit: 0 })).toEqual([]);
  });

  it("stops at the profile's maxMatches when no limit is given", () => {
    const narrow: ScreeningProfile = { ...defaultProfile(), maxMatches: 1 };
    expect(ids(search('Ivan Petrov', { profile: narrow }))).toEqual(['us_ofac_sdn:petrov']);
  });

  it('reports matches at or above the threshold only, the option overriding the profile', () => {
    const [typo] = search('Viktor Yanukovich', { kind: 'person' });
    const score = typo!.explanation.score;
    expect(search('Viktor Yanukovich', { kind: 'person', threshold: score - 0.001 })).toHaveLength(1);
    expect(search('Viktor Yanukovich', { kind: 'person', threshold: score + 0.001 })).toEqual([]);
    // The strict profile's threshold drops what the default reports for a partial company name.
    expect(ids(search('Rosneft', { kind: 'company' }))).toEqual(['us_ofac_sdn:rosneft']);
    expect(search('Rosneft', { kind: 'company', profile: findProfile('strict')! })).toEqual([]);
    expect(
      ids(search('Rosneft', { kind: 'company', profile: findProfile('strict')!, threshold: 0.5 })),
    ).toEqual(['us_ofac_sdn:rosneft']);
  });

  it('reports nothing with no name in common', () => {
    expect(search('Zbigniew Brzezinski', { threshold: 0 })).toEqual([]);
  });
});

describe('ScreeningIndex.search: snapshots', () => {
  it('carries the snapshot id each party was added with', () => {
    const snapshot = (name: string, kind: EntityKind) =>
      search(name, { kind }).map((m) => [m.entity.id, m.snapshotId]);
    expect(snapshot('Ivan Petrov', 'person')).toEqual([
      ['us_ofac_sdn:petrov', 'snapshot-ofac-1'],
      ['eu_fsf:petrov', 'snapshot-eu-3'],
      ['opensanctions:petrov', null],
    ]);
    expect(snapshot('Abdul Hai Mutmain', 'person')).toEqual([['un_sc_sanctions:mutmain', 'snapshot-un-7']]);
  });

  it('has no snapshot id for parties indexed without one', () => {
    const plain = ScreeningIndex.build(PARTIES);
    const matches = search('Ivan Petrov', { on: plain });
    expect(matches).toHaveLength(4);
    for (const match of matches) expect(match.snapshotId).toBeNull();
  });
});

describe('ScreeningIndex.search: a very common given name', () => {
  const syllables = ['ba', 'ko', 'ri', 'tu', 'ne', 'lo', 'ma', 'de', 'vi', 'gu'];
  const surnames: string[] = [];
  for (const a of syllables)
    for (const b of syllables) for (const c of syllables) surnames.push(`${a}${b}${c}`);
  const johns = surnames
    .slice(0, 300)
    .map((surname, i) =>
      listed({ id: `test:john-${i}`, name: `John ${surname[0]!.toUpperCase()}${surname.slice(1)}` }),
    );

  it('does not return 300 parties that share only "John" with the subject', () => {
    const crowd = ScreeningIndex.build(johns);
    expect(search('John Smithson', { kind: 'person', on: crowd })).toEqual([]);
  });

  it('finds the one John Smithson among them, and lets "John" add no other candidate', () => {
    const crowd = ScreeningIndex.build([...johns, listed({ id: 'test:smithson', name: 'John Smithson' })]);
    expect(ids(search('John Smithson', { kind: 'person', on: crowd }))).toEqual(['test:smithson']);
    // Even with no threshold: the common part only adds evidence to names the rare part found.
    expect(ids(search('John Smithson', { kind: 'person', on: crowd, threshold: 0 }))).toEqual([
      'test:smithson',
    ]);
  });
});

describe('ScreeningIndex.search: the rarer half of each reading of a name of unknown kind', () => {
  it("lets a person reading's one word bring in names, whatever the organisation reading has rarer", () => {
    // Read as a person's name, "ABU RUSDAN" is the particle Abu and "rusdan"; read as an
    // organisation's, "abu" is a word, rarer here than "rusdan" (one organisation, four persons).
    const parties = [
      listed({ id: 'test:rusdan', name: 'ABU RUSDAN' }),
      ...['Ali', 'Umar', 'Hasan'].map((given, i) => listed({ id: `test:r${i}`, name: `${given} Rusdan` })),
      listed({ id: 'test:trading', name: 'Abu Trading', kind: 'company' }),
    ];
    const crowd = ScreeningIndex.build(parties);
    expect(ids(search('ABU RUSDAN', { kind: 'unknown', on: crowd }))[0]).toBe('test:rusdan');
    expect(ids(search('ABU RUSDAN', { kind: 'person', on: crowd }))[0]).toBe('test:rusdan');
  });
});

describe('ScreeningIndex.search: reading names (Japanese in kanji, Korean in Cyrillic)', () => {
  const japanese = ScreeningIndex.build([
    listed({ id: 'test:abe', name: '安倍晋三' }),
    listed({ id: 'test:kishida', name: 'KISHIDA, Fumio' }),
    listed({ id: 'test:xi', name: 'Xi Jinping' }),
  ]);

  it('finds a name listed in kanji from its Hepburn spelling, and names it as listed', () => {
    const [match, ...rest] = search('Shinzo Abe', { kind: 'person', on: japanese });
    expect(rest).toEqual([]);
    expect(match!.entity.id).toBe('test:abe');
    expect(match!.explanation.matchedName).toBe('安倍晋三');
    expect(match!.explanation.matchType).toBe('transliterated_name');
    // The alignment shows the kanji parts the Latin ones met.
    const parts = match!.explanation.reason.name.alignment.map((part) => [part.subject, part.record]);
    expect(parts.sort()).toEqual([
      ['abe', '安倍'],
      ['shinzo', '晋三'],
    ]);
  });

  it('finds a name listed in Latin letters from the kanji, with long vowels written either way', () => {
    expect(ids(search('岸田文雄', { kind: 'person', on: japanese }))).toEqual(['test:kishida']);
    expect(ids(search('Shinzou Abe', { kind: 'person', on: japanese }))).toEqual(['test:abe']);
  });

  it('finds a Korean name written in Cyrillic from its Latin spelling, and the other way round', () => {
    const korean = ScreeningIndex.build([
      listed({ id: 'test:kju', name: 'Ким Чен Ын' }),
      listed({ id: 'test:kji', name: 'KIM Jong Il' }),
    ]);
    expect(ids(search('Kim Jong Un', { kind: 'person', on: korean }))).toEqual(['test:kju']);
    expect(ids(search('Ким Чен Ир', { kind: 'person', on: korean }))).toEqual(['test:kji']);
  });

  it('finds a Korean name listed in parts from the name in Hangul or Hanja written as one word', () => {
    const korean = ScreeningIndex.build([
      listed({ id: 'test:choe', name: 'CHOE, Ryong Hae' }),
      listed({ id: 'test:kim', name: 'KIM, Jong Un' }),
    ]);
    expect(ids(search('최룡해', { kind: 'person', on: korean }))).toEqual(['test:choe']);
    expect(ids(search('崔龍海', { kind: 'person', on: korean }))).toEqual(['test:choe']);
    expect(ids(search('金正恩', { kind: 'person', on: korean }))).toEqual(['test:kim']);
  });

  it('finds a Thai name from its RTGS spelling, and the other way round', () => {
    const thai = ScreeningIndex.build([
      listed({ id: 'test:prayut', name: 'ประยุทธ์ จันทร์โอชา' }),
      listed({ id: 'test:somchai', name: 'Somchai WONGSAWAT' }),
    ]);
    expect(ids(search('Prayut Chan-o-cha', { kind: 'person', on: thai }))).toEqual(['test:prayut']);
    expect(ids(search('สมชาย วงศ์สวัสดิ์', { kind: 'person', on: thai }))).toEqual(['test:somchai']);
  });

  it('leaves Chinese names to their Chinese reading', () => {
    expect(ids(search('习近平', { kind: 'person', on: japanese }))).toEqual(['test:xi']);
    expect(
      search('Tsuyoshi Ou', {
        kind: 'person',
        on: ScreeningIndex.build([listed({ id: 'test:wang', name: '王毅' })]),
      }),
    ).toEqual([]);
  });
});

describe('ScreeningIndex.search: foreign names in Chinese characters', () => {
  it('reaches a Latin spelling by its sound, and a transcribed name from its Latin spelling', () => {
    // No part meets by its text, key, metaphone codes or 3-grams (baolisi/boris, aosiben/osborne).
    const latin = ScreeningIndex.build([listed({ id: 'test:latin', name: 'George Osborne' })]);
    const chinese = ScreeningIndex.build([listed({ id: 'test:chinese', name: '鲍里斯·约翰逊' })]);
    expect(ids(search('乔治·奥斯本', { kind: 'person', on: latin }))).toEqual(['test:latin']);
    expect(ids(search('Boris Johnson', { kind: 'person', on: chinese }))).toEqual(['test:chinese']);
    expect(ids(search('Boris Becker', { kind: 'person', on: chinese }))).toEqual([]);
  });

  it('does the same for foreign names in Hangul', () => {
    const latin = ScreeningIndex.build([listed({ id: 'test:latin', name: 'Philip Hammond' })]);
    const hangul = ScreeningIndex.build([listed({ id: 'test:hangul', name: '테드 크루즈' })]);
    expect(ids(search('필립 해먼드', { kind: 'person', on: latin }))).toEqual(['test:latin']);
    expect(ids(search('Ted Cruz', { kind: 'person', on: hangul }))).toEqual(['test:hangul']);
  });

  it('does the same for foreign names in Cyrillic', () => {
    const latin = ScreeningIndex.build([listed({ id: 'test:latin', name: 'John Hoeven' })]);
    const cyrillic = ScreeningIndex.build([listed({ id: 'test:cyrillic', name: 'Джеймс Уортон' })]);
    expect(ids(search('Хувен, Джон', { kind: 'person', on: latin }))).toEqual(['test:latin']);
    expect(ids(search('James Wharton', { kind: 'person', on: cyrillic }))).toEqual(['test:cyrillic']);
    expect(ids(search('James Horton', { kind: 'person', on: cyrillic }))).toEqual([]);
  });
});

describe('ScreeningIndex.search: foreign names in katakana', () => {
  it('finds a name listed in katakana from its Latin spelling, and the other way round', () => {
    const katakana = ScreeningIndex.build([
      listed({ id: 'test:cruz', name: 'テッド・クルーズ' }),
      listed({ id: 'test:nelson', name: 'Bill Nelson' }),
    ]);
    expect(ids(search('Ted Cruz', { kind: 'person', on: katakana }))).toEqual(['test:cruz']);
    expect(ids(search('ビル・ネルソン', { kind: 'person', on: katakana }))).toEqual(['test:nelson']);
  });

  it('reaches an English spelling no reading equals, by the sound katakana writes (both ways)', () => {
    // Neither part of the name meets by its spelling, its metaphone codes or a reading (mark/mak,
    // warner/wona): only by the sound.
    const latin = ScreeningIndex.build([listed({ id: 'test:latin', name: 'Mark Warner' })]);
    const katakana = ScreeningIndex.build([listed({ id: 'test:katakana', name: 'マーク・ウォーナー' })]);
    expect(ids(search('マーク・ウォーナー', { kind: 'person', on: latin }))).toEqual(['test:latin']);
    expect(ids(search('Mark Warner', { kind: 'person', on: katakana }))).toEqual(['test:katakana']);
  });
});
