import { describe, expect, it } from 'vitest';
import { ENTITY_KINDS } from '../model/listedEntity.js';
import { kindsCompatible } from './kinds.js';

describe('kindsCompatible', () => {
  it('never compares a person with a company or organisation, either way', () => {
    expect(kindsCompatible('person', 'company')).toBe(false);
    expect(kindsCompatible('company', 'person')).toBe(false);
    expect(kindsCompatible('person', 'organization')).toBe(false);
  });

  it('compares companies and organisations with each other', () => {
    expect(kindsCompatible('company', 'organization')).toBe(true);
    expect(kindsCompatible('organization', 'company')).toBe(true);
  });

  it('keeps vessels, aircraft and vehicles apart from each other and from bodies', () => {
    expect(kindsCompatible('vessel', 'aircraft')).toBe(false);
    expect(kindsCompatible('aircraft', 'vessel')).toBe(false);
    expect(kindsCompatible('vessel', 'vehicle')).toBe(false);
    expect(kindsCompatible('vessel', 'company')).toBe(false);
    expect(kindsCompatible('aircraft', 'person')).toBe(false);
  });

  it('compares every kind with itself', () => {
    for (const kind of ENTITY_KINDS) expect(kindsCompatible(kind, kind), kind).toBe(true);
  });

  it('compares unknown with every kind, on either side', () => {
    for (const kind of ENTITY_KINDS) {
      expect(kindsCompatible('unknown', kind), `unknown/${kind}`).toBe(true);
      expect(kindsCompatible(kind, 'unknown'), `${kind}/unknown`).toBe(true);
    }
  });

  it('is symmetric', () => {
    for (const a of ENTITY_KINDS) {
      for (const b of ENTITY_KINDS) {
        expect(kindsCompatible(a, b), `${a}/${b}`).toBe(kindsCompatible(b, a));
      }
    }
  });
});
