import type { EntityKind, EntityName, NameKind } from '../model/listedEntity.js';
import {
  japaneseReadingTokens,
  type NameClass,
  type NameToken,
  nameClassOf,
  nameTokens,
} from './nameTokens.js';
import { japaneseReadings } from './vocabulary/japaneseReadings.js';

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
 * The other readings of a person's name, each a name of its own under the same full text: a
 * Japanese name in kanji read in Hepburn (安倍晋三 as Abe Shinzo), beside the Chinese and Korean
 * readings its prepared name carries. Empty for nearly every name.
 */
export function readingNames(name: EntityName, kind: EntityKind): PreparedName[] {
  const nameClass = nameClassOf(kind);
  if (nameClass !== 'person' && nameClass !== 'unknown') return [];
  return japaneseReadings(name.full).map((reading) =>
    preparedNameOf(name.full, name.kind, kind, japaneseReadingTokens(reading)),
  );
}

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
