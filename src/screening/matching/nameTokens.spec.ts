import { describe, expect, it } from 'vitest';
import type { EntityKind } from '../model/listedEntity.js';
import { letterMask } from './editDistance.js';
import { consonantSkeleton, type NameToken, nameTokens, TOKEN_WEIGHTS, tokenIdentity } from './nameTokens.js';
import { prepareName } from './preparedName.js';

function tokens(name: string, kind: EntityKind = 'person') {
  return nameTokens(name, kind);
}

describe('nameTokens: roles', () => {
  it('reads legal forms, numbers, stop words and acronyms in organisation names', () => {
    const parts = tokens('The First Bank of 44 Street Co., Ltd.', 'company');
    expect(parts.map((token) => [token.text, token.role])).toEqual([
      ['the', 'stop'],
      ['first', 'number'],
      ['bank', 'word'],
      ['of', 'stop'],
      ['44', 'number'],
      ['street', 'word'],
      ['ltd', 'legal'],
    ]);
    expect(tokens('BMW AG', 'company')[0]!.acronym).toBe(true);
  });

  it('reads titles, initials, particles and patronymics in person names', () => {
    const parts = tokens('Mr. Sergey V. Viktorovich al-Lavrov');
    expect(parts.map((token) => [token.text, token.role])).toEqual([
      ['sergey', 'word'],
      ['v', 'initial'],
      ['viktorovich', 'patronymic'],
      ['al', 'particle'],
      ['lavrov', 'word'],
    ]);
  });

  it('reads ابو as the particle Abu, and syllables of Han characters or Hangul never as particles', () => {
    const roles = (name: string) => tokens(name).map((token) => [token.text, token.role]);
    expect(roles('أبو بكر البغدادي')[0]).toEqual(['bw', 'particle']);
    expect(roles('ابو مهاجر')[0]).toEqual(['abw', 'particle']);
    // 斌 is bin, 阿部 abu, 반 ban: syllables of the name, not the Arabic bin and abu.
    expect(roles('斌 李')).toEqual([
      ['bin', 'word'],
      ['li', 'word'],
    ]);
    expect(roles('翼 阿部')[1]).toEqual(['abu', 'word']);
    expect(roles('Bin Laden Osama')[0]).toEqual(['bin', 'particle']);
  });

  it('passes over the titles, offices and honorifics before a person name, and a seat after it', () => {
    const texts = (name: string) =>
      tokens(name)
        .filter((token) => token.role !== 'stop')
        .map((token) => token.text);
    expect(texts('The Rt Hon Keir Starmer MP')).toEqual(['keir', 'starmer']);
    expect(texts('Vice President Kamala Harris')).toEqual(['kamala', 'harris']);
    expect(texts('Senior General Min Aung Hlaing')).toEqual(['min', 'aung', 'hlaing']);
    expect(texts('His Highness Sheikh Tamim bin Hamad Al Thani')[0]).toBe('tamim');
    expect(texts("Dato' Seri Najib Razak")).toEqual(['najib', 'razak']);
    expect(texts('Tan Sri Muhyiddin Yassin')).toEqual(['muhyiddin', 'yassin']);
    // Tan alone is a family name, and Sri may begin a name.
    expect(texts('Tan Wei Ming')).toEqual(['tan', 'wei', 'ming']);
    expect(texts('Sri Mulyani Indrawati')).toEqual(['sri', 'mulyani', 'indrawati']);
  });

  it('reads a generation (Jr., Sr., III) and a degree after a person name, the comma before either', () => {
    const roles = (name: string) => tokens(name).map((token) => [token.text, token.role, token.key]);
    expect(roles('Angus S. King, Jr.')).toEqual([
      ['angus', 'word', 'angus'],
      ['s', 'initial', 's'],
      ['king', 'word', 'king'],
      ['jr', 'suffix', '2'],
    ]);
    // Jr. is the second generation as II is.
    expect(tokens('John Albert Smith II').at(-1)).toMatchObject({ role: 'suffix', key: '2' });
    expect(tokens('Matiullah Sr.').at(-1)).toMatchObject({ role: 'suffix', key: '1' });
    expect(tokens('Matiullah PhD').at(-1)).toMatchObject({ role: 'stop' });
    expect(roles('DELOS REYES, Feliciano Semborio, Jr.').map(([text]) => text)).toEqual([
      'feliciano',
      'semborio',
      'delos',
      'reyes',
      'jr',
    ]);
    // A roman numeral after one word is a name (井伊 Ii), and Jr first is no generation.
    expect(tokens('Ii Naosuke')[0]!.role).toBe('word');
    expect(tokens('Naosuke Ii').at(-1)!.role).not.toBe('suffix');
    expect(tokens('Jr Smith')[0]!.role).not.toBe('suffix');
    // Read as an organisation's name (a subject of unknown kind is searched both ways), Jr. and Sr.
    // stay apart from the words, roman numerals are a series.
    expect(tokens('Randy K. Weber, Sr.', 'company').at(-1)).toMatchObject({ role: 'suffix', key: '1' });
    expect(tokens('Bain Capital Fund XI', 'company').at(-1)).toMatchObject({ role: 'number', key: '11' });
    expect(tokens('Trust II', 'company').at(-1)).toMatchObject({ role: 'number', key: '2' });
  });

  it('marks the family name from "SURNAME, Given" and weighs it more', () => {
    const [given, family] = tokens('LAVROV, Sergey');
    expect(given!.family).toBe(false);
    expect(family).toMatchObject({ text: 'lavrov', family: true, weight: TOKEN_WEIGHTS.familyWord });
  });

  it('reads the family name before a comma as a name, though it spells a legal form (PAO, ПАО)', () => {
    const roles = (name: string) => tokens(name).map((token) => [token.text, token.role]);
    expect(roles('PAO, Yu Yi').at(-1)).toEqual(['pao', 'word']);
    // A legal form after a person's name is still one, in capitals too.
    expect(roles('Nicolás Maduro LLC').at(-1)).toEqual(['llc', 'legal']);
  });
});

