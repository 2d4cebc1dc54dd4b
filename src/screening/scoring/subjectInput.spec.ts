import { describe, expect, it } from 'vitest';
import {
  subjectCountryOf,
  subjectFromRow,
  subjectIdentifierOf,
  subjectKindOf,
  subjectOf,
} from './subjectInput.js';

describe('subjectKindOf', () => {
  it('accepts the API kinds in any case', () => {
    expect(subjectKindOf('person')).toBe('person');
    expect(subjectKindOf(' Organization ')).toBe('organization');
    expect(subjectKindOf('VESSEL')).toBe('vessel');
    expect(subjectKindOf('unknown')).toBe('unknown');
  });

  it('accepts FtM schema names as types', () => {
    expect(subjectKindOf('Person')).toBe('person');
    expect(subjectKindOf('Company')).toBe('company');
    expect(subjectKindOf('PublicBody')).toBe('organization');
    expect(subjectKindOf('LegalEntity')).toBe('unknown');
    expect(subjectKindOf('Airplane')).toBe('aircraft');
    expect(subjectKindOf('Vessel')).toBe('vessel');
  });

  it('refuses anything else', () => {
    expect(subjectKindOf('individual')).toBeUndefined();
    expect(subjectKindOf('Sanction')).toBeUndefined();
    expect(subjectKindOf('')).toBeUndefined();
  });
});

describe('subjectCountryOf', () => {
  it('reads two-letter codes in any case', () => {
    expect(subjectCountryOf('ru')).toBe('RU');
    expect(subjectCountryOf('Ru')).toBe('RU');
    expect(subjectCountryOf(' RU ')).toBe('RU');
  });

  it("reads a caller's `na` as Namibia (a caller's two letters are a code)", () => {
    expect(subjectCountryOf('na')).toBe('NA');
  });

  it('reads three-letter codes and country names', () => {
    expect(subjectCountryOf('deu')).toBe('DE');
    expect(subjectCountryOf('DEU')).toBe('DE');
    expect(subjectCountryOf('Germany')).toBe('DE');
  });

  it('refuses unknown codes and names', () => {
    expect(subjectCountryOf('xx')).toBeUndefined();
    expect(subjectCountryOf('Atlantis')).toBeUndefined();
  });
});

describe('subjectIdentifierOf', () => {
  it('reads `scheme:value`, keeping the value as written', () => {
    expect(subjectIdentifierOf('passport:AB 123456')).toEqual({ scheme: 'passport', value: 'AB 123456' });
    expect(subjectIdentifierOf(' imo:9123456 ')).toEqual({ scheme: 'imo', value: '9123456' });
    expect(subjectIdentifierOf('swift_bic:DEUTDEFF')).toEqual({ scheme: 'swift_bic', value: 'DEUTDEFF' });
  });

  it('reads a bare number as `other`', () => {
    expect(subjectIdentifierOf('9123456')).toEqual({ scheme: 'other', value: '9123456' });
  });

  it('refuses an empty value', () => {
    expect(subjectIdentifierOf('')).toBeUndefined();
    expect(subjectIdentifierOf('   ')).toBeUndefined();
  });
});

