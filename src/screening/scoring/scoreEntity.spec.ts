import { describe, expect, it } from 'vitest';
import { listedParty } from '../../../test/support/listedEntities.js';
import { prepareName } from '../matching/preparedName.js';
import type { Fuzziness } from '../matching/tokenSimilarity.js';
import type { EntityIdentifier, EntityKind, EntityName, ListedEntity } from '../model/listedEntity.js';
import type { ScreeningSubject } from './query.js';
import {
  explainMatch,
  type MatchExplanation,
  PreparedSubject,
  prepareEntity,
  scoreEntity,
  scoreNames,
} from './scoreEntity.js';
import { MAX_EVIDENCE_GAIN, nameOnlyScore, SCORE_WEIGHTS } from './scoreWeights.js';

const FUZZ: Fuzziness = { budgetFactor: 1, phonetic: true };

/** A listed party: a person named Viktor Yanukovych unless told otherwise. */
function listed(
  fields: Partial<Omit<ListedEntity, 'names'>> & { names?: (string | EntityName)[] } = {},
): ListedEntity {
  const { names = ['Viktor Yanukovych'], ...rest } = fields;
  return listedParty('test:1', [], {
    names: names.map((name) => (typeof name === 'string' ? { full: name, kind: 'primary' } : name)),
    sources: [],
    sourceRecordRef: 'test-1',
    ...rest,
  });
}

function subject(name: string, fields: Partial<ScreeningSubject> = {}): PreparedSubject {
  return new PreparedSubject({ name, kind: 'person', countries: [], identifiers: [], ...fields });
}

function score(query: PreparedSubject, entity: ListedEntity): number {
  return scoreEntity(query, prepareEntity(entity), FUZZ).score;
}

function explain(query: PreparedSubject, entity: ListedEntity): MatchExplanation {
  return explainMatch(query, prepareEntity(entity), FUZZ);
}

const born = (text: string) => {
  const [year, month, day] = text.split('-').map(Number);
  return { year: year!, ...(month !== undefined && { month }), ...(day !== undefined && { day }) };
};
const imo = (value: string): EntityIdentifier => ({ scheme: 'imo', value });
const sum = (match: MatchExplanation) =>
  [...match.reason.scored, ...match.reason.penalised].reduce((total, c) => total + c.value, 0);

