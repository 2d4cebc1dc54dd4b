import { createHash } from 'node:crypto';
import type { EntityKind, ListedEntity } from '../../src/screening/model/listedEntity.js';
import { scoreNamePair } from '../../src/screening/scoring/comparePair.js';
import type { ScreeningProfile } from '../../src/screening/scoring/profiles.js';

/**
 * Cross-script pairs drawn from the lists themselves: a listed party's name in its original script
 * (UN NAME_ORIGINAL_SCRIPT, and any other alias the list marks with a non-Latin script) against the
 * same party's Latin names (a true pair), and against the Latin names of another party written in the
 * same script (a false pair, the hardest kind: same language, same naming customs). Labelled by the
 * publisher, not by us, so tuning on them cannot smuggle a row in by hand. People only: an
 * organisation's name in another script is most often a translation (中国航天科技集团 / China
 * Aerospace Science and Technology Corporation), which no transliteration can meet.
 */
export interface CrossScriptPair {
  script: string;
  kind: EntityKind;
  original: string;
  latin: string[];
  isMatch: boolean;
  /** Which half of the held-out split the pair's party falls in ('a' or 'b'), by a hash of its id. */
  half: 'a' | 'b';
}

const half = (id: string): 'a' | 'b' => (createHash('sha256').update(id).digest()[0]! % 2 === 0 ? 'a' : 'b');

export function crossScriptPairs(entities: readonly ListedEntity[]): CrossScriptPair[] {
  const parties = entities
    .map((entity) => ({
      entity,
      originals: entity.names.filter((name) => name.script && name.script !== 'Latn'),
      latin: entity.names.filter((name) => !name.script || name.script === 'Latn').map((name) => name.full),
    }))
    .filter(
      (party) => party.entity.kind === 'person' && party.originals.length > 0 && party.latin.length > 0,
    );
  const pairs: CrossScriptPair[] = [];
  for (const [i, party] of parties.entries()) {
    for (const original of party.originals) {
      const script = original.script!;
      const common = {
        script,
        kind: party.entity.kind,
        original: original.full,
        half: half(party.entity.id),
      };
      pairs.push({ ...common, latin: party.latin, isMatch: true });
      // The next party of the same script and kind: a deterministic, same-language impostor.
      const other = [...parties.slice(i + 1), ...parties.slice(0, i)].find(
        (candidate) =>
          candidate.entity.kind === party.entity.kind &&
          candidate.originals.some((name) => name.script === script),
      );
      if (other) pairs.push({ ...common, latin: other.latin, isMatch: false });
    }
  }
  return pairs;
}

export interface CrossScriptScores {
  script: string;
  truePairs: number;
  recall: number;
  falsePairs: number;
  falsePositiveRate: number;
}

/**
 * Recall and false-positive rate per script, then over all scripts and over each half of the
 * held-out split ('all, half a' / 'all, half b'); a pair matches when any Latin name matches.
 */
export function scoreCrossScript(
  pairs: readonly CrossScriptPair[],
  profile: ScreeningProfile,
): CrossScriptScores[] {
  const byScript = new Map<string, { tp: number; t: number; fp: number; f: number }>();
  const tally = (script: string) => {
    const entry = byScript.get(script) ?? { tp: 0, t: 0, fp: 0, f: 0 };
    byScript.set(script, entry);
    return entry;
  };
  for (const pair of pairs) {
    const matched = pair.latin.some((latin) => scoreNamePair(pair.kind, pair.original, latin, profile).match);
    for (const entry of [tally(pair.script), tally('all'), tally(`all, half ${pair.half}`)]) {
      if (pair.isMatch) {
        entry.t++;
        if (matched) entry.tp++;
      } else {
        entry.f++;
        if (matched) entry.fp++;
      }
    }
  }
  return [...byScript]
    .map(([script, e]) => ({
      script,
      truePairs: e.t,
      recall: e.t === 0 ? 0 : e.tp / e.t,
      falsePairs: e.f,
      falsePositiveRate: e.f === 0 ? 0 : e.fp / e.f,
    }))
    .sort((a, b) => {
      const aAll = a.script.startsWith('all');
      const bAll = b.script.startsWith('all');
      if (aAll !== bAll) return aAll ? 1 : -1;
      return aAll ? a.script.localeCompare(b.script) : b.truePairs - a.truePairs;
    });
}

/**
 * The screening view of the same question: each listed person with a name in another script,
 * searched for by that name in an index of the same parties with every non-Latin name removed (so
 * the party can only be found through its Latin names), as a check would search. Recall per script.
 */
export function searchOriginalScripts(
  entities: readonly ListedEntity[],
  search: (indexed: readonly ListedEntity[]) => (name: string) => readonly { entity: ListedEntity }[],
): { script: string; persons: number; recall: number }[] {
  const latinOnly = entities.map((entity) => ({
    ...entity,
    names: entity.names.filter((name) => !name.script || name.script === 'Latn'),
  }));
  const find = search(latinOnly.filter((entity) => entity.names.length > 0));
  const byScript = new Map<string, { found: number; total: number }>();
  for (const entity of entities) {
    if (entity.kind !== 'person') continue;
    const original = entity.names.find((name) => name.script && name.script !== 'Latn');
    if (!original || entity.names.every((name) => name.script && name.script !== 'Latn')) continue;
    const tally = byScript.get(original.script!) ?? { found: 0, total: 0 };
    byScript.set(original.script!, tally);
    tally.total++;
    if (find(original.full).some((match) => match.entity.id === entity.id)) tally.found++;
  }
  return [...byScript].map(([script, { found, total }]) => ({
    script,
    persons: total,
    recall: found / total,
  }));
}
