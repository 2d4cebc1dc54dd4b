import type { EntityKind, EntityName, NameKind } from '../model/listedEntity.js';
import { type NameClass, type NameToken, nameClassOf, nameTokens } from './nameTokens.js';

/** A name normalised once, when an entity is loaded or a query arrives, and compared many times. */
export interface PreparedName {
  /** As published (or as queried). */
  full: string;
  kind: NameKind;
  nameClass: NameClass;
  tokens: NameToken[];
  /** Token texts in sorted order: equal signatures are the same name, whatever the word order. */
  signature: string;
}

export function prepareName(name: EntityName, kind: EntityKind): PreparedName {
  const tokens = nameTokens(name.full, kind, name.parts);
  return {
    full: name.full,
    kind: name.kind,
    nameClass: nameClassOf(kind),
    tokens,
    signature: tokens
      .map((token) => token.text)
      .sort()
      .join(' '),
  };
}
