import { describe, expect, it } from 'vitest';
import { ofacIdentifier, ofacPrograms, ofacTypeKind, parseOfacRemarks, targetTypeKind } from './ofacFacts.js';

describe('parseOfacRemarks', () => {
  it('reads birth dates, places, nationality, gender and weak aliases', () => {
    const facts = parseOfacRemarks(
      "DOB 10 Oct 1960; alt. DOB circa 1962; alt. DOB 1964 to 1966; POB Medellin, Colombia; nationality Russia; citizen Mexico; Gender Male; a.k.a. 'ABU AL-FOUTOUH'; a.k.a. ''ABD AL-MUHSI'; f.k.a. 'EL PATRON'.",
    );
    expect(facts.birthDates).toEqual([
      { from: '1960-10-10' },
      { from: '1962', approximate: true },
      { from: '1964', to: '1966' },
    ]);
    expect(facts.countries).toEqual(['Colombia']);
    expect(facts.nationalities).toEqual(['Russia', 'Mexico']);
    expect(facts.gender).toBe('Male');
    expect(facts.weakAliases).toEqual(['ABU AL-FOUTOUH', "'ABD AL-MUHSI", 'EL PATRON']);
  });

  it('reads identifiers with their issuing country and drops issue and expiry words', () => {
    const facts = parseOfacRemarks(
      'Passport 123456789 (Venezuela) expires 01 Jan 2020; Diplomatic Passport D123; Vessel Registration Identification IMO 9187629; MMSI 256842000; Tax ID No. 7702070139 (Russia); Registration Number HRA 999999 (Stuttgart) (Germany); SWIFT/BIC VTBRRUMM; Website www.example.org',
    );
    expect(facts.identifiers).toEqual([
      { scheme: 'passport', value: '123456789', country: 'VE' },
      { scheme: 'passport', value: 'D123' },
      { scheme: 'imo', value: '9187629' },
      { scheme: 'mmsi', value: '256842000' },
      { scheme: 'inn', value: '7702070139', country: 'RU' },
      { scheme: 'registration', value: 'HRA 999999', country: 'DE' },
      { scheme: 'swift_bic', value: 'VTBRRUMM' },
    ]);
  });

  it('reads aircraft serial and tail numbers', () => {
    const facts = parseOfacRemarks(
      "Aircraft Manufacturer's Serial Number (MSN) 727; Aircraft Tail Number EP-GOM; Aircraft Operator MAHAN AIR",
    );
    expect(facts.identifiers).toEqual([
      { scheme: 'aircraft_serial', value: '727' },
      { scheme: 'aircraft_tail', value: 'EP-GOM' },
    ]);
  });

  it('ignores what it does not know', () => {
    const facts = parseOfacRemarks('Linked To: HAMAS; Secondary sanctions risk: section 1(b)');
    expect(facts).toEqual({
      birthDates: [],
      nationalities: [],
      countries: [],
      identifiers: [],
      weakAliases: [],
    });
  });
});

describe('ofacIdentifier', () => {
  it('takes the country from the XML idCountry', () => {
    expect(ofacIdentifier('Registration ID', '1027739609391', 'Russia')).toEqual({
      scheme: 'ogrn',
      value: '1027739609391',
      country: 'RU',
    });
  });

  it('is undefined for labels that are no identifiers and for blank values', () => {
    expect(ofacIdentifier('Email Address', 'a@example.org')).toBeUndefined();
    expect(ofacIdentifier('Passport', ' (Russia)')).toBeUndefined();
  });
});

describe('OFAC tags and types', () => {
  it('splits the CSV program column', () => {
    expect(ofacPrograms(['DPRK3] [CYBER2', 'SDGT'])).toEqual(['DPRK3', 'CYBER2', 'SDGT']);
  });

  it('maps entry types and target types to kinds', () => {
    expect(ofacTypeKind('individual')).toBe('person');
    expect(ofacTypeKind('Vessel')).toBe('vessel');
    expect(ofacTypeKind('Aircraft')).toBe('aircraft');
    expect(ofacTypeKind('Entity')).toBeUndefined();
    expect(targetTypeKind('State-Owned Enterprise')).toBe('company');
    expect(targetTypeKind('Government Entity')).toBe('organization');
    expect(targetTypeKind(undefined)).toBeUndefined();
  });
});
