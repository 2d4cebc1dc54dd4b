import { beforeAll, describe, expect, it } from 'vitest';
import {
  type MonitoredSubject,
  MonitoredSubjectIndex,
} from '../../../src/monitoring/delta/monitoredSubjectIndex.js';
import { ScreeningIndex } from '../../../src/screening/index/screeningIndex.js';
import type { ListedEntity } from '../../../src/screening/model/listedEntity.js';
import { ofacCsvFormat } from '../../../src/screening/parsers/ofacCsv.js';
import { findProfile } from '../../../src/screening/scoring/profiles.js';
import { collectEntities } from '../../support/parsedEntities.js';
import { screeningData } from '../../support/screeningData.js';

/**
 * The reverse index's guarantee on real data: for subjects made from OFAC SDN names (as listed,
 * a middle part dropped, parts swapped, a transliteration variant) and synthetic names from real
 * name parts, every match the forward search finds among a few hundred SDN entities is among the
 * reverse candidates of that entity. Also how many candidates it gives beyond the true matches,
 * and what it costs at 100,000 subjects.
 */

const data = screeningData('reverse screening on OFAC SDN names');

/** A small deterministic generator, so a failure replays. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const VARIANTS: [RegExp, string][] = [
  [/OU/g, 'U'],
  [/Y/g, 'I'],
  [/KH/g, 'H'],
  [/MOHAMMED/g, 'MUHAMMAD'],
  [/EE/g, 'I'],
];

function variationsOf(name: string, rnd: () => number): string[] {
  const parts = name.replace(/,/g, ' ').split(/\s+/).filter(Boolean);
  const out = [name];
  if (parts.length >= 3) out.push([parts[0], ...parts.slice(2)].join(' '));
  if (parts.length >= 2) out.push([...parts.slice(1), parts[0]].join(' '));
  const [pattern, replacement] = VARIANTS[Math.floor(rnd() * VARIANTS.length)]!;
  const varied = name.toUpperCase().replace(pattern, replacement);
  if (varied !== name.toUpperCase()) out.push(varied);
  return out;
}

describe.skipIf(!data.available)('MonitoredSubjectIndex on OFAC SDN names', () => {
  let sdn: ListedEntity[];
  let given: string[];
  let family: string[];

  beforeAll(async () => {
    sdn = await collectEntities(ofacCsvFormat, [data.file('ofac', 'sdn_2024-05-03.csv')]);
    const people = sdn.filter((e) => e.kind === 'person');
    given = people.flatMap((e) => e.names[0]!.full.split(',')[1]?.trim().split(/\s+/) ?? []).filter(Boolean);
    family = people.map((e) => e.names[0]!.full.split(',')[0]!.trim()).filter(Boolean);
  }, 60_000);

  it('returns every subject the forward search matches, for each profile', () => {
    const rnd = random(14);
    const entities = sdn.filter((_, i) => i % 37 === 0);
    const subjects: MonitoredSubject[] = [];
    for (const entity of entities.slice(0, 120)) {
      for (const name of variationsOf(entity.names[0]!.full, rnd)) {
        const kind = rnd() < 0.2 ? 'unknown' : entity.kind;
        subjects.push({
          key: `s${subjects.length}`,
          subject: { name, kind, countries: [], identifiers: [] },
          checkTypes: ['sanctions'],
        });
      }
    }
    for (let i = 0; i < 200; i++) {
      const name = `${given[Math.floor(rnd() * given.length)]} ${family[Math.floor(rnd() * family.length)]}`;
      subjects.push({
        key: `s${subjects.length}`,
        subject: { name, kind: 'person', countries: [], identifiers: [] },
        checkTypes: ['sanctions'],
      });
    }
    const forward = ScreeningIndex.build(entities);
    const reverse = MonitoredSubjectIndex.build(subjects);

    for (const profileId of ['default', 'broad', 'strict']) {
      const profile = findProfile(profileId)!;
      const matched = new Set<string>();
      for (const { key, subject, checkTypes } of subjects) {
        for (const match of forward.search(subject, { profile, checkTypes }))
          matched.add(`${key}|${match.entity.id}`);
      }
      const started = performance.now();
      const candidates = new Set<string>();
      for (const entity of entities) {
        for (const key of reverse.candidatesFor(entity, profile)) candidates.add(`${key}|${entity.id}`);
      }
      const ms = performance.now() - started;
      const missing = [...matched].filter((pair) => !candidates.has(pair));
      console.info(
        `${profileId}: ${subjects.length} subjects x ${entities.length} entities: ${matched.size} forward matches, ${candidates.size} reverse candidates (precision ${(matched.size / Math.max(1, candidates.size)).toFixed(3)}), reverse ${ms.toFixed(0)} ms`,
      );
      expect(missing).toEqual([]);
      expect(matched.size).toBeGreaterThan(100);
    }
  });

  it('builds 100,000 subjects and answers a few hundred changed entities (figures printed)', () => {
    const rnd = random(100);
    const subjects: MonitoredSubject[] = [];
    const people = sdn.filter((e) => e.kind === 'person');
    for (let i = 0; i < 100_000; i++) {
      const name =
        i % 250 === 0
          ? people[Math.floor(rnd() * people.length)]!.names[0]!.full
          : `${given[Math.floor(rnd() * given.length)]} ${rnd() < 0.3 ? `${given[Math.floor(rnd() * given.length)]} ` : ''}${family[Math.floor(rnd() * family.length)]}`;
      subjects.push({
        key: `s${i}`,
        subject: { name, kind: 'person', countries: [], identifiers: [] },
        checkTypes: ['sanctions'],
      });
    }
    const built = performance.now();
    const reverse = MonitoredSubjectIndex.build(subjects);
    const buildMs = performance.now() - built;
    const changed = sdn.filter((_, i) => i % 50 === 0).slice(0, 300);
    const profile = findProfile('default')!;
    const started = performance.now();
    let total = 0;
    for (const entity of changed) total += reverse.candidatesFor(entity, profile).length;
    const queryMs = performance.now() - started;
    console.info(
      `100,000 subjects: built in ${buildMs.toFixed(0)} ms; ${changed.length} entities answered in ${queryMs.toFixed(0)} ms, ${total} candidates`,
    );
    expect(reverse.size).toBe(100_000);
  }, 120_000);
});
