import { describe, expect, it } from 'vitest';
import { NAME_RULES } from '../matching/nameAlignment.js';
import { type NameToken, nameTokens, readingTokens } from '../matching/nameTokens.js';
import {
  compareTokens,
  type Fuzziness,
  TOKEN_SCORES,
  type TokenComparison,
} from '../matching/tokenSimilarity.js';
import type { EntityKind } from '../model/listedEntity.js';
import {
  isSearchablePart,
  type TermDictionary,
  TermDictionaryBuilder,
  trigramsOf,
} from './termDictionary.js';

const FUZZ: Fuzziness = { budgetFactor: 1, phonetic: true };
const NO_PHONETIC: Fuzziness = { budgetFactor: 1, phonetic: false };

interface Built {
  dictionary: TermDictionary;
  /** The token each term id was made from. */
  tokens: NameToken[];
}

/** A dictionary of the searchable parts of some listed names, as the index builds it. */
function build(names: readonly [string, EntityKind][]): Built {
  const builder = new TermDictionaryBuilder();
  const tokens: NameToken[] = [];
  for (const [name, kind] of names) {
    for (const token of nameTokens(name, kind)) {
      if (!isSearchablePart(token)) continue;
      const term = builder.termOf(token);
      if (term === tokens.length) tokens.push(token);
    }
  }
  return { dictionary: builder.build(), tokens };
}

/** The one searchable part of a query name with this text. */
function part(name: string, text: string, kind: EntityKind = 'person'): NameToken {
  const token = nameTokens(name, kind).find((t) => t.text === text);
  if (!token) throw new Error(`no part "${text}" in "${name}"`);
  return token;
}

const LISTED: [string, EntityKind][] = [
  ['Muhammad QADDAFI', 'person'],
  ['Mohamed Abdullah', 'person'],
  ['محمد بن سلمان', 'person'],
  ['Viktor Fedorovych Yanukovych', 'person'],
  ['Vladimir Putin', 'person'],
  ['Catherine Smith', 'person'],
  ['Ali Hussein', 'person'],
  ['Fund 5', 'company'],
  ['Fund 6', 'company'],
  ['Fund 15', 'company'],
  ['Alpha Shipping 2007', 'company'],
  ['Alpha Shipping 2008', 'company'],
];
const { dictionary, tokens } = build(LISTED);
const term = (text: string) => {
  const id = dictionary.lookup(text);
  if (id === undefined) throw new Error(`no term "${text}"`);
  return id;
};
const texts = (matches: readonly { term: number }[]) => matches.map((m) => tokens[m.term]!.text).sort();

describe('TermDictionaryBuilder', () => {
  it('gives a part one term id per distinct text', () => {
    const builder = new TermDictionaryBuilder();
    const [viktor, putin] = nameTokens('Viktor Putin', 'person');
    const again = nameTokens('Putin Viktor', 'person');
    expect(builder.termOf(viktor!)).toBe(0);
    expect(builder.termOf(putin!)).toBe(1);
    expect(builder.termOf(again[0]!)).toBe(1);
    expect(builder.termOf(again[1]!)).toBe(0);
    const built = builder.build();
    expect(built.size).toBe(2);
    expect(built.lookup('putin')).toBe(1);
    expect(built.lookup('vladimir')).toBeUndefined();
  });

  it('indexes only the parts that carry identity: words, patronymics and numbers', () => {
    const searchable = (name: string, kind: EntityKind) =>
      nameTokens(name, kind)
        .filter(isSearchablePart)
        .map((t) => t.text);
    expect(searchable('Dr. J. van der Berg', 'person')).toEqual(['berg']);
    expect(searchable('Sergey Viktorovich Lavrov', 'person')).toEqual(['sergey', 'viktorovich', 'lavrov']);
    expect(searchable('Bank of Alpha Shipping Ltd 2007', 'company')).toEqual([
      'bank',
      'alpha',
      'shipping',
      '2007',
    ]);
  });
});

describe('trigramsOf', () => {
  it('pads the text with a space on each side', () => {
    expect(trigramsOf('putin')).toEqual([' pu', 'put', 'uti', 'tin', 'in ']);
    expect(trigramsOf('al')).toEqual([' al', 'al ']);
  });
});

