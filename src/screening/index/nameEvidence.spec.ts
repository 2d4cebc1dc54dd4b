import { describe, expect, it } from 'vitest';
import { NameEvidence } from './nameEvidence.js';

interface Part {
  mayAdd: boolean;
  terms: { names: number[]; weight: number }[];
}

/** The rules of NameEvidence, written the plain way: a map from name to evidence. */
function reference(parts: readonly Part[], limit: number, allowed: (name: number) => boolean): number[] {
  const evidence = new Map<number, number>();
  // The parts that bring in names first, then the others raise what those reached.
  for (const part of [...parts.filter((p) => p.mayAdd), ...parts.filter((p) => !p.mayAdd)]) {
    const credited = new Set<number>();
    for (const { names, weight } of part.terms) {
      for (const name of names) {
        if (credited.has(name)) continue;
        const before = evidence.get(name);
        if (before === undefined && !part.mayAdd) continue;
        credited.add(name);
        evidence.set(name, Math.fround((before ?? 0) + weight));
      }
    }
  }
  return [...evidence]
    .filter(([name]) => allowed(name))
    .sort(([a, x], [b, y]) => y - x || a - b)
    .slice(0, limit)
    .map(([name]) => name);
}

function run(evidence: NameEvidence, parts: readonly Part[], limit: number, allowed = (_: number) => true) {
  for (const part of parts) {
    if (!part.mayAdd) {
      evidence.raise(
        part.terms.map(({ names }) => Int32Array.from(names)),
        part.terms.map(({ weight }) => weight),
      );
      continue;
    }
    evidence.beginPart();
    for (const { names, weight } of part.terms) evidence.add(Int32Array.from(names), weight);
  }
  return evidence.take(limit, allowed);
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

describe('NameEvidence', () => {
  it('credits a name once per part, with the first term that holds it', () => {
    const evidence = new NameEvidence(10);
    const best = run(
      evidence,
      [
        {
          mayAdd: true,
          terms: [
            { names: [1, 2], weight: 1 },
            { names: [2, 3], weight: 3 },
          ],
        },
      ],
      10,
    );
    // 3 is reached by the second term only; 2 keeps the first term's weight, not the sum.
    expect(best).toEqual([3, 1, 2]);
  });

  it('lets a part that may not add names only raise, by its first term, names the other parts reached', () => {
    const evidence = new NameEvidence(10);
    const parts: Part[] = [
      { mayAdd: false, terms: [{ names: [1, 4], weight: 5 }] },
      { mayAdd: true, terms: [{ names: [1, 2], weight: 1 }] },
      {
        mayAdd: false,
        terms: [
          { names: [2, 3], weight: 2 },
          { names: [2], weight: 9 },
        ],
      },
    ];
    // 1 is raised by the first part, which came before the part reaching it; 4 and 3 are reached
    // by raising parts only; 2 is held by both terms of the last part and earns the first (2, not 9).
    expect(run(evidence, parts, 10)).toEqual([1, 2]);
  });

  it('raises names of the blocks the other parts reach, past blocks they do not, for one search only', () => {
    const evidence = new NameEvidence(200_000);
    // Names 40,000 and 150,000 are in the second and fifth blocks; the raising list also holds
    // names of blocks no other part reaches (the first, third and fourth), which it passes over.
    const reaching: Part[] = [
      { mayAdd: true, terms: [{ names: [40_000, 150_000], weight: 1 }] },
      { mayAdd: true, terms: [{ names: [150_000], weight: 0.5 }] },
    ];
    const raising: Part = {
      mayAdd: false,
      terms: [{ names: [3, 40_000, 70_000, 100_000, 120_000], weight: 2 }],
    };
    expect(run(evidence, [...reaching, raising], 10)).toEqual([40_000, 150_000]);
    expect(run(evidence, reaching, 10)).toEqual([150_000, 40_000]);
  });

  it('breaks ties by name and leaves out names that are not allowed', () => {
    const evidence = new NameEvidence(100);
    const parts: Part[] = [{ mayAdd: true, terms: [{ names: [7, 50, 90], weight: 1 }] }];
    expect(run(evidence, parts, 2)).toEqual([7, 50]);
    expect(run(evidence, parts, 2, (name) => name !== 7)).toEqual([50, 90]);
  });

  it('agrees with the plain rules on random searches across many blocks, and forgets each search', () => {
    const names = 200_000;
    const evidence = new NameEvidence(names);
    const random = seeded(7);
    for (let search = 0; search < 40; search++) {
      const parts: Part[] = Array.from({ length: 1 + Math.floor(random() * 5) }, (_, index) => ({
        mayAdd: index === 0 || random() < 0.5,
        terms: Array.from({ length: 1 + Math.floor(random() * 6) }, () => {
          // Few distinct weights, so ties are common, as they are between real names.
          const weight = [0.5, 1, 1.5, 2.25][Math.floor(random() * 4)]!;
          const size = Math.floor(random() * 3000);
          const set = new Set(Array.from({ length: size }, () => Math.floor(random() * names)));
          return { names: [...set].sort((a, b) => a - b), weight };
        }),
      }));
      const limit = 1 + Math.floor(random() * 150);
      const allowed = (name: number) => name % 7 !== 0;
      expect(run(evidence, parts, limit, allowed)).toEqual(reference(parts, limit, allowed));
    }
  });
});
