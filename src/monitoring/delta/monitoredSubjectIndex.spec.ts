import { describe, expect, it } from 'vitest';
import { listedParty } from '../../../test/support/listedEntities.js';
import { defaultProfile, findProfile } from '../../screening/scoring/profiles.js';
import type { ScreeningSubject } from '../../screening/scoring/query.js';
import { type MonitoredSubject, MonitoredSubjectIndex } from './monitoredSubjectIndex.js';

function monitored(
  key: string,
  name: string,
  overrides: Partial<ScreeningSubject> = {},
  checkTypes: MonitoredSubject['checkTypes'] = ['sanctions'],
): MonitoredSubject {
  return { key, subject: { name, kind: 'person', countries: [], identifiers: [], ...overrides }, checkTypes };
}

const index = MonitoredSubjectIndex.build([
  monitored('exact', 'Viktor Bout'),
  monitored('typo', 'Viktor Butt'),
  monitored('swapped', 'Bout Viktor'),
  monitored('alias-only', 'Victor Anatolyevich Bout'),
  monitored('other', 'Maria Gonzalez'),
  monitored('pep-only', 'Viktor Bout', {}, ['pep']),
  monitored('company', 'Viktor Bout', { kind: 'company' }),
  monitored('vessel-imo', 'Sea Breeze', {
    kind: 'vessel',
    identifiers: [{ scheme: 'other', value: 'IMO 9123456' }],
  }),
]);

describe('MonitoredSubjectIndex', () => {
  it('searches in steps of a few dozen name groups, with the same candidates as in one go', () => {
    // 300 name groups reached by the party: 150 near matches, 150 sharing only the given name.
    const many = MonitoredSubjectIndex.build(
      Array.from({ length: 300 }, (_, i) =>
        monitored(`s${i}`, i % 2 === 0 ? `Viktor Bout ${'x'.repeat(1 + (i % 7))}${i}` : `Viktor Other${i}`),
      ),
    );
    const bout = listedParty('test:1', ['Viktor BOUT']);
    const steps = many.candidateSteps(bout, defaultProfile());
    let taken = 0;
    let step = steps.next();
    while (!step.done) {
      taken++;
      step = steps.next();
    }
    expect(taken).toBeGreaterThanOrEqual(4);
    expect(step.value).toEqual(many.candidatesFor(bout, defaultProfile()));
    expect(step.value.length).toBeGreaterThan(0);
  });

  it('finds the subjects an entity matches by name, spelling, order and alias, for their check types and kinds only', () => {
    const bout = listedParty('test:1', ['Viktor BOUT', 'Victor Anatolyevich BUT']);
    expect(index.candidatesFor(bout, defaultProfile())).toEqual(['exact', 'typo', 'swapped', 'alias-only']);
    expect(index.candidatesFor(bout, findProfile('strict')!)).not.toContain('other');
  });

  it('finds a subject by an identifier whatever the name, and nobody for an unrelated entity', () => {
    const vessel = listedParty('test:2', ['OCEAN STAR'], {
      kind: 'vessel',
      identifiers: [{ scheme: 'imo', value: '9123456' }],
    });
    expect(index.candidatesFor(vessel, defaultProfile())).toEqual(['vessel-imo']);
    expect(index.candidatesFor(listedParty('test:3', ['Jean Dupont']), defaultProfile())).toEqual([]);
  });

  it('returns nobody for an entity no check type screens, or outside the profile datasets', () => {
    expect(
      index.candidatesFor(listedParty('test:4', ['Viktor BOUT'], { topics: [] }), defaultProfile()),
    ).toEqual([]);
    expect(index.candidatesFor(listedParty('test:5', ['Viktor BOUT']), findProfile('us-ofac')!)).toEqual([]);
  });
});

describe('MonitoredSubjectIndex across an abjad transliteration', () => {
  it('reaches subjects whose parts are glued or split otherwise than the listed name, as the forward search does', () => {
    const reverse = MonitoredSubjectIndex.build([
      monitored('compound', 'عبد الرحمن'),
      monitored('two-words', 'ولی جان'),
      monitored('latin-parts', 'Abdul Hamid'),
    ]);
    expect(reverse.candidatesFor(listedParty('test:9', ['ABDUL RAHMAN']), defaultProfile())).toEqual([
      'compound',
    ]);
    expect(reverse.candidatesFor(listedParty('test:10', ['WALIJAN']), defaultProfile())).toEqual([
      'two-words',
    ]);
    expect(reverse.candidatesFor(listedParty('test:11', ['عبدالحميد']), defaultProfile())).toEqual([
      'latin-parts',
    ]);
    // Halves met only under another reading of each term (ض read as the z of FAZL and RAZA), as the
    // forward search meets them.
    const glued = MonitoredSubjectIndex.build([monitored('reading', 'فضلرضا')]);
    expect(glued.candidatesFor(listedParty('test:12', ['FAZL RAZA']), defaultProfile())).toEqual(['reading']);
  });
});