describe('nameTokens: repeated parts', () => {
  it('keeps a repeated name part, marked as a repeat', () => {
    const parts = tokens('ABDULLAHI MOHAMED MOHAMED CADDOW');
    expect(parts.map((token) => [token.text, token.repeat])).toEqual([
      ['abdullahi', false],
      ['mohamed', false],
      ['mohamed', true],
      ['caddow', false],
    ]);
  });

  it('drops a repeated particle, which says nothing new', () => {
    const parts = tokens('ABD AL-RAHMAN AL-MOSULI');
    expect(parts.filter((token) => token.role === 'particle')).toHaveLength(1);
  });
});

describe('nameTokens: lineage generations', () => {
  it('numbers the generations of a "bin" chain from the own name', () => {
    const parts = tokens('Muhammad bin Salman bin Abdulaziz Al Saud');
    expect(parts.map((token) => [token.text, token.generation])).toEqual([
      ['muhammad', 0],
      ['bin', -1],
      ['salman', 1],
      ['abdulaziz', 2],
      ['al', -1],
      ['saud', 2],
    ]);
    expect(prepareName({ full: 'Muhammad bin Salman', kind: 'primary' }, 'person').lineage).toBe(true);
  });

  it('sees no chain when the particle has no name on one side', () => {
    for (const name of ['bin Salman Mohammed', 'Salman Mohammed bin', 'Salman Mohammed']) {
      expect(tokens(name).every((token) => token.generation === -1)).toBe(true);
    }
    expect(tokens('Muhammad bin Salman', 'company').every((token) => token.generation === -1)).toBe(true);
  });
});

describe('nameTokens: Chinese syllables', () => {
  it('spells a Chinese person name in the form shared by pinyin and Wade-Giles', () => {
    expect(tokens('Mao Tse-tung').map((token) => token.sino)).toEqual(['mao', 'ze', 'dong']);
    expect(tokens('Mao Zedong').map((token) => token.sino)).toEqual(['mao', 'zedong']);
  });

  it('leaves names with any non-syllable word alone', () => {
    expect(tokens('Dan Smith').map((token) => token.sino)).toEqual(['', '']);
    expect(tokens('Li', 'person').map((token) => token.sino)).toEqual(['']);
    expect(tokens('Bank of China', 'company').map((token) => token.sino)).toEqual(['', '', '']);
  });
});

describe('nameTokens: letter masks', () => {
  it('records the letters of each token', () => {
    const [token] = tokens('Abba', 'company');
    expect(token!.letters).toBe(letterMask('abba'));
    expect(letterMask('abba')).toBe(0b11);
  });
});

