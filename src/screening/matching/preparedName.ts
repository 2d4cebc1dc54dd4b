import type { EntityKind, EntityName, NameKind } from '../model/listedEntity.js';
import {
  type NameClass,
  type NameToken,
  nameClassOf,
  nameTokens,
  type ReadingPart,
  readingTokens,
} from './nameTokens.js';
import { cyrillicKoreanReadings } from './vocabulary/cyrillicKorean.js';
import { koreanNameReadings } from './vocabulary/hangulReadings.js';
import { japaneseReadings } from './vocabulary/japaneseReadings.js';
import { isKatakanaName, loanwordReadings } from './vocabulary/katakanaLoanwords.js';

/** A name normalised once, when an entity is loaded or a query arrives, and compared many times. */
export interface PreparedName {
  /** As published (or as queried). */
  full: string;
  kind: NameKind;
  nameClass: NameClass;
  tokens: NameToken[];
  /** The name is a lineage chain ("X bin Y"), so the order of its parts matters. */
  lineage: boolean;
}

export function prepareName(name: EntityName, kind: EntityKind): PreparedName {
  return preparedNameOf(name.full, name.kind, kind, nameTokens(name.full, kind, name.parts));
}

/**
 * The other readings of a person's name, each a name of its own under the same full text, for
 * scripts whose Latin spellings no letter-by-letter transliteration reaches: a Japanese name in
 * kanji read in Hepburn through a dictionary of names (安倍晋三 as Abe Shinzo), a Korean name in
 * Hangul, Hanja or Cyrillic read syllable by syllable (최룡해 as Choe Ryong Hae, Ким Чен Ын as Kim
 * Jong Un), a foreign name in katakana read back (テッド・クルーズ as Ted Cruz). Empty for nearly
 * every name.
 */
export function readingNames(name: EntityName, kind: EntityKind): PreparedName[] {
  const nameClass = nameClassOf(kind);
  if (nameClass !== 'person' && nameClass !== 'unknown') return [];
  const reading = (parts: ReadingPart[]) => preparedNameOf(name.full, name.kind, kind, readingTokens(parts));
  const japanese = japaneseReadings(name.full).map(({ family, given }) =>
    reading([
      { text: given.kanji, readings: given.readings, family: false, approximate: false },
      { text: family.kanji, readings: family.readings, family: true, approximate: false },
    ]),
  );
  // Each part keeps the word as written, a term of its own beside the name's transliterated parts.
  if (isKatakanaName(name.full)) {
    // A foreign name as Japanese writes it, in its own order: the family name last.
    const words = name.full.split(KATAKANA_SEPARATOR).filter(Boolean);
    const parts = words.map((word, i) => ({
      text: word,
      readings: loanwordReadings(
        nameTokens(word, kind)
          .map((token) => token.text)
          .join(''),
      ),
      family: words.length > 1 && i === words.length - 1,
      approximate: true,
    }));
    return [...japanese, reading(parts)];
  }
  const korean = cyrillicKoreanReadings(name.full) ?? koreanNameReadings(name.full);
  if (korean === undefined) return japanese;
  return [
    ...japanese,
    reading(
      korean.map(({ word, readings }, i) => ({ text: word, readings, family: i === 0, approximate: false })),
    ),
  ];
}

const KATAKANA_SEPARATOR = /[\s\u30fb\uff65\u00b7]+/u;

/** Names as scoring compares them: each one prepared, followed by its other readings. */
export function prepareNames(names: readonly EntityName[], kind: EntityKind): PreparedName[] {
  return names.flatMap((name) => [prepareName(name, kind), ...readingNames(name, kind)]);
}

/**
 * A prepared name from tokens prepared before: the screening index keeps each distinct token once
 * and rebuilds the names of the candidates it scores from them.
 */
export function preparedNameOf(
  full: string,
  nameKind: NameKind,
  kind: EntityKind,
  tokens: NameToken[],
): PreparedName {
  return {
    full,
    kind: nameKind,
    nameClass: nameClassOf(kind),
    tokens,
    lineage: tokens.some((token) => token.generation >= 0),
  };
}