describe('MonitoredSubjectIndex across reading names', () => {
  it('reaches subjects in kanji or Korean in Cyrillic from Latin listed names, and the other way round', () => {
    const reverse = MonitoredSubjectIndex.build([
      monitored('kanji', '安倍晋三'),
      monitored('cyrillic', 'Ким Чен Ын'),
      monitored('latin-japanese', 'Fumio Kishida'),
      monitored('latin-korean', 'Kim Jong Il'),
      monitored('hangul', '최룡해'),
    ]);
    expect(reverse.candidatesFor(listedParty('test:17', ['CHOE, Ryong Hae']), defaultProfile())).toEqual([
      'hangul',
    ]);
    expect(reverse.candidatesFor(listedParty('test:13', ['ABE, Shinzo']), defaultProfile())).toEqual([
      'kanji',
    ]);
    expect(reverse.candidatesFor(listedParty('test:14', ['KIM Jong Un']), defaultProfile())).toEqual([
      'cyrillic',
    ]);
    expect(reverse.candidatesFor(listedParty('test:15', ['岸田文雄']), defaultProfile())).toEqual([
      'latin-japanese',
    ]);
    expect(reverse.candidatesFor(listedParty('test:16', ['Ким Чен Ир']), defaultProfile())).toEqual([
      'latin-korean',
    ]);
  });

  it('reaches subjects in Chinese transcription by the sound of a Latin spelling, and the other way round', () => {
    const reverse = MonitoredSubjectIndex.build([
      monitored('chinese', '乔治·奥斯本'),
      monitored('latin-english', 'George Osborne'),
    ]);
    expect(reverse.candidatesFor(listedParty('test:20', ['OSBORNE, George']), defaultProfile())).toEqual([
      'chinese',
      'latin-english',
    ]);
    expect(reverse.candidatesFor(listedParty('test:21', ['乔治·奥斯本']), defaultProfile())).toEqual([
      'chinese',
      'latin-english',
    ]);
    const hangul = MonitoredSubjectIndex.build([
      monitored('hangul', '필립 해먼드'),
      monitored('latin-english', 'Philip Hammond'),
    ]);
    expect(hangul.candidatesFor(listedParty('test:22', ['HAMMOND, Philip']), defaultProfile())).toEqual([
      'hangul',
      'latin-english',
    ]);
    expect(hangul.candidatesFor(listedParty('test:23', ['필립 해먼드']), defaultProfile())).toEqual([
      'hangul',
      'latin-english',
    ]);
  });

  it('reaches an organisation monitored under its acronym from the listed name that spells it', () => {
    const reverse = MonitoredSubjectIndex.build([
      monitored('acronym', 'NIOC', { kind: 'company' }),
      monitored('unknown-kind', 'NIOC', { kind: 'unknown' }),
      monitored('person', 'Nioc', { kind: 'person' }),
      monitored('other-acronym', 'NIGC', { kind: 'company' }),
      monitored('not-in-capitals', 'Nioc', { kind: 'company' }),
    ]);
    const party = listedParty('test:24', ['National Iranian Oil Company'], { kind: 'company' });
    expect(reverse.candidatesFor(party, defaultProfile())).toEqual(['acronym', 'unknown-kind']);
  });

  it('reaches subjects in katakana by the sound of an English spelling, and the other way round', () => {
    const reverse = MonitoredSubjectIndex.build([
      monitored('katakana', 'マーク・ウォーナー'),
      monitored('latin-english', 'Mark Warner'),
    ]);
    // Each listed name reaches the subject written as it is and, by the sound alone, the other.
    expect(reverse.candidatesFor(listedParty('test:18', ['Mark WARNER']), defaultProfile())).toEqual([
      'katakana',
      'latin-english',
    ]);
    expect(reverse.candidatesFor(listedParty('test:19', ['マーク・ウォーナー']), defaultProfile())).toEqual([
      'katakana',
      'latin-english',
    ]);
  });
});

describe('MonitoredSubjectIndex kept up to date', () => {
  const bout = listedParty('test:6', ['Viktor BOUT']);

  it('finds a subject added after the build, and stops finding a removed one', () => {
    const updated = MonitoredSubjectIndex.build([
      monitored('a', 'Viktor Bout'),
      monitored('b', 'Maria Gonzalez'),
    ]);
    updated.add(monitored('c', 'Viktor Butt'));
    expect(updated.candidatesFor(bout, defaultProfile())).toEqual(['a', 'c']);
    updated.remove('a');
    expect(updated.candidatesFor(bout, defaultProfile())).toEqual(['c']);
    expect(updated.size).toBe(2);
    expect(updated.removedSize).toBe(1);
  });

  it('finds a subject added after a search whose parts only a fuzzy route reaches (no stale confirmation)', () => {
    const updated = MonitoredSubjectIndex.build([monitored('a', 'Maria Gonzalez')]);
    // A search first: the party's parts are confirmed against the parts there are (none of Bout's).
    expect(updated.candidatesFor(bout, defaultProfile())).toEqual([]);
    updated.add(monitored('typo', 'Viktor Butt'));
    expect(updated.candidatesFor(bout, defaultProfile())).toEqual(['typo']);
  });

  it('replaces the subject of a key added again: its old name and identifiers no longer lead to it', () => {
    const updated = MonitoredSubjectIndex.build([
      monitored('a', 'Viktor Bout', { identifiers: [{ scheme: 'passport', value: 'P1234567' }] }),
    ]);
    updated.add(monitored('a', 'Maria Gonzalez'));
    expect(updated.candidatesFor(bout, defaultProfile())).toEqual([]);
    const byPassport = listedParty('test:7', ['Someone Else'], {
      identifiers: [{ scheme: 'passport', value: 'P1234567' }],
    });
    expect(updated.candidatesFor(byPassport, defaultProfile())).toEqual([]);
    expect(updated.candidatesFor(listedParty('test:8', ['Maria GONZALEZ']), defaultProfile())).toEqual(['a']);
    expect(updated.size).toBe(1);
  });
});
