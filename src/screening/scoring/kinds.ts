import type { EntityKind } from '../model/listedEntity.js';

/**
 * Which listed parties a subject of a kind is compared with. A person is never a company: a
 * company named "Emma LLC" must not surface for the person "Emma Daniels" (a watchman complaint).
 * Companies and organisations are one family (lists disagree on which a body is); a vessel is
 * only compared with vessels, an aircraft with aircraft. `unknown` on either side compares with
 * everything: a caller who does not know, and lists that do not say (FtM `LegalEntity`).
 */
const FAMILY: Readonly<Record<EntityKind, string>> = {
  person: 'person',
  company: 'body',
  organization: 'body',
  vessel: 'vessel',
  aircraft: 'aircraft',
  vehicle: 'vehicle',
  unknown: 'unknown',
};

export function kindsCompatible(subject: EntityKind, listed: EntityKind): boolean {
  if (subject === 'unknown' || listed === 'unknown') return true;
  return FAMILY[subject] === FAMILY[listed];
}