describe('subjectOf', () => {
  it('builds a subject from every field, normalising as it goes', () => {
    const result = subjectOf(
      {
        name: '  Viktor   Yanukovych ',
        type: 'Person',
        birthDate: '1950-07-09',
        countries: ['ua', 'UKR', 'Ukraine', ' '],
        identifiers: ['passport:EC 123456', '', '7702070139'],
      },
      'unknown',
    );
    expect(result).toEqual({
      ok: true,
      value: {
        name: 'Viktor Yanukovych',
        kind: 'person',
        birthDate: { year: 1950, month: 7, day: 9 },
        countries: ['UA'],
        identifiers: [
          { scheme: 'passport', value: 'EC 123456' },
          { scheme: 'other', value: '7702070139' },
        ],
      },
    });
  });

  it('takes the default kind when no type is given, and leaves absent fields empty', () => {
    expect(subjectOf({ name: 'Acme', type: ' ' }, 'company')).toEqual({
      ok: true,
      value: { name: 'Acme', kind: 'company', birthDate: undefined, countries: [], identifiers: [] },
    });
  });

  it('refuses an empty name', () => {
    expect(subjectOf({}, 'person')).toEqual({ ok: false, message: 'the name is empty' });
    expect(subjectOf({ name: ' \t ' }, 'person')).toEqual({ ok: false, message: 'the name is empty' });
  });

  it('refuses a name with no letter or digit, in a flag and in a batch row alike', () => {
    const refused = { ok: false, message: 'the name has no letter or digit' };
    expect(subjectOf({ name: '!!! ...' }, 'person')).toEqual(refused);
    expect(subjectFromRow({ full_name: '-- !' })).toEqual(refused);
    expect(subjectOf({ name: '田中 !' }, 'person').ok).toBe(true);
    expect(subjectOf({ name: '007' }, 'vessel').ok).toBe(true);
  });

  it('refuses a future birth date in a flag, and leaves it out of a batch row with a warning', () => {
    const future = `${new Date().getUTCFullYear() + 1}-01-01`;
    expect(subjectOf({ name: 'Ivan Petrov', birthDate: future }, 'person')).toEqual({
      ok: false,
      message: `birth date "${future}" is in the future`,
    });
    const row = subjectFromRow({ full_name: 'Ivan Petrov', date_of_birth: future });
    expect(row).toEqual({
      ok: true,
      value: {
        subject: expect.objectContaining({ name: 'Ivan Petrov', birthDate: undefined }),
        warnings: [`birth date "${future}" is in the future: left out`],
      },
    });
  });

  it('refuses a name over 240 characters, counted after collapsing whitespace', () => {
    expect(subjectOf({ name: 'a'.repeat(240) }, 'person').ok).toBe(true);
    expect(subjectOf({ name: `${'a'.repeat(120)}     ${'b'.repeat(119)}` }, 'person').ok).toBe(true);
    expect(subjectOf({ name: 'a'.repeat(241) }, 'person')).toEqual({
      ok: false,
      message: 'the name is longer than 240 characters',
    });
  });

  it('names an unknown type and lists the accepted ones', () => {
    const result = subjectOf({ name: 'Acme', type: 'corporation' }, 'unknown');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('unknown type "corporation"');
    expect(result.message).toContain('person, company, organization, vessel, aircraft, vehicle, unknown');
  });

  it('names a bad birth date and says what is accepted', () => {
    for (const birthDate of ['1965-02-30', '1965-13', '1799', '2101', '01/03/1965']) {
      expect(subjectOf({ name: 'Viktor Yanukovych', birthDate }, 'person')).toEqual({
        ok: false,
        message: `birth date "${birthDate}" is not YYYY, YYYY-MM or YYYY-MM-DD (year 1800-2100)`,
      });
    }
  });

  it('names an unknown country', () => {
    expect(subjectOf({ name: 'Viktor Yanukovych', countries: ['UA', 'Atlantis'] }, 'person')).toEqual({
      ok: false,
      message: 'unknown country "Atlantis"',
    });
  });
});

describe('subjectFromRow', () => {
  it('reads a batch row: several countries and identifiers separated by semicolons, unknown kind by default', () => {
    expect(
      subjectFromRow({
        full_name: 'Sea Pearl',
        date_of_birth: '',
        nationality: 'pa; LR',
        identifiers: 'imo:9123456;mmsi:273456789',
        remarks: 'ignored',
      }),
    ).toEqual({
      ok: true,
      value: {
        subject: {
          name: 'Sea Pearl',
          kind: 'unknown',
          birthDate: undefined,
          countries: ['PA', 'LR'],
          identifiers: [
            { scheme: 'imo', value: '9123456' },
            { scheme: 'mmsi', value: '273456789' },
          ],
        },
        warnings: [],
      },
    });
  });

  it('takes the kind from `type`, or from `schema` when there is no type column', () => {
    expect(subjectFromRow({ full_name: 'Acme', type: 'company' })).toMatchObject({
      ok: true,
      value: { subject: { kind: 'company' } },
    });
    expect(subjectFromRow({ full_name: 'Acme', schema: 'Organization' })).toMatchObject({
      ok: true,
      value: { subject: { kind: 'organization' } },
    });
  });

  it('refuses a row without a name, and screens one with an unreadable field without it, saying so', () => {
    expect(subjectFromRow({ full_name: '' })).toEqual({ ok: false, message: 'the name is empty' });
    expect(
      subjectFromRow({
        full_name: 'Acme',
        nationality: 'RU;Narnia',
        date_of_birth: '1974-01-32',
        type: 'ship',
      }),
    ).toMatchObject({
      ok: true,
      value: {
        subject: { name: 'Acme', kind: 'unknown', birthDate: undefined, countries: ['RU'] },
        warnings: [
          expect.stringContaining('unknown type "ship"'),
          expect.stringContaining('birth date "1974-01-32"'),
          'unknown country "Narnia": left out',
        ],
      },
    });
  });

  it('takes the kind of rows without one from the default', () => {
    const row = subjectFromRow({ full_name: 'Acme' }, 'company');
    expect(row.ok && row.value.subject.kind).toBe('company');
  });
});

describe('subject input edge cases', () => {
  it('reads the scheme in any case and refuses an identifier without a value', () => {
    expect(subjectIdentifierOf('IMO:9123456')).toEqual({ scheme: 'imo', value: '9123456' });
    expect(subjectIdentifierOf('passport: ')).toBeUndefined();
  });

  it('falls back to the schema column when the type column is blank', () => {
    const row = subjectFromRow({ full_name: 'Acme', type: '', schema: 'Company' });
    expect(row.ok && row.value.subject.kind).toBe('company');
  });
});