describe('scoreEntity: calibration', () => {
  const party = listed({ birthDates: [{ from: '1950-07-09' }], countries: ['UA'] });

  it('scores an exact name alone 0.9, not 1', () => {
    expect(score(subject('Viktor Yanukovych'), party)).toBeCloseTo(0.9, 10);
    expect(score(subject('Viktor Yanukovych'), party)).toBeCloseTo(nameOnlyScore(1), 10);
  });

  it('ranks exact name + birth date > exact name + birth year > exact name alone > a typo alone', () => {
    const withDate = score(subject('Viktor Yanukovych', { birthDate: born('1950-07-09') }), party);
    const withYear = score(subject('Viktor Yanukovych', { birthDate: born('1950') }), party);
    const nameOnly = score(subject('Viktor Yanukovych'), party);
    const typo = score(subject('Viktor Yanukovich'), party);
    expect(withDate).toBeGreaterThan(withYear);
    expect(withYear).toBeGreaterThan(nameOnly);
    expect(nameOnly).toBeGreaterThan(typo);
    expect(typo).toBeGreaterThanOrEqual(nameOnlyScore(0.7));
  });

  it('adds the birth-date weight of each outcome to the name', () => {
    const at = (date: string) => score(subject('Viktor Yanukovych', { birthDate: born(date) }), party);
    expect(at('1950-07-09')).toBeCloseTo(0.9 + SCORE_WEIGHTS.birthDate.exact, 10);
    expect(at('1950-07')).toBeCloseTo(0.9 + SCORE_WEIGHTS.birthDate.month, 10);
    expect(at('1950')).toBeCloseTo(0.9 + SCORE_WEIGHTS.birthDate.year, 10);
    expect(at('1950-09-07')).toBeCloseTo(0.9 + SCORE_WEIGHTS.birthDate.swapped, 10);
    expect(at('1951')).toBeCloseTo(0.9, 10);
    expect(at('1950-07-10')).toBeCloseTo(0.8, 10);
  });

  it('takes 0.2 off an exact name for a different birth year', () => {
    const nameOnly = score(subject('Viktor Yanukovych'), party);
    const otherYear = score(subject('Viktor Yanukovych', { birthDate: born('1975-07-09') }), party);
    expect(nameOnly - otherYear).toBeCloseTo(0.2, 10);
    expect(otherYear).toBeCloseTo(0.7, 10);
  });

  it('adds a little for a shared country and takes more for none shared', () => {
    expect(score(subject('Viktor Yanukovych', { countries: ['UA'] }), party)).toBeCloseTo(0.93, 10);
    expect(score(subject('Viktor Yanukovych', { countries: ['PL'] }), party)).toBeCloseTo(0.8, 10);
    expect(score(subject('Viktor Yanukovych', { countries: ['PL', 'UA'] }), party)).toBeCloseTo(0.93, 10);
  });

  it('treats missing evidence as neutral', () => {
    const bare = listed();
    const query = subject('Viktor Yanukovych', {
      birthDate: born('1950-07-09'),
      countries: ['UA'],
      identifiers: [{ scheme: 'passport', value: 'EC123456' }],
    });
    expect(score(query, bare)).toBeCloseTo(0.9, 10);
  });

  it('scores a weak alias alone below the same name as the primary name', () => {
    const asPrimary = listed({ names: ['Viktor Yanukovych'] });
    const asWeak = listed({
      names: ['Ivan Ivanovich Sidorenko', { full: 'Viktor Yanukovych', kind: 'weak' }],
    });
    const strong = score(subject('Viktor Yanukovych'), asPrimary);
    const weak = score(subject('Viktor Yanukovych'), asWeak);
    expect(weak).toBeLessThan(strong);
    expect(weak).toBeCloseTo(0.9 * SCORE_WEIGHTS.weakAlias, 10);
  });

  it('counts a strong alias or former name like the primary name', () => {
    for (const kind of ['alias', 'previous'] as const) {
      const party = listed({ names: ['Ivan Ivanovich Sidorenko', { full: 'Viktor Yanukovych', kind }] });
      expect(score(subject('Viktor Yanukovych'), party), kind).toBeCloseTo(0.9, 10);
    }
  });

  it('makes an agreeing identifier at least 0.9, even with a different name (renamed vessel)', () => {
    const vessel = listed({ kind: 'vessel', names: ['OCEAN STAR'], identifiers: [imo('9123456')] });
    const renamed = new PreparedSubject({
      name: 'SEA PEARL',
      kind: 'vessel',
      countries: [],
      identifiers: [imo('9123456')],
    });
    const unrelated = new PreparedSubject({
      name: 'SEA PEARL',
      kind: 'vessel',
      countries: [],
      identifiers: [],
    });
    expect(score(unrelated, vessel)).toBe(0);
    expect(score(renamed, vessel)).toBeGreaterThanOrEqual(0.9);
    // Even with a country conflict on top.
    expect(
      score(new PreparedSubject({ ...renamed.subject, countries: ['PA'] }), { ...vessel, countries: ['KP'] }),
    ).toBeGreaterThanOrEqual(0.9);
  });

  it('takes 0.3 off for a different number of a unique scheme', () => {
    const vessel = listed({ kind: 'vessel', names: ['OCEAN STAR'], identifiers: [imo('9123456')] });
    const other = new PreparedSubject({
      name: 'Ocean Star',
      kind: 'vessel',
      countries: [],
      identifiers: [imo('9654321')],
    });
    expect(score(other, vessel)).toBeCloseTo(0.6, 10);
  });

  it('keeps scores within [0, 1]', () => {
    const everything = listed({
      birthDates: [{ from: '1950-07-09' }],
      countries: ['UA'],
      identifiers: [{ scheme: 'inn', value: '7702070139' }],
    });
    const agreeing = subject('Viktor Yanukovych', {
      birthDate: born('1950-07-09'),
      countries: ['UA'],
      identifiers: [{ scheme: 'inn', value: '7702070139' }],
    });
    expect(score(agreeing, everything)).toBe(1);

    const unrelated = listed({
      names: ['Ivan Sidorenko'],
      birthDates: [{ from: '1950-07-09' }],
      countries: ['UA'],
      identifiers: [{ scheme: 'inn', value: '7702070139' }],
    });
    const disagreeing = subject('Viktor Yanukovych', {
      birthDate: born('1980'),
      countries: ['FR'],
      identifiers: [{ scheme: 'inn', value: '5001002003' }],
    });
    // No name in common and every piece of evidence against: -0.6 before clamping.
    expect(score(disagreeing, unrelated)).toBe(0);
    expect(explain(disagreeing, unrelated).score).toBe(0);
  });

  it('bounds what evidence besides the name can add by MAX_EVIDENCE_GAIN (the index relies on it)', () => {
    const everything = listed({
      names: ['Ivan Sidorenko', { full: 'Viktor Yanukovych', kind: 'weak' }],
      birthDates: [{ from: '1950-07-09' }],
      countries: ['UA'],
      identifiers: [{ scheme: 'passport', value: 'EC123456' }],
    });
    // A weak alias keeps the sum below the clamp.
    const nameOnly = score(subject('Viktor Yanukovych'), everything);
    const best = score(
      subject('Viktor Yanukovych', {
        birthDate: born('1950-07-09'),
        countries: ['UA'],
        identifiers: [{ scheme: 'passport', value: 'EC 123456' }],
      }),
      everything,
    );
    expect(nameOnly + MAX_EVIDENCE_GAIN).toBeLessThan(1);
    expect(best).toBeCloseTo(nameOnly + MAX_EVIDENCE_GAIN, 10);
    for (const gain of Object.values(SCORE_WEIGHTS.birthDate)) {
      expect(gain).toBeLessThanOrEqual(SCORE_WEIGHTS.birthDate.exact);
    }
  });
});