describe('TermDictionary.matches', () => {
  it('reaches the exact term with similarity 1', () => {
    const found = dictionary.matches(part('Vladimir Putin', 'putin'), FUZZ);
    expect(found).toContainEqual({ term: term('putin'), similarity: 1 });
    expect(found.filter((m) => m.similarity === 1)).toHaveLength(1);
  });

  it('reaches spelling variants of the same canonical key', () => {
    const query = part('Mohammed Salman', 'mohammed');
    expect(dictionary.lookup('mohammed')).toBeUndefined();
    const found = dictionary.matches(query, FUZZ);
    expect(found).toContainEqual({ term: term('muhammad'), similarity: TOKEN_SCORES.spelling });
    expect(found).toContainEqual({ term: term('mohamed'), similarity: TOKEN_SCORES.spelling });
  });

  it('reaches a same-sounding term beyond the edit budget only with phonetic matching', () => {
    // "kadhafi" and "qaddafi" share a sound (KTF), no key and too few 3-grams.
    const query = part('Muammar Kadhafi', 'kadhafi');
    expect(dictionary.matches(query, FUZZ)).toEqual([
      { term: term('qaddafi'), similarity: TOKEN_SCORES.phonetic },
    ]);
    expect(dictionary.matches(query, NO_PHONETIC)).toEqual([]);
  });

  it('reaches 3-gram neighbours of a typo', () => {
    expect(texts(dictionary.matches(part('Viktor Yanukovich', 'yanukovich'), FUZZ))).toEqual(['yanukovych']);
    expect(texts(dictionary.matches(part('Vladimir Ptuin', 'ptuin'), FUZZ))).toEqual(['putin']);
    expect(texts(dictionary.matches(part('Catherin Smith', 'catherin'), FUZZ))).toEqual(['catherine']);
  });

  it('meets an Arabic-script listed name from its Latin spelling by the consonant skeleton', () => {
    // "محمد بن سلمان" is indexed as the abjad terms "mhmd" and "slman" (the alif is the a).
    expect(tokens[term('mhmd')]!.abjad).toBe(true);
    const salman = dictionary.matches(part('Mohammed bin Salman', 'salman'), FUZZ);
    expect(salman).toEqual([{ term: term('slman'), similarity: TOKEN_SCORES.scriptFactor }]);
    const muhammad = dictionary.matches(part('Muhammad Salman', 'muhammad'), FUZZ);
    expect(muhammad).toContainEqual({ term: term('mhmd'), similarity: TOKEN_SCORES.scriptFactor });
  });

  it('meets a Latin listed name from an Arabic-script query the other way round', () => {
    const [hussein] = nameTokens('حسين', 'person');
    expect(hussein!.abjad).toBe(true);
    expect(dictionary.matches(hussein!, FUZZ)).toEqual([
      { term: term('hussein'), similarity: TOKEN_SCORES.scriptFactor },
    ]);
  });

  it('matches numbers only with themselves', () => {
    expect(texts(dictionary.matches(part('Fund 5', '5', 'company'), FUZZ))).toEqual(['5']);
    expect(texts(dictionary.matches(part('Fund 15', '15', 'company'), FUZZ))).toEqual(['15']);
    expect(dictionary.matches(part('Fund 7', '7', 'company'), FUZZ)).toEqual([]);
    expect(texts(dictionary.matches(part('Alpha Shipping 2007', '2007', 'company'), FUZZ))).toEqual(['2007']);
    expect(dictionary.matches(part('Alpha Shipping 2009', '2009', 'company'), FUZZ)).toEqual([]);
  });

  it('finds nothing for a part unlike every term', () => {
    expect(dictionary.matches(part('Zbigniew Brzezinski', 'brzezinski'), FUZZ)).toEqual([]);
    expect(dictionary.matches(part('Zbigniew Brzezinski', 'zbigniew'), FUZZ)).toEqual([]);
  });

  it('takes every similarity from compareTokens, at least the minimum pair score, each term once', () => {
    const out: TokenComparison = { score: 0, kind: 'exact' };
    const queries = [
      ...nameTokens('Mohammed Kadhafi Yanukovich', 'person'),
      ...nameTokens('Katherine Smyth Hussain Putina', 'person'),
      ...nameTokens('محمد علي', 'person'),
      ...nameTokens('Alfa Shiping 2007', 'company'),
    ].filter(isSearchablePart);
    let total = 0;
    for (const query of queries) {
      const found = dictionary.matches(query, FUZZ);
      expect(new Set(found.map((m) => m.term)).size, query.text).toBe(found.length);
      for (const match of found) {
        compareTokens(query, tokens[match.term]!, FUZZ, out);
        expect(match.similarity, `${query.text} / ${tokens[match.term]!.text}`).toBe(out.score);
        expect(match.similarity).toBeGreaterThanOrEqual(NAME_RULES.minimumPairScore);
        total++;
      }
    }
    expect(total).toBeGreaterThan(8);
  });

  it('gives the same answer when asked twice (scratch state is reset)', () => {
    const query = part('Mohammed Salman', 'mohammed');
    const first = dictionary.matches(query, FUZZ);
    dictionary.matches(part('Viktor Yanukovich', 'yanukovich'), FUZZ);
    expect(dictionary.matches(query, FUZZ)).toEqual(first);
  });

  it('prefers the closest 3-gram neighbours when a typo has very many', () => {
    // 400 terms sharing ten 3-grams with the query (more than the 160 verified), added first, and
    // one a letter away. Without phonetic matching only the 3-gram route can reach it.
    const names: [string, EntityKind][] = [];
    const letter = (code: number) => String.fromCharCode(97 + code);
    for (let i = 0; i < 400; i++)
      names.push([`Konstantinov${letter(i % 26)}${letter(Math.floor(i / 26))}`, 'person']);
    names.push(['Konstantinopolsky', 'person']);
    const crowded = build(names);
    const found = crowded.dictionary.matches(part('Konstantinopolski', 'konstantinopolski'), NO_PHONETIC);
    expect(found.map((m) => crowded.tokens[m.term]!.text)).toContain('konstantinopolsky');
  });
});

describe('TermDictionary: parts of reading names', () => {
  const part = (text: string, readings: string[]) =>
    readingTokens([{ text, readings, family: false, readingKind: 'exact' }])[0]!;

  it('keeps apart two parts written alike and read otherwise (恩 as a Japanese given name, as a Korean syllable)', () => {
    const builder = new TermDictionaryBuilder();
    const japanese = builder.termOf(part('恩', ['megumi', 'on']));
    const korean = builder.termOf(part('恩', ['eun', 'un']));
    expect(korean).not.toBe(japanese);
    const dictionary = builder.build();
    const latin = (text: string) =>
      dictionary.matches(nameTokens(text, 'person')[0]!, FUZZ).map((m) => m.term);
    expect(latin('megumi')).toEqual([japanese]);
    expect(latin('eun')).toEqual([korean]);
  });
});
