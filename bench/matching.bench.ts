/**
 * Matching benchmark: quality on the labelled evaluation sets next to yente logic-v2's published
 * figures, and speed next to an exhaustive scan of the same index (every name scored) measured in
 * the same run. Usage: `npm run bench:matching -- --help`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import type { CheckType } from '../src/screening/checkTypes.js';
import {
  type ScreeningIndex,
  ScreeningIndexBuilder,
  type ScreeningMatch,
} from '../src/screening/index/screeningIndex.js';
import type { ListedEntity } from '../src/screening/model/listedEntity.js';
import { FTM_PARTY_KINDS } from '../src/screening/parsers/ftmEntity.js';
import { sourceFormats } from '../src/screening/parsers/registry.js';
import { scoreNamePair } from '../src/screening/scoring/comparePair.js';
import { defaultProfile } from '../src/screening/scoring/profiles.js';
import type { ScreeningSubject } from '../src/screening/scoring/query.js';
import { subjectFromRow } from '../src/screening/scoring/subjectInput.js';
import { crossScriptPairs, scoreCrossScript, searchOriginalScripts } from './support/crossScript.js';
import { scoreDisguises } from './support/disguises.js';
import { table } from './support/report.js';
import { type Distribution, distribution } from './support/stats.js';
import { namePartsOf, seededRandom, syntheticPersons, withTypo } from './support/syntheticNames.js';

const USAGE = `Usage: npm run bench:matching -- [--synthetic-names N] [--queries N] [--baseline-queries N]
  --synthetic-names  size of the synthetic index (default 2000000; 0 skips it)
  --queries          latency queries per index (default 4000)
  --baseline-queries queries of the exhaustive-scan baseline (default 50 on the real lists, 5 at 2M)
Reads the lists and evaluation sets from SCREENING_DATA_DIR (default ../shared/data).
Run with node --expose-gc (the npm script does) for heap figures after collection.`;

/** yente logic-v2 on the same pairs (design/SCREENING.md). */
const YENTE = { precision: 0.785, recall: 0.825, f1: 0.804 };
const TARGETS = {
  f1: 0.9,
  heldOutF1: 0.92,
  unRecall: 0.98,
  falsePositiveRate: 0.005,
  globalFalsePositiveRate: 0.003,
  originalScriptRecall: 0.95,
  p99Ms: 5,
};

/** Every list the benchmark loads: the current version of each publisher's list in the data folder. */
const LISTS: readonly [format: string, paths: string[]][] = [
  ['ofac-csv', ['ofac/sdn_2024-05-03.csv']],
  ['ofac-xml', ['ofac/consolidated_2026-01.xml']],
  ['un-xml', ['un/UN_consolidated_2026-02.xml']],
  ['csl-csv', ['us_csl/consolidated.csv.gz']],
  ['bis-dpl', ['us_bis/dpl_2022-09.txt']],
  ['ca-sema-xml', ['canada/sema_sanctions_2025-05.xml']],
  ['ebrd-csv', ['debarment/ebrd_ineligible_firms.csv']],
  ['us-congress-yaml', ['pep/us_congress/legislators-current.yaml', 'pep/us_congress/executive.yaml']],
  ['everypolitician-csv', ['pep/everypolitician_2015-11']],
];

const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const profile = defaultProfile();

interface Options {
  syntheticNames: number;
  queries: number;
  baselineQueries: number;
  baselineQueriesLarge: number;
}

