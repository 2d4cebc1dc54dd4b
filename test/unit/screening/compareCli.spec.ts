import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProfile } from '../../../src/screening/scoring/profiles.js';
import { runCliCaptured } from '../../support/cli.js';
import { screeningData } from '../../support/screeningData.js';

/**
 * `casescreen compare`: labelled name pairs scored as a screening would score them, through the
 * in-process CLI runner. It needs no database: the runner gets no DATABASE_URL, and a command that
 * opened one would start an embedded server and fail here.
 */

const data = screeningData('compare CLI on the dev name pairs');
// No DATABASE_URL, and an embedded data directory that must never be created.
const env = { EMBEDDED_PG_DIR: path.join(os.tmpdir(), 'compare-cli-must-not-exist') };
const cli = (argv: string[]) => runCliCaptured(argv, env);
const readCsv = (text: string) => parse(text) as string[][];

describe('casescreen compare', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'compare-cli-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const pairs = [
    'id,schema,name1,name2,is_match,notes',
    '1,Person,Olaf Scholze,Olaf Scholz,true,typo',
    '2,Person,Angelo Mercaz,Angela Merkel,false,',
    '3,Company,Siemens Aktiengesellschaft,Siemens AG,true,"legal form, spelled out"',
    '4,Starship,Enterprise,Enterprize,true,unknown schema',
    '5,person,"PUTIN, Vladimir Vladimirovich",Vladimir Putin,true,lower-case kind',
    '6,LegalEntity,Gazprom,Gazprombank,false,',
  ].join('\n');

  it('appends score and predicted_match to every row, keeping the other columns in order', async () => {
    const input = path.join(dir, 'pairs.csv');
    await writeFile(input, `${pairs}\n`);
    const result = await cli(['compare', '--input', input]);
    // One row could not be scored: exit code 1, after writing every row.
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'warning: row 3 (line 5): unknown schema "Starship"; score left empty\n' +
        'error: 1 row(s) could not be scored (see the warnings above)\n',
    );
    const rows = readCsv(result.stdout);
    expect(rows[0]).toEqual([
      'id',
      'schema',
      'name1',
      'name2',
      'is_match',
      'notes',
      'score',
      'predicted_match',
    ]);
    expect(rows).toHaveLength(7);
    const inputRows = readCsv(pairs);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.slice(0, 6)).toEqual(inputRows[i]);

    const threshold = findProfile('default')!.threshold;
    const scored = rows.slice(1).filter((row) => row[1] !== 'Starship');
    for (const row of scored) {
      expect(row[6]).toMatch(/^(0|1)\.\d{3}$/);
      expect(row[7]).toBe(String(Number(row[6]) >= threshold));
    }
    expect(rows[1]!.slice(6)).toEqual([expect.any(String), 'true']);
    expect(rows[2]![7]).toBe('false');
    expect(rows[3]![7]).toBe('true');
    expect(rows[4]!.slice(6)).toEqual(['', '']);
    expect(rows[5]![7]).toBe('true');
  });

  it('writes --output, judges at the --profile threshold, and exits 0 when every row scores', async () => {
    const input = path.join(dir, 'clean.csv');
    await writeFile(
      input,
      `schema,name1,name2\nPerson,Angela Merkur,Angela Merkel\nVessel,EVER GIVEN,EVER GIVEN\n`,
    );
    const output = path.join(dir, 'scored.csv');
    const byDefault = await cli(['compare', '--input', input, '--output', output]);
    expect(byDefault).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const rows = readCsv(await readFile(output, 'utf8'));
    expect(rows.map((row) => row.length)).toEqual([5, 5, 5]);
    // An exact name with no other evidence: the name's weight, not 1.
    expect(rows[2]!.slice(3)).toEqual(['0.900', 'true']);

    // The same score judged at the strict profile's higher threshold.
    const score = Number(rows[1]![3]);
    const strict = findProfile('strict')!;
    const strictRun = await cli(['compare', '--input', input, '--profile', 'strict']);
    expect(strictRun.code).toBe(0);
    const strictRows = readCsv(strictRun.stdout);
    expect(strictRows[1]![4]).toBe(String(Number(strictRows[1]![3]) >= strict.threshold));
    expect(Number(strictRows[1]![3])).toBeLessThanOrEqual(score);
  });

  it('refuses a file without the pair columns, a missing file and an unknown profile with exit code 2', async () => {
    const input = path.join(dir, 'bad-header.csv');
    await writeFile(input, 'schema,left,right\nPerson,a,b\n');
    expect(await cli(['compare', '--input', input])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: --input: ${input} has no name1, name2 column (header: schema, left, right)\n`,
    });
    const missing = path.join(dir, 'nowhere.csv');
    expect(await cli(['compare', '--input', missing])).toMatchObject({
      code: 2,
      stderr: `error: --input: no such file: ${missing}\n`,
    });
    expect(await cli(['compare', '--input', input, '--profile', 'loose'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: --profile: unknown profile "loose"/),
    });
    const again = path.join(dir, 'again.csv');
    await writeFile(again, 'schema,name1,name2,score\nPerson,a,b,1\n');
    expect(await cli(['compare', '--input', again])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: --input: .* already has a score column/),
    });
  });

  describe.skipIf(!data.available)('the dev name pairs', () => {
    it('scores every pair, with F1 of predicted_match against is_match of at least 0.88', async () => {
      const input = data.file('eval', 'name_pairs_dev.csv');
      const output = path.join(dir, 'name_pairs_scored.csv');
      const result = await cli(['compare', '--input', input, '--output', output]);
      expect(result, result.stderr).toMatchObject({ code: 0, stdout: '' });

      const source = readCsv(await readFile(input, 'utf8'));
      const rows = readCsv(await readFile(output, 'utf8'));
      expect(rows).toHaveLength(source.length);
      const header = rows[0]!;
      expect(header).toEqual([...source[0]!, 'score', 'predicted_match']);
      const truth = header.indexOf('is_match');
      const predicted = header.indexOf('predicted_match');
      let tp = 0;
      let fp = 0;
      let fn = 0;
      for (const row of rows.slice(1)) {
        const actual = row[truth] === 'true';
        const guess = row[predicted] === 'true';
        if (guess && actual) tp++;
        else if (guess) fp++;
        else if (actual) fn++;
      }
      const precision = tp / (tp + fp);
      const recall = tp / (tp + fn);
      const f1 = (2 * precision * recall) / (precision + recall);
      console.log(
        `compare on name_pairs_dev.csv: ${rows.length - 1} pairs, precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}, F1 ${f1.toFixed(3)}`,
      );
      expect(f1).toBeGreaterThanOrEqual(0.88);
    });
  });
});