describe('scoreNames', () => {
  const names = (kind: EntityKind, ...entries: EntityName[]) =>
    entries.map((name) => prepareName(name, kind));

  it('picks the best of the names and says which one', () => {
    const candidates = names(
      'person',
      { full: 'Ivan Sidorenko', kind: 'primary' },
      { full: 'Viktor Yanukovich', kind: 'alias' },
      { full: 'Viktor Yanukovych', kind: 'alias' },
    );
    expect(scoreNames(subject('Viktor Yanukovych'), 'person', candidates, FUZZ)).toEqual({
      nameScore: 1,
      nameIndex: 2,
    });
  });

  it('prefers a strong name to an equally good weak alias, in either order', () => {
    const weakFirst = names(
      'person',
      { full: 'Viktor Yanukovych', kind: 'weak' },
      { full: 'Viktor Yanukovych', kind: 'alias' },
    );
    expect(scoreNames(subject('Viktor Yanukovych'), 'person', weakFirst, FUZZ)).toEqual({
      nameScore: 1,
      nameIndex: 1,
    });
    const strongFirst = [...weakFirst].reverse();
    expect(scoreNames(subject('Viktor Yanukovych'), 'person', strongFirst, FUZZ)).toEqual({
      nameScore: 1,
      nameIndex: 0,
    });
  });

  it('gives 0 for a party with no names', () => {
    expect(scoreNames(subject('Viktor Yanukovych'), 'person', [], FUZZ)).toEqual({
      nameScore: 0,
      nameIndex: 0,
    });
  });
});

describe('PreparedSubject', () => {
  it('reads a subject of unknown kind as the kind of the party it is compared with', () => {
    const unknown = new PreparedSubject({
      name: 'YANUKOVYCH, Viktor',
      kind: 'unknown',
      countries: [],
      identifiers: [],
    });
    expect(score(unknown, listed())).toBeCloseTo(0.9, 10);
    // Read as an organisation's name, the comma does not reorder it.
    const asCompany = listed({ kind: 'company', names: ['Viktor Yanukovych'] });
    expect(score(unknown, asCompany)).toBeLessThan(0.9);
  });

  it('keeps its own kind when it has one', () => {
    const person = subject('YANUKOVYCH, Viktor');
    expect(person.namesFor('company')[0]!.nameClass).toBe('person');
  });
});