function parseOptions(): Options | 'help' {
  const { values } = parseArgs({
    options: {
      'synthetic-names': { type: 'string' },
      queries: { type: 'string' },
      'baseline-queries': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  const number = (text: string | undefined, fallback: number) => {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 0) throw new Error(`not a count: ${text}\n${USAGE}`);
    return value;
  };
  return {
    syntheticNames: number(values['synthetic-names'], 2_000_000),
    queries: number(values.queries, 4000),
    baselineQueries: number(values['baseline-queries'], 50),
    baselineQueriesLarge: 5,
  };
}

function dataDir(): string {
  return path.resolve(process.env.SCREENING_DATA_DIR ?? path.join(process.cwd(), '..', 'shared', 'data'));
}

function readCsv(file: string): Record<string, string>[] {
  return parse(readFileSync(file), { columns: true, bom: true }) as Record<string, string>[];
}

function heapMb(): number {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 1_000_000;
}

async function parseLists(dir: string): Promise<ListedEntity[]> {
  const entities: ListedEntity[] = [];
  for (const [format, paths] of LISTS) {
    for await (const entity of sourceFormats[format]!.parse(paths.map((p) => path.join(dir, p))))
      entities.push(entity);
  }
  return entities;
}

function buildIndex(entities: Iterable<ListedEntity>): { index: ScreeningIndex; ms: number; heapMb: number } {
  const before = heapMb();
  const started = performance.now();
  const builder = new ScreeningIndexBuilder();
  for (const entity of entities) builder.add(entity);
  const index = builder.build();
  const ms = performance.now() - started;
  return { index, ms, heapMb: heapMb() - before };
}

// ---- quality ---------------------------------------------------------------------------------

interface PairScores {
  pairs: number;
  precision: number;
  recall: number;
  f1: number;
}

/**
 * The held-out discipline: the dev pairs split in two halves by a hash of the pair, so a rule tuned
 * while looking at one half is judged on the other ('a' is the half looked at; 'b' is not).
 */
function pairHalf(row: Record<string, string>): 'a' | 'b' {
  return createHash('sha256').update(`${row.name1}\u0000${row.name2}`).digest()[0]! % 2 === 0 ? 'a' : 'b';
}

function namePairs(dir: string, half?: 'a' | 'b'): PairScores {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const rows = readCsv(path.join(dir, 'eval', 'name_pairs_dev.csv')).filter(
    (row) => half === undefined || pairHalf(row) === half,
  );
  for (const row of rows) {
    const kind = FTM_PARTY_KINDS[row.schema!] ?? 'unknown';
    const predicted = scoreNamePair(kind, row.name1!, row.name2!, profile).match;
    const actual = row.is_match === 'true';
    if (predicted && actual) tp++;
    else if (predicted) fp++;
    else if (actual) fn++;
  }
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  return { pairs: rows.length, precision, recall, f1: (2 * precision * recall) / (precision + recall) };
}

interface Screening {
  rows: number;
  hits: number;
  latency: Distribution;
}

/**
 * The rows as subjects, read as a batch file is: the treated positives carry deliberate noise,
 * impossible birth dates included ("1974-01-32"), and such a field is left out.
 */
function subjectsOf(file: string): ScreeningSubject[] {
  return readCsv(file).map((row, index) => {
    const reading = subjectFromRow(row);
    if (!reading.ok) throw new Error(`${file} row ${index}: ${reading.message}`);
    return reading.value.subject;
  });
}

function screenAll(
  index: ScreeningIndex,
  subjects: readonly ScreeningSubject[],
  checkTypes: CheckType[],
): Screening {
  let hits = 0;
  const samples: number[] = [];
  for (const subject of subjects) {
    const started = performance.now();
    const matches = index.search(subject, { profile, checkTypes });
    samples.push(performance.now() - started);
    if (matches.length > 0) hits++;
  }
  return { rows: subjects.length, hits, latency: distribution(samples) };
}

/**
 * Whether the subject's person is in the loaded PEP data at all: a PEP with the same family name
 * (last word) and birth year. Most Congress positives are former members neither the current
 * Congress file nor the 2015 EveryPolitician legislatures hold; recall over those measures the
 * data, not the matcher.
 */
function inData(subject: ScreeningSubject, entities: readonly ListedEntity[]): boolean {
  const family = subject.name
    .replace(/,? (Jr|Sr|II|III)\.?$/i, '')
    .split(' ')
    .at(-1)!
    .toLowerCase();
  const year = subject.birthDate ? String(subject.birthDate.year) : undefined;
  return entities.some(
    (entity) =>
      entity.topics.includes('role.pep') &&
      entity.birthDates.some((date) => year !== undefined && date.from.startsWith(year)) &&
      entity.names.some((name) => name.full.toLowerCase().split(/\s+/).includes(family)),
  );
}

/** Screens every subject against every sanctions list; the strongest false matches, best first. */
function strongestFalseMatches(
  index: ScreeningIndex,
  subjects: readonly ScreeningSubject[],
  keep = 20,
): { rows: number; hits: number; strongest: { subject: ScreeningSubject; match: ScreeningMatch }[] } {
  let hits = 0;
  const found: { subject: ScreeningSubject; match: ScreeningMatch }[] = [];
  for (const subject of subjects) {
    const [best] = index.search(subject, { profile, checkTypes: ['sanctions'] });
    if (!best) continue;
    hits++;
    found.push({ subject, match: best });
  }
  found.sort((x, y) => y.match.explanation.score - x.match.explanation.score);
  return { rows: subjects.length, hits, strongest: found.slice(0, keep) };
}

// ---- speed -----------------------------------------------------------------------------------

interface Speed {
  indexed: Distribution;
  exhaustive: Distribution;
  /** Share of the exhaustive scan's top match that the index also returned first. */
  agreement: number;
}

/**
 * Latency of `latencySubjects` through the index (after a warm-up on other queries), and of the
 * first `baselineSubjects` through an exhaustive scan of the same index, with how often both put
 * the same party first.
 */
function timeQueries(
  index: ScreeningIndex,
  latencySubjects: readonly ScreeningSubject[],
  baselineSubjects: readonly ScreeningSubject[],
  checkTypes: CheckType[],
): Speed {
  const warmUp = latencySubjects.slice(0, 300);
  for (const subject of warmUp) index.search(subject, { profile, checkTypes });
  const samples: number[] = [];
  for (const subject of latencySubjects.slice(warmUp.length)) {
    const started = performance.now();
    index.search(subject, { profile, checkTypes });
    samples.push(performance.now() - started);
  }
  const baseline: number[] = [];
  let agree = 0;
  let compared = 0;
  for (const subject of baselineSubjects) {
    const started = performance.now();
    const exhaustive = index.search(subject, { profile, checkTypes, exhaustive: true });
    baseline.push(performance.now() - started);
    const indexed = index.search(subject, { profile, checkTypes });
    if (exhaustive.length > 0) {
      compared++;
      if (indexed[0]?.entity.id === exhaustive[0]!.entity.id) agree++;
    }
  }
  return {
    indexed: distribution(samples),
    exhaustive: distribution(baseline),
    agreement: compared === 0 ? 1 : agree / compared,
  };
}

const pct = (value: number, digits = 1) => `${(value * 100).toFixed(digits)}%`;
const f3 = (value: number) => value.toFixed(3);
const msText = (value: number) => `${value.toFixed(2)} ms`;

async function main(): Promise<void> {
  const options = parseOptions();
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  const dir = dataDir();
  if (!existsSync(dir)) {
    console.log(`Skipped: the screening data folder ${dir} is absent (set SCREENING_DATA_DIR).`);
    return;
  }
  console.log(
    `Matching benchmark, ${new Date().toISOString()}: ${os.cpus().length} cores (${os.cpus()[0]?.model}), Node ${process.version}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(`Profile "${profile.id}": threshold ${profile.threshold}, data ${dir}\n`);

  progress('name pairs');
  const pairs = namePairs(dir);
  const halves = { a: namePairs(dir, 'a'), b: namePairs(dir, 'b') };

  progress('parsing every list');
  const parseStarted = performance.now();
  const entities = await parseLists(dir);
  const parseMs = performance.now() - parseStarted;
  progress(`indexing ${entities.length} entities`);
  const all = buildIndex(entities);
  const un = buildIndex(entities.filter((e) => e.datasets.includes('un_sc_sanctions')));
  // The Congress PEP data: the current members (Congress YAML) and the 2015 legislatures (EveryPolitician).
  const peps = buildIndex(entities.filter((e) => e.topics.includes('role.pep')));

  progress('screening the evaluation sets');
  const unPositives = screenAll(
    un.index,
    subjectsOf(path.join(dir, 'eval', 'un_positives_treated_dev.csv')),
    ['sanctions'],
  );
  const congressRows = subjectsOf(path.join(dir, 'eval', 'us_congress_positives_dev.csv'));
  const congressPositives = screenAll(peps.index, congressRows, ['pep']);
  const listedRows = congressRows.filter((subject) => inData(subject, entities));
  const listedPositives = screenAll(peps.index, listedRows, ['pep']);
  const negatives = subjectsOf(path.join(dir, 'eval', 'negatives_synthetic_us.csv'));
  const negativeRun = screenAll(all.index, negatives, ['sanctions']);
  // People (the file gives each a gender and a birth date), screened as a check screens a person.
  const globalNegatives = subjectsOf(path.join(dir, 'eval', 'negatives_synthetic_global_dev.csv')).map(
    (subject) => ({ ...subject, kind: 'person' as const }),
  );
  const globalRun = strongestFalseMatches(all.index, globalNegatives);
  const crossScript = scoreCrossScript(crossScriptPairs(entities), profile);
  const disguises = scoreDisguises(
    entities.filter((e) => e.datasets.includes('un_sc_sanctions')),
    profile,
  );
  // UN persons searched by their NAME_ORIGINAL_SCRIPT against the UN list without such names.
  const unOriginals = searchOriginalScripts(
    entities.filter((e) => e.datasets.includes('un_sc_sanctions')),
    (indexed) => {
      const index = buildIndex(indexed).index;
      return (name) =>
        index.search(
          { name, kind: 'person', countries: [], identifiers: [] },
          { profile, checkTypes: ['sanctions'] },
        );
    },
  );

  console.log('Quality');
  console.log(
    table(
      ['measure', 'ours', 'baseline', 'target'],
      [
        [
          `name pairs (${pairs.pairs}): precision`,
          f3(pairs.precision),
          `${f3(YENTE.precision)} yente logic-v2`,
          '',
        ],
        ['name pairs: recall', f3(pairs.recall), `${f3(YENTE.recall)} yente logic-v2`, ''],
        ['name pairs: F1', f3(pairs.f1), `${f3(YENTE.f1)} yente logic-v2`, `>= ${TARGETS.f1}`],
        [
          `UN treated positives (${unPositives.rows}) vs UN list: recall`,
          pct(unPositives.hits / unPositives.rows),
          '',
          `>= ${pct(TARGETS.unRecall, 0)}`,
        ],
        [
          `Congress positives (${congressPositives.rows}) vs PEP data: recall`,
          pct(congressPositives.hits / congressPositives.rows),
          '',
          '',
        ],
        [
          `  of those whose person is in the data (${listedPositives.rows})`,
          pct(listedPositives.hits / listedPositives.rows),
          '',
          '',
        ],
        [
          `synthetic negatives (${negativeRun.rows}) vs all sanctions: false positives`,
          `${pct(negativeRun.hits / negativeRun.rows, 2)} (${negativeRun.hits})`,
          '',
          `<= ${pct(TARGETS.falsePositiveRate, 1)}`,
        ],
        [
          `  names from every region (${globalRun.rows}): false positives`,
          `${pct(globalRun.hits / globalRun.rows, 2)} (${globalRun.hits})`,
          '',
          `<= ${pct(TARGETS.globalFalsePositiveRate, 1)}`,
        ],
        ...(['a', 'b'] as const).map((half) => [
          `name pairs, half ${half} (${halves[half].pairs}${half === 'b' ? ', held out' : ''}): P / R / F1`,
          `${f3(halves[half].precision)} / ${f3(halves[half].recall)} / ${f3(halves[half].f1)}`,
          '',
          half === 'b' ? `F1 >= ${TARGETS.heldOutF1}` : '',
        ]),
      ],
    ),
  );

  console.log(
    '\nCross-script: each listed person with a name in another script (UN NAME_ORIGINAL_SCRIPT and',
  );
  console.log('the non-Latin aliases of every list) against their own Latin names, and against those of the');
  console.log('next person of the same script (a false pair); a pair matches when any Latin name does.');
  console.log("Half a is the half looked at while tuning; half b is held out (a hash of the party's id).");
  console.log(
    table(
      ['script', 'true pairs', 'recall', 'false pairs', 'false positives'],
      crossScript.map((row) => [
        row.script,
        String(row.truePairs),
        pct(row.recall),
        String(row.falsePairs),
        pct(row.falsePositiveRate),
      ]),
    ),
  );

  console.log(
    '\nDisguised names: 300 UN listed persons (seeded), each name disguised in the ways the labelled',
  );
  console.log("pairs' categories name, scored against the name itself (generated, not the labelled rows)");
  console.log(
    table(
      ['disguise', 'pairs', 'recall'],
      disguises.map((row) => [row.disguise, String(row.pairs), pct(row.recall)]),
    ),
  );

  console.log(
    '\nUN listed persons searched by their name in its original script, against the UN list with every',
  );
  console.log("non-Latin name removed (found: the person is among the search's matches)");
  console.log(
    table(
      ['script', 'persons', 'found', 'target'],
      unOriginals.map((row) => [
        row.script,
        String(row.persons),
        pct(row.recall),
        `>= ${pct(TARGETS.originalScriptRecall, 0)}`,
      ]),
    ),
  );

  console.log(`\nThe ${globalRun.strongest.length} strongest false matches of the names from every region`);
  console.log(
    table(
      ['screened', 'matched listed name', 'score', 'name', 'birth date', 'countries'],
      globalRun.strongest.map(({ subject, match }) => {
        const fields = match.explanation.supportingFields;
        return [
          `${subject.name}${subject.birthDate ? ` (${subject.birthDate.year})` : ''}`,
          match.explanation.matchedName,
          f3(match.explanation.score),
          fields.name.status,
          fields.birth_date.status,
          fields.countries.status,
        ];
      }),
    ),
  );

  progress('timing queries on all lists');
  const random = seededRandom(7);
  // Most people screened are on no list: nine queries in ten are negatives, one a treated positive.
  const unRows = subjectsOf(path.join(dir, 'eval', 'un_positives_treated_dev.csv'));
  const realQueries = Array.from({ length: options.queries }, (_, i) =>
    i % 10 === 0 ? unRows[(i / 10) % unRows.length]! : negatives[i % negatives.length]!,
  );
  const everyCheck: CheckType[] = ['sanctions', 'pep', 'business_entity_risk'];
  const real = timeQueries(all.index, realQueries, unRows.slice(0, options.baselineQueries), everyCheck);
  const stats = all.index.stats();
  const rows: string[][] = [
    [
      `all lists: ${stats.entities} entities, ${stats.names} names`,
      `build ${(all.ms / 1000).toFixed(2)} s (parse ${(parseMs / 1000).toFixed(2)} s), heap ${all.heapMb.toFixed(0)} MB`,
      '',
    ],
    [
      '  query p50 / p99',
      `${msText(real.indexed.p50)} / ${msText(real.indexed.p99)}`,
      `${msText(real.exhaustive.p50)} / ${msText(real.exhaustive.p99)} exhaustive (${(real.exhaustive.p50 / real.indexed.p50).toFixed(0)}x p50), same top match on treated positives ${pct(real.agreement)}`,
    ],
  ];

  if (options.syntheticNames > 0) {
    progress(`building ${options.syntheticNames} synthetic names`);
    const parts = namePartsOf(entities);
    const synthetic = syntheticPersons(
      parts,
      options.syntheticNames,
      42,
      Math.max(1, Math.floor(options.syntheticNames / 2000)),
    );
    const large = buildIndex(synthetic.entities);
    progress('timing queries at scale');
    const planted = synthetic.planted.map((p, i) => ({
      ...p,
      query: i % 2 === 0 ? p.name : withTypo(p.name, random),
    }));
    let found = 0;
    for (const p of planted) {
      const matches = large.index.search(
        { name: p.query, kind: 'person', countries: [], identifiers: [] },
        { profile, checkTypes: ['sanctions'] },
      );
      if (matches.some((m) => m.entity.id === p.id)) found++;
    }
    const largeQueries: ScreeningSubject[] = [];
    for (let i = 0; i < options.queries; i++) {
      largeQueries.push(
        i % 2 === 0
          ? { name: planted[i % planted.length]!.query, kind: 'person', countries: [], identifiers: [] }
          : negatives[i % negatives.length]!,
      );
    }
    const scaled = timeQueries(
      large.index,
      largeQueries,
      largeQueries.slice(0, options.baselineQueriesLarge),
      ['sanctions'],
    );
    rows.push(
      [
        `synthetic: ${large.index.stats().names} names from ${parts.given.length} given and ${parts.family.length} family names`,
        `build ${(large.ms / 1000).toFixed(1)} s, heap ${large.heapMb.toFixed(0)} MB`,
        '',
      ],
      [
        '  query p50 / p99 (one core)',
        `${msText(scaled.indexed.p50)} / ${msText(scaled.indexed.p99)}`,
        `${msText(scaled.exhaustive.p50)} exhaustive p50 (${(scaled.exhaustive.p50 / scaled.indexed.p50).toFixed(0)}x); target p99 <= ${TARGETS.p99Ms} ms`,
      ],
      [`  planted names found (${planted.length}, half with a typo)`, pct(found / planted.length), ''],
    );
  }
  console.log('\nSpeed (single-threaded, after a warm-up of 300 queries)');
  console.log(table(['index', 'ours', 'baseline measured in this run'], rows));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
