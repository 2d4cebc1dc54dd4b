import { describe, expect, it } from 'vitest';
import { scoreNamePair } from './comparePair.js';
import { defaultProfile, findProfile } from './profiles.js';
import { nameOnlyScore } from './scoreWeights.js';

const standard = defaultProfile();
const strict = findProfile('strict')!;
const broad = findProfile('broad')!;

describe('scoreNamePair', () => {
  it('scores an exact name as a screening would with no other evidence: 0.9, a match', () => {
    expect(scoreNamePair('person', 'Vladimir Putin', 'PUTIN, Vladimir', standard)).toEqual({
      score: nameOnlyScore(1),
      match: true,
    });
  });

  it('rounds the score to three decimals', () => {
    const { score } = scoreNamePair('person', 'Vladimir Putn', 'Vladimir Putin', standard);
    expect(score).toBeLessThan(0.9);
    expect(Math.round(score * 1000) / 1000).toBe(score);
  });

  it('rejects a different family name under every profile, and unrelated names score 0', () => {
    for (const profile of [standard, strict, broad]) {
      expect(scoreNamePair('person', 'Ivan Petrov', 'Ivan Sidorov', profile).match).toBe(false);
      expect(scoreNamePair('person', 'Vladimir Putin', 'Sergey Lavrov', profile)).toEqual({
        score: 0,
        match: false,
      });
    }
  });

  it('decides at the profile threshold: a partial company name passes default and broad, not strict', () => {
    const pair = (profile = standard) => scoreNamePair('company', 'Rosneft', 'Rosneft Oil Company', profile);
    const { score } = pair();
    expect(score).toBeGreaterThanOrEqual(standard.threshold);
    expect(score).toBeLessThan(strict.threshold);
    expect(pair(broad).match).toBe(true);
    expect(pair(standard).match).toBe(true);
    expect(pair(strict).match).toBe(false);
  });

  it("uses the profile's fuzziness: a dropped letter matches by default but not under strict", () => {
    const typo = (profile = standard) => scoreNamePair('person', 'Vladimir Putn', 'Vladimir Putin', profile);
    expect(typo(standard).match).toBe(true);
    expect(typo(strict).match).toBe(false);
    expect(typo(strict).score).toBeLessThan(typo(standard).score);
  });

  it('reads both names as the given kind', () => {
    // A person's "SURNAME, Given" is only reordered when the names are read as persons.
    expect(scoreNamePair('person', 'YANUKOVYCH, Viktor', 'Viktor Yanukovych', standard).score).toBe(0.9);
    expect(scoreNamePair('company', 'YANUKOVYCH, Viktor', 'Viktor Yanukovych', standard).score).toBeLessThan(
      0.9,
    );
  });
});