describe('explainMatch: match types', () => {
  it('exact_name for the same parts, also in another order or case', () => {
    expect(explain(subject('Viktor Yanukovych'), listed()).matchType).toBe('exact_name');
    expect(explain(subject('YANUKOVYCH, Viktor'), listed()).matchType).toBe('exact_name');
  });

  it('partial_name when a middle name is missing on one side', () => {
    const full = listed({ names: ['Viktor Fedorovych Yanukovych'] });
    expect(explain(subject('Viktor Yanukovych'), full).matchType).toBe('partial_name');
    expect(explain(subject('Viktor Fedorovych Yanukovych'), listed()).matchType).toBe('partial_name');
  });

  it('fuzzy_name for a typo', () => {
    expect(explain(subject('Viktor Yanukovich'), listed()).matchType).toBe('fuzzy_name');
    expect(explain(subject('Vlktor Yanukovych'), listed()).matchType).toBe('fuzzy_name');
  });

  it('transliterated_name for a Cyrillic or Arabic listed name', () => {
    const cyrillic = listed({ names: ['Виктор Янукович'] });
    const cyrillicMatch = explain(subject('Viktor Yanukovych'), cyrillic);
    expect(cyrillicMatch.matchType).toBe('transliterated_name');
    expect(cyrillicMatch.matchedName).toBe('Виктор Янукович');

    const arabic = listed({ names: ['محمد بن سلمان'] });
    const arabicMatch = explain(subject('Mohammed bin Salman'), arabic);
    expect(arabicMatch.matchType).toBe('transliterated_name');
    expect(arabicMatch.score).toBeGreaterThanOrEqual(nameOnlyScore(0.7));
  });

  it('transliterated_name for a Cyrillic subject against a Latin listed name', () => {
    expect(explain(subject('Виктор Янукович'), listed()).matchType).toBe('transliterated_name');
  });

  it('weak_alias when the best name is a weak alias, however exact', () => {
    const party = listed({ names: ['Ivan Sidorenko', { full: 'Viktor Yanukovych', kind: 'weak' }] });
    const match = explain(subject('Viktor Yanukovych'), party);
    expect(match.matchType).toBe('weak_alias');
    expect(match.matchedName).toBe('Viktor Yanukovych');
    expect(match.reason.name.matched_name_kind).toBe('weak');
  });

  it('identifier when an identifier agrees and the name does not carry the match', () => {
    const vessel = listed({ kind: 'vessel', names: ['OCEAN STAR'], identifiers: [imo('9123456')] });
    const query = new PreparedSubject({
      name: 'SEA PEARL',
      kind: 'vessel',
      countries: [],
      identifiers: [imo('9123456')],
    });
    const match = explain(query, vessel);
    expect(match.matchType).toBe('identifier');
    expect(match.supportingFields.identifiers).toEqual({
      status: 'agreed',
      subject: ['imo:9123456'],
      record: ['imo:9123456'],
    });
    // The name does not agree; the identifier alone lifts the score to its floor, and says so.
    expect(match.supportingFields.name.status).toBe('disagreed');
    expect(sum(match)).toBeCloseTo(match.score, 2);
    expect(match.reason.scored.find((c) => c.feature === 'identifier')!.value).toBeCloseTo(0.9, 2);
  });

  it('keeps exact_name when the identifier also agrees with an exact name', () => {
    const vessel = listed({ kind: 'vessel', names: ['OCEAN STAR'], identifiers: [imo('9123456')] });
    const query = new PreparedSubject({
      name: 'Ocean Star',
      kind: 'vessel',
      countries: [],
      identifiers: [imo('9123456')],
    });
    expect(explain(query, vessel).matchType).toBe('exact_name');
  });
});

