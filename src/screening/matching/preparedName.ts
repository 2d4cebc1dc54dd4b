import type { EntityKind, EntityName, NameKind } from '../model/listedEntity.js';
import { type NameClass, type NameToken, nameClassOf, nameTokens } from './nameTokens.js';

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