describe('tokenIdentity', () => {
  it('changes when any field of a token changes, and only then', () => {
    const token = tokens('Sergey Lavrov')[1]!;
    expect(tokenIdentity({ ...token })).toBe(tokenIdentity(token));
    const changed: Record<keyof NameToken, unknown> = {
      text: 'lavrova',
      key: 'lavrova',
      role: 'patronymic',
      weight: token.weight + 0.5,
      family: !token.family,
      place: !token.place,
      abjad: !token.abjad,
      acronym: !token.acronym,
      legalFamily: 'joint_stock',
      phonetic: [...token.phonetic, 'X'],
      skeleton: `${token.skeleton}x`,
      position: token.position + 1,
      hyphenNext: !token.hyphenNext,
      repeat: !token.repeat,
      generation: token.generation + 1,
      letters: token.letters ^ 1,
      sino: 'la',
      han: !token.han,
      korean: 'LLA.',
      koreanSlip: token.koreanSlip === '' ? 'given' : '',
      readings: ['lavrova'],
      readingKind: token.readingKind === 'exact' ? 'sound' : 'exact',
    };
    // A field added to NameToken without a changed value here fails the first assertion.
    expect(Object.keys(changed).sort()).toEqual(Object.keys(token).sort());
    for (const [field, value] of Object.entries(changed)) {
      expect(tokenIdentity({ ...token, [field]: value }), field).not.toBe(tokenIdentity(token));
    }
    // Phonetic codes and legal families cannot run into the neighbouring fields.
    expect(tokenIdentity({ ...token, phonetic: ['ab', 'c'] })).not.toBe(
      tokenIdentity({ ...token, phonetic: ['a', 'bc'] }),
    );
    expect(tokenIdentity({ ...token, legalFamily: undefined })).not.toBe(
      tokenIdentity({ ...token, legalFamily: '' }),
    );
  });
});

describe('nameTokens: words written without vowels', () => {
  it("reads a person's word of three consonants or more as an abjad writes it", () => {
    const [given, family] = tokens('Mhmd Ali');
    expect(given).toMatchObject({ text: 'mhmd', abjad: true, skeleton: 'mhmd' });
    expect(family).toMatchObject({ text: 'ali', abjad: false });
    // Two letters are initials; an organisation's consonants are an acronym.
    expect(tokens('Md Ali')[0]!.abjad).toBe(false);
    expect(tokens('BNP Holdings', 'company')[0]!.abjad).toBe(false);
  });
});

describe('consonantSkeleton', () => {
  it('keeps the consonants, a doubled letter once, the same letter around a vowel twice', () => {
    expect(consonantSkeleton('muhammad')).toBe('mhmd');
    expect(consonantSkeleton('hammud')).toBe('hmd');
    expect(consonantSkeleton('aziz')).toBe('zz');
  });

  it('drops w with the vowels and writes q and g as k, as Latin spellings of Arabic alternate', () => {
    expect(consonantSkeleton('yunis')).toBe(consonantSkeleton('ywns'));
    expect(consonantSkeleton('mahmoud')).toBe(consonantSkeleton('mhmwd'));
    expect(consonantSkeleton('belgasem')).toBe(consonantSkeleton('blqasm'));
    // c is k except in ch (sh or kh); ph is f; v and b are one (ב).
    expect(consonantSkeleton('waraich')).toBe('rch');
    expect(consonantSkeleton('zac')).toBe(consonantSkeleton('zk'));
    expect(consonantSkeleton('philip')).toBe('flp');
    expect(consonantSkeleton('tsvi')).toBe(consonantSkeleton('zvi'));
    expect(consonantSkeleton('corbyn')).toBe(consonantSkeleton('kwrvyn'));
  });

  it('reads the Latin dh as z (ذ ظ, which Arabic-script names give as z: Nazir, Dhafer) and the French dj as j', () => {
    const arabic = (text: string) => consonantSkeleton(text, true);
    expect(consonantSkeleton('nazir')).toBe(arabic('nzyr'));
    expect(consonantSkeleton('dhafer')).toBe(arabic('zafr'));
    expect(consonantSkeleton('djamel')).toBe(arabic('jmal'));
    expect(consonantSkeleton('djouadi')).toBe(arabic('jwady'));
    // Transliterated Arabic writes d and h, d and j as two letters: دحلان Dahlan, الدجاني Dajani.
    expect(arabic('dhlan')).toBe(consonantSkeleton('dahlan'));
    expect(arabic('djany')).toBe(consonantSkeleton('dajani'));
    // The doubled d before h belongs to the digraph.
    expect(consonantSkeleton('siddharth')).toBe(consonantSkeleton('sidharth'));
    // d and z stay apart: only the digraph is z.
    expect(consonantSkeleton('fadl')).not.toBe(consonantSkeleton('fazl'));
  });
});