describe('explainMatch: reason', () => {
  const party = listed({
    names: ['Viktor Fedorovych Yanukovych'],
    birthDates: [{ from: '1950-07-09' }],
    countries: ['UA', 'RU'],
  });
  it('lists the features that raised the score, largest first, and those that lowered it', () => {
    const match = explain(
      subject('Viktor Yanukovych', { birthDate: born('1950-07-09'), countries: ['PL'] }),
      party,
    );
    expect(match.reason.scored.map((c) => c.feature)).toEqual(['name', 'birth_date']);
    expect(match.reason.penalised.map((c) => c.feature)).toEqual(['country']);
    expect(match.reason.scored[1]).toEqual({
      feature: 'birth_date',
      value: 0.06,
      detail: 'birth date exact',
    });
    expect(match.reason.penalised[0]).toEqual({
      feature: 'country',
      value: -0.1,
      detail: 'no shared country',
    });
    expect(match.reason.summary).toBe(
      `${match.reason.scored[0]!.detail}; birth date exact; no shared country`,
    );
  });

  it('puts a different birth year among the penalties and a shared country among the gains', () => {
    const match = explain(
      subject('Viktor Yanukovych', { birthDate: born('1970'), countries: ['RU'] }),
      party,
    );
    expect(match.reason.scored.map((c) => c.feature)).toEqual(['name', 'country']);
    expect(match.reason.scored[1]!.detail).toBe('shared country RU');
    expect(match.reason.penalised).toEqual([
      { feature: 'birth_date', value: -0.2, detail: 'birth date year conflict' },
    ]);
  });

  it('leaves neutral (missing) evidence out of both lists', () => {
    const match = explain(subject('Viktor Yanukovych'), party);
    expect(match.reason.scored.map((c) => c.feature)).toEqual(['name']);
    expect(match.reason.penalised).toEqual([]);
  });

  it('has contributions that add up to the score before clamping', () => {
    const cases = [
      subject('Viktor Yanukovych'),
      subject('Viktor Yanukovich', { birthDate: born('1950-07') }),
      subject('Viktor Yanukovych', { birthDate: born('1970'), countries: ['PL'] }),
      subject('Viktor Fedorovych Yanukovych', { birthDate: born('1950-07-09'), countries: ['UA'] }),
    ];
    for (const query of cases) {
      const match = explain(query, party);
      expect(sum(match), query.subject.name).toBeCloseTo(match.score, 2);
    }
    // Above 1, the contributions still show what was added; the score is clamped.
    const over = explain(
      subject('Viktor Fedorovych Yanukovych', {
        birthDate: born('1950-07-09'),
        countries: ['UA'],
        identifiers: [{ scheme: 'passport', value: 'EC123456' }],
      }),
      { ...party, identifiers: [{ scheme: 'passport', value: 'EC123456' }] },
    );
    expect(over.score).toBe(1);
    expect(sum(over)).toBeCloseTo(0.9 + 0.06 + 0.03 + 0.1, 2);
  });

  it('gives the name contribution as the name weight times the name score', () => {
    const match = explain(subject('Viktor Yanukovych'), party);
    const name = match.reason.scored.find((c) => c.feature === 'name')!;
    expect(name.value).toBeCloseTo(SCORE_WEIGHTS.name * match.reason.name.score, 2);
    expect(match.reason.name.score).toBeLessThan(1);
    expect(name.detail).toContain('"Viktor Fedorovych Yanukovych"');
  });

  it('shows the alignment of the name parts', () => {
    const match = explain(subject('Viktor Yanukovych'), party);
    expect(match.reason.name.subject_name).toBe('Viktor Yanukovych');
    expect(match.reason.name.matched_name).toBe('Viktor Fedorovych Yanukovych');
    const byRecord = new Map(match.reason.name.alignment.map((part) => [part.record, part]));
    expect(byRecord.get('viktor')).toMatchObject({ subject: 'viktor', kind: 'exact', score: 1 });
    expect(byRecord.get('yanukovych')).toMatchObject({ subject: 'yanukovych', kind: 'exact', score: 1 });
    expect(byRecord.get('fedorovych')).toMatchObject({ subject: null });
  });
});

