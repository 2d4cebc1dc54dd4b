import { describe, expect, it } from 'vitest';
import { parseSubjectBirthDate, type ScreeningSubject } from './query.js';
import { SCORE_WEIGHTS } from './scoreWeights.js';
import { type FeatureInput, featureScore, SCORING_FEATURES, scoreFeatures } from './scoringFeatures.js';

function input(
  nameScore: number,
  subject: Partial<ScreeningSubject> = {},
  entity: Partial<FeatureInput['entity']> = {},
): FeatureInput {
  return {
    nameScore,
    subject: { name: 'x', kind: 'person', countries: [], identifiers: [], ...subject },
    entity: { kind: 'person', birthDates: [], countries: [], identifiers: [], ...entity },
  };
}

const featureValue = (outcomes: ReturnType<typeof scoreFeatures>, name: string) =>
  outcomes.find((outcome) => outcome.feature === name)?.value;

describe('the scoring feature table', () => {
  it('holds each kind of evidence once, with the name and an identifier able to carry a match and the rest qualifiers', () => {
    expect(SCORING_FEATURES.map((feature) => [feature.name, feature.qualifier])).toEqual([
      ['name', false],
      ['birth_date', true],
      ['country', true],
      ['identifier', false],
    ]);
  });

  it('weighs each comparison: the name by its score, the others by their outcome', () => {
    const outcomes = scoreFeatures(
      input(
        0.8,
        { birthDate: parseSubjectBirthDate('1960'), countries: ['RU'] },
        {
          birthDates: [{ from: '1970-01-01' }],
          countries: ['UA'],
        },
      ),
    );
    expect(featureValue(outcomes, 'name')).toBeCloseTo(SCORE_WEIGHTS.name * 0.8, 12);
    expect(featureValue(outcomes, 'birth_date')).toBe(SCORE_WEIGHTS.birthDate.year_conflict);
    expect(featureValue(outcomes, 'country')).toBe(SCORE_WEIGHTS.country.conflict);
    expect(featureValue(outcomes, 'identifier')).toBe(0);
    expect(outcomes.find((outcome) => outcome.feature === 'birth_date')?.detail).toBe(
      'birth date year conflict',
    );
    expect(outcomes.find((outcome) => outcome.feature === 'country')?.detail).toBe('no shared country');
  });

  it("lifts a weak name to the identifier's floor, and counts the lift as the identifier's value", () => {
    const imo = [{ scheme: 'imo', value: 'IMO 9187629' }];
    const outcomes = scoreFeatures(
      input(0.2, { identifiers: [{ scheme: 'imo', value: '9187629' }] }, { identifiers: imo }),
    );
    const sum = outcomes.reduce((total, outcome) => total + outcome.value, 0);
    expect(sum).toBeCloseTo(SCORE_WEIGHTS.identifierFloor, 12);
    expect(featureValue(outcomes, 'identifier')).toBeCloseTo(
      SCORE_WEIGHTS.identifierFloor - SCORE_WEIGHTS.name * 0.2,
      12,
    );
    expect(
      featureScore(input(0.2, { identifiers: [{ scheme: 'imo', value: '9187629' }] }, { identifiers: imo })),
    ).toBeCloseTo(SCORE_WEIGHTS.identifierFloor, 12);
  });

  it('adds up to the score it reports, clamped to [0, 1]', () => {
    const cases = [
      input(
        1,
        { birthDate: parseSubjectBirthDate('1950-07-09'), countries: ['UA'] },
        {
          birthDates: [{ from: '1950-07-09' }],
          countries: ['UA'],
          identifiers: [{ scheme: 'passport', value: 'AB1' }],
        },
      ),
      input(0.1, { birthDate: parseSubjectBirthDate('1900') }, { birthDates: [{ from: '1990-01-01' }] }),
      input(0.93),
    ];
    for (const each of cases) {
      const sum = scoreFeatures(each).reduce((total, outcome) => total + outcome.value, 0);
      expect(featureScore(each)).toBeCloseTo(Math.min(1, Math.max(0, sum)), 12);
    }
    expect(featureScore(cases[1]!)).toBe(0);
  });
});
