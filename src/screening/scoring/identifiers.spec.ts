import { describe, expect, it } from 'vitest';
import type { EntityIdentifier } from '../model/listedEntity.js';
import { compareIdentifiers, normaliseIdentifierValue } from './identifiers.js';

const id = (scheme: string, value: string): EntityIdentifier => ({ scheme, value });

describe('normaliseIdentifierValue', () => {
  it('keeps letters and digits only, in upper case', () => {
    expect(normaliseIdentifierValue('AB 123-456')).toBe('AB123456');
    expect(normaliseIdentifierValue('ab123456')).toBe('AB123456');
    expect(normaliseIdentifierValue(' 7702/070.139 ')).toBe('7702070139');
    expect(normaliseIdentifierValue('--- ')).toBe('');
  });
});

describe('compareIdentifiers: agreement', () => {
  it('agrees on the same value written with other spacing, dashes and case, citing both as given', () => {
    expect(compareIdentifiers([id('passport', 'ab 123-456')], [id('passport', 'AB123456')])).toEqual({
      outcome: 'agree',
      subject: 'passport:ab 123-456',
      record: 'passport:AB123456',
    });
  });

  it('lets `other` on either side meet any scheme', () => {
    expect(compareIdentifiers([id('other', '9123456')], [id('imo', '9123456')]).outcome).toBe('agree');
    expect(compareIdentifiers([id('tax_id', '7702070139')], [id('other', '7702070139')]).outcome).toBe(
      'agree',
    );
  });

  it('does not compare values of two different labelled schemes', () => {
    expect(compareIdentifiers([id('passport', 'AB123456')], [id('national_id', 'AB123456')])).toEqual({
      outcome: 'missing',
      subject: null,
      record: null,
    });
  });

  it('agrees when any pair agrees, even after a conflicting pair', () => {
    const listed = [id('imo', '9000001'), id('imo', '9123456')];
    expect(compareIdentifiers([id('imo', '9123456')], listed)).toEqual({
      outcome: 'agree',
      subject: 'imo:9123456',
      record: 'imo:9123456',
    });
  });
});

describe('compareIdentifiers: conflict only on schemes unique per party', () => {
  it.each([
    'imo',
    'mmsi',
    'lei',
    'inn',
    'ogrn',
    'swift_bic',
    'aircraft_serial',
    'aircraft_tail',
    'registration',
  ])('a different %s is a conflict', (scheme) => {
    expect(compareIdentifiers([id(scheme, 'A1111111')], [id(scheme, 'B2222222')])).toEqual({
      outcome: 'conflict',
      subject: `${scheme}:A1111111`,
      record: `${scheme}:B2222222`,
    });
  });

  it.each([
    'passport',
    'national_id',
    'tax_id',
  ])('a different %s is no evidence against (people hold several)', (scheme) => {
    expect(compareIdentifiers([id(scheme, 'A1111111')], [id(scheme, 'B2222222')]).outcome).toBe('missing');
  });

  it('needs the same unique scheme on both sides, not `other`', () => {
    expect(compareIdentifiers([id('other', '9000001')], [id('imo', '9123456')]).outcome).toBe('missing');
    expect(compareIdentifiers([id('imo', '9000001')], [id('mmsi', '273456789')]).outcome).toBe('missing');
  });
});

describe('compareIdentifiers: missing', () => {
  it('is missing when either side has none', () => {
    expect(compareIdentifiers([], [id('imo', '9123456')]).outcome).toBe('missing');
    expect(compareIdentifiers([id('imo', '9123456')], []).outcome).toBe('missing');
  });

  it('ignores a subject value with no letters or digits', () => {
    expect(compareIdentifiers([id('other', '--')], [id('other', '- -')]).outcome).toBe('missing');
    expect(compareIdentifiers([id('imo', ' ')], [id('imo', '9123456')]).outcome).toBe('missing');
  });
});

describe('IMO and MMSI numbers written with their label', () => {
  it('compares the digits alone, whether the subject labels the scheme or not', () => {
    const listed = [{ scheme: 'imo', value: '9123456' }];
    expect(compareIdentifiers([{ scheme: 'imo', value: 'IMO 9123456' }], listed).outcome).toBe('agree');
    expect(compareIdentifiers([{ scheme: 'other', value: 'IMO 9123456' }], listed).outcome).toBe('agree');
    expect(compareIdentifiers([{ scheme: 'imo', value: 'IMO 9123457' }], listed).outcome).toBe('conflict');
    expect(normaliseIdentifierValue('MMSI 273 456 789', 'mmsi')).toBe('273456789');
  });
});