describe('explainMatch: supporting fields', () => {
  const party = listed({
    birthDates: [{ from: '1950-07-09' }, { from: '1949', to: '1951' }],
    countries: ['UA'],
    identifiers: [{ scheme: 'passport', value: 'EC123456' }],
  });

  it('agrees on every field that agrees', () => {
    const match = explain(
      subject('Viktor Yanukovych', {
        birthDate: born('1950-07-09'),
        countries: ['UA'],
        identifiers: [{ scheme: 'passport', value: 'ec 123456' }],
      }),
      party,
    );
    expect(match.supportingFields).toEqual({
      name: {
        status: 'agreed',
        subject: 'Viktor Yanukovych',
        record: 'Viktor Yanukovych',
        detail: 'exact_name',
      },
      type: { status: 'agreed', subject: 'person', record: 'person' },
      birth_date: {
        status: 'agreed',
        subject: '1950-07-09',
        record: ['1950-07-09', '1949/1951'],
        detail: 'exact',
      },
      countries: { status: 'agreed', subject: ['UA'], record: ['UA'] },
      identifiers: { status: 'agreed', subject: ['passport:ec 123456'], record: ['passport:EC123456'] },
    });
  });

  it('partially agrees on a near or swapped birth date and on a partial or fuzzy name', () => {
    const near = explain(subject('Viktor Yanukovich', { birthDate: born('1952') }), party);
    expect(near.supportingFields.birth_date).toMatchObject({ status: 'partially_agreed', detail: 'near' });
    expect(near.supportingFields.name).toMatchObject({ status: 'partially_agreed', detail: 'fuzzy_name' });
    // Only the exact date: the listed range 1949-1951 would agree on the year, which is stronger.
    const swapped = explain(subject('Viktor Fedorovych Yanukovych', { birthDate: born('1950-09-07') }), {
      ...party,
      birthDates: [{ from: '1950-07-09' }],
    });
    expect(swapped.supportingFields.birth_date).toMatchObject({
      status: 'partially_agreed',
      detail: 'swapped',
    });
    expect(swapped.supportingFields.name).toMatchObject({
      status: 'partially_agreed',
      detail: 'partial_name',
    });
  });

  it('disagrees on a conflicting birth date and countries', () => {
    const match = explain(
      subject('Viktor Yanukovych', { birthDate: born('1970'), countries: ['FR'] }),
      party,
    );
    expect(match.supportingFields.birth_date).toMatchObject({ status: 'disagreed', detail: 'year_conflict' });
    expect(match.supportingFields.countries).toEqual({
      status: 'disagreed',
      subject: ['FR'],
      record: ['UA'],
    });
    const sameYear = explain(
      subject('Viktor Yanukovych', { birthDate: born('1950-08-01') }),
      listed({ birthDates: [{ from: '1950-07-09' }] }),
    );
    expect(sameYear.supportingFields.birth_date).toMatchObject({
      status: 'disagreed',
      detail: 'day_conflict',
    });
  });

  it('disagrees on a different vessel number', () => {
    const vessel = listed({ kind: 'vessel', names: ['OCEAN STAR'], identifiers: [imo('9123456')] });
    const query = new PreparedSubject({
      name: 'Ocean Star',
      kind: 'vessel',
      countries: [],
      identifiers: [imo('9654321')],
    });
    const match = explain(query, vessel);
    expect(match.supportingFields.identifiers.status).toBe('disagreed');
    expect(match.reason.penalised).toEqual([
      { feature: 'identifier', value: -0.3, detail: 'identifier differs: imo:9123456' },
    ]);
  });

  it('reports what the subject did not give as missing, and an unknown kind as missing', () => {
    const query = new PreparedSubject({
      name: 'Viktor Yanukovych',
      kind: 'unknown',
      countries: [],
      identifiers: [],
    });
    const match = explain(query, party);
    expect(match.supportingFields.birth_date).toEqual({
      status: 'missing',
      subject: null,
      record: ['1950-07-09', '1949/1951'],
      detail: 'missing',
    });
    expect(match.supportingFields.countries.status).toBe('missing');
    expect(match.supportingFields.identifiers).toEqual({
      status: 'missing',
      subject: [],
      record: ['passport:EC123456'],
    });
    expect(match.supportingFields.type).toEqual({ status: 'missing', subject: 'unknown', record: 'person' });
  });

  it('reports a different passport number as missing, not disagreed', () => {
    const match = explain(
      subject('Viktor Yanukovych', { identifiers: [{ scheme: 'passport', value: 'XY999999' }] }),
      party,
    );
    expect(match.supportingFields.identifiers.status).toBe('missing');
    expect(match.score).toBeCloseTo(0.9, 3);
  });
});

describe('explainMatch and scoreEntity agree', () => {
  it('explains the score scoreEntity gives, rounded to three decimals', () => {
    const party = listed({ names: ['Viktor Fedorovych Yanukovych'], birthDates: [{ from: '1950' }] });
    const query = subject('Viktor Yanukovich', { birthDate: born('1951') });
    const scored = scoreEntity(query, prepareEntity(party), FUZZ);
    const match = explain(query, party);
    expect(match.score).toBe(Math.round(scored.score * 1000) / 1000);
    expect(match.reason.name.score).toBe(Math.round(scored.nameScore * 1000) / 1000);
  });
});
