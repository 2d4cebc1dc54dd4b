import type { ListedEntity } from '../../src/screening/model/listedEntity.js';

/**
 * A large index of plausible people built from real name parts: given and family names of the
 * persons on the real lists, combined at random (a third with a second given name), each with a
 * birth year and a country. Deterministic for a seed, so two runs index the same names.
 */

/** mulberry32: small, fast and good enough to draw names; Math.random cannot be seeded. */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface NameParts {
  given: string[];
  family: string[];
}

const LATIN_WORD = /^[A-Za-z][A-Za-z'-]*$/;

/** Given and family names of the listed persons, in Latin script, each once. */
export function namePartsOf(entities: Iterable<ListedEntity>): NameParts {
  const given = new Set<string>();
  const family = new Set<string>();
  for (const entity of entities) {
    if (entity.kind !== 'person') continue;
    for (const name of entity.names) {
      const first = name.parts?.given?.split(' ')[0];
      if (first && LATIN_WORD.test(first)) given.add(first);
      if (name.parts?.family?.split(' ').every((word) => LATIN_WORD.test(word))) {
        family.add(name.parts.family);
      }
      if (!name.parts) {
        const words = name.full.split(/\s+/);
        if (words.length >= 2 && words.every((word) => LATIN_WORD.test(word))) {
          given.add(words[0]!);
          family.add(words.at(-1)!);
        }
      }
    }
  }
  return { given: [...given], family: [...family] };
}

const COUNTRIES = ['US', 'GB', 'RU', 'IR', 'SY', 'KP', 'CN', 'VE', 'AF', 'IQ', 'DE', 'FR', 'BR', 'NG', 'UA'];
const SOURCES = [{ name: 'Synthetic names', url: null, dataset: 'synthetic', priority: 3 }];

export interface SyntheticIndexInput {
  entities: Generator<ListedEntity>;
  /** Every `plantEvery`-th generated name, with its entity id, to search for afterwards. */
  planted: { id: string; name: string }[];
}

export function syntheticPersons(
  parts: NameParts,
  count: number,
  seed: number,
  plantEvery: number,
): SyntheticIndexInput {
  const random = seededRandom(seed);
  const pick = (words: readonly string[]) => words[Math.floor(random() * words.length)]!;
  const planted: { id: string; name: string }[] = [];
  function* entities(): Generator<ListedEntity> {
    for (let i = 0; i < count; i++) {
      const given = random() < 0.3 ? `${pick(parts.given)} ${pick(parts.given)}` : pick(parts.given);
      const family = pick(parts.family);
      const id = `synthetic:${i}`;
      if (i % plantEvery === 0) planted.push({ id, name: `${given} ${family}` });
      yield {
        id,
        kind: 'person',
        names: [{ full: `${given} ${family}`, kind: 'primary', parts: { given, family } }],
        birthDates: [{ from: String(1930 + Math.floor(random() * 75)) }],
        countries: [pick(COUNTRIES)],
        nationalities: [],
        identifiers: [],
        topics: ['sanction'],
        datasets: ['synthetic'],
        sources: SOURCES,
        programs: [],
        sourceRecordRef: String(i),
      };
    }
  }
  return { entities: entities(), planted };
}

/** Swaps two neighbouring letters inside the name: the commonest typing error. */
export function withTypo(name: string, random: () => number): string {
  const letters = [...name];
  for (let attempt = 0; attempt < 10; attempt++) {
    const i = 1 + Math.floor(random() * (letters.length - 3));
    if (letters[i] === ' ' || letters[i + 1] === ' ' || letters[i] === letters[i + 1]) continue;
    [letters[i], letters[i + 1]] = [letters[i + 1]!, letters[i]!];
    return letters.join('');
  }
  return name;
}
