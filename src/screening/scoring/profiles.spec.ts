import { describe, expect, it } from 'vitest';
import { NAME_MATCH_THRESHOLD } from '../matching/nameAlignment.js';
import {
  DEFAULT_PROFILE_ID,
  DEFAULT_THRESHOLD,
  defaultProfile,
  findProfile,
  listProfiles,
} from './profiles.js';
import { nameOnlyScore } from './scoreWeights.js';

describe('screening profiles', () => {
  it('has a default profile whose threshold is a name at the name threshold with no other evidence', () => {
    const profile = defaultProfile();
    expect(profile.id).toBe(DEFAULT_PROFILE_ID);
    expect(profile.threshold).toBe(DEFAULT_THRESHOLD);
    expect(profile.threshold).toBeCloseTo(nameOnlyScore(NAME_MATCH_THRESHOLD), 3);
    expect(profile.datasets).toBeUndefined();
  });

  it('selects the default for a null or undefined id, and nothing for an unknown id', () => {
    expect(findProfile(null)).toBe(defaultProfile());
    expect(findProfile(undefined)).toBe(defaultProfile());
    expect(findProfile('default')).toBe(defaultProfile());
    expect(findProfile('no-such-profile')).toBeUndefined();
    expect(findProfile('')).toBeUndefined();
  });

  it('finds every listed profile by its id, and ids are unique', () => {
    const ids = listProfiles().map((profile) => profile.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const profile of listProfiles()) expect(findProfile(profile.id)).toBe(profile);
  });

  it('orders strict above default above broad, in threshold and in tolerance', () => {
    const strict = findProfile('strict')!;
    const broad = findProfile('broad')!;
    const standard = defaultProfile();
    expect(strict.threshold).toBeGreaterThan(standard.threshold);
    expect(standard.threshold).toBeGreaterThan(broad.threshold);
    expect(strict.fuzziness.budgetFactor).toBeLessThan(standard.fuzziness.budgetFactor);
    expect(standard.fuzziness.budgetFactor).toBeLessThan(broad.fuzziness.budgetFactor);
    expect(strict.fuzziness.phonetic).toBe(false);
    expect(strict.maxMatches).toBeLessThan(standard.maxMatches);
    expect(standard.maxMatches).toBeLessThan(broad.maxMatches);
  });

  it('keeps every threshold reachable by an exact name alone and above zero', () => {
    for (const profile of listProfiles()) {
      expect(profile.threshold, profile.id).toBeGreaterThan(0);
      expect(profile.threshold, profile.id).toBeLessThanOrEqual(nameOnlyScore(1));
      expect(profile.maxMatches, profile.id).toBeGreaterThan(0);
    }
  });

  it('restricts the us-ofac profile to the OFAC datasets with the default matching', () => {
    const ofac = findProfile('us-ofac')!;
    expect(ofac.datasets).toEqual(expect.arrayContaining(['us_ofac_sdn', 'us_ofac_cons']));
    expect(ofac.threshold).toBe(defaultProfile().threshold);
    expect(ofac.fuzziness).toEqual(defaultProfile().fuzziness);
  });
});
