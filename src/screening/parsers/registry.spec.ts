import { describe, expect, it } from 'vitest';
import { fixturePath } from '../../../test/support/parsedEntities.js';
import type { DeltaFormat, SourceFormat } from '../model/listedEntity.js';
import { deltaFormats, sourceFormats } from './registry.js';

/** A well-formed fixture of each format, as a load would be given it. */
const FIXTURES: Record<string, string[]> = {
  'bis-dpl': [fixturePath('bis-dpl', 'dpl.txt')],
  'ca-sema-xml': [fixturePath('ca-sema-xml', 'sema.xml')],
  'csl-csv': [fixturePath('csl-csv', 'consolidated.csv')],
  'ebrd-csv': [fixturePath('ebrd-csv', 'ineligible.csv')],
  'everypolitician-csv': [fixturePath('everypolitician-csv', 'ep')],
  ftm: [fixturePath('ftm', 'entities.ftm.jsonl')],
  'ftm-delta': [fixturePath('ftm', 'deltas', '20240527194702-wnk.entities.delta.jsonl')],
  'ofac-csv': [fixturePath('ofac-csv', 'set')],
  'ofac-xml': [fixturePath('ofac-xml', 'consolidated.xml')],
  'un-xml': [fixturePath('un-xml', 'consolidated.xml')],
  'us-congress-yaml': [fixturePath('us-congress-yaml', 'set')],
};

/** The publication date the format's parser reports for its fixture, if any. */
async function statedDate(format: SourceFormat | DeltaFormat): Promise<Date | undefined> {
  let stated: Date | undefined;
  const options = {
    onPublishedAt: (date: Date) => {
      stated = date;
    },
  };
  const items =
    'parse' in format
      ? format.parse(FIXTURES[format.name]!, options)
      : format.parseDelta(FIXTURES[format.name]!, options);
  for await (const _ of items) {
    // read to the end: a date may come last
  }
  return stated;
}

describe('the format registry', () => {
  const all = { ...sourceFormats, ...deltaFormats };

  it('has a fixture here for every format', () => {
    expect(Object.keys(all).sort()).toEqual(Object.keys(FIXTURES).sort());
  });

  // Which formats need `--published-at` (or a sync's Last-Modified) is decided by `datedBy`: a
  // format claiming a date its parser never reports would have every load refused at the end, one
  // reporting a date it does not claim would be refused for no reason before it is read.
  it.each(
    Object.keys(FIXTURES),
  )('%s reports a publication date exactly when it says where it reads one', async (name) => {
    const format = all[name]!;
    const stated = await statedDate(format);
    expect(
      stated !== undefined,
      `${name}: datedBy ${format.datedBy ?? '(none)'}, stated ${stated?.toISOString()}`,
    ).toBe(format.datedBy !== undefined);
  });

  it('knows which formats state no publication date in their files', () => {
    const undated = Object.values(all)
      .filter((format) => format.datedBy === undefined)
      .map((format) => format.name)
      .sort();
    expect(undated).toEqual([
      'bis-dpl',
      'ca-sema-xml',
      'csl-csv',
      'ebrd-csv',
      'ftm',
      'ofac-csv',
      'us-congress-yaml',
    ]);
  });
});
