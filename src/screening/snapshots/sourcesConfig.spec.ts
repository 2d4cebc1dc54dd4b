import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { deltaFormats, sourceFormats } from '../parsers/registry.js';
import { parseSourcesConfig, readSourcesConfig, SourcesConfigError } from './sourcesConfig.js';

const shippedConfig = fileURLToPath(new URL('../../../config/sources.json', import.meta.url));

describe('the shipped config/sources.json', () => {
  it('is the default SOURCES_CONFIG and parses', async () => {
    expect(loadConfig({}).sourcesConfigPath).toMatch(/[/\\]config[/\\]sources\.json$/);
    const config = await readSourcesConfig(shippedConfig);
    expect(config.sources.length).toBeGreaterThan(0);
  });

  it('names only formats of the parser registry, enabled or not (a typo fails here, not in production)', async () => {
    const { sources } = await readSourcesConfig(shippedConfig);
    const known = new Set([...Object.keys(sourceFormats), ...Object.keys(deltaFormats)]);
    const unknown = sources.filter((s) => !known.has(s.format)).map((s) => `${s.dataset}: ${s.format}`);
    expect(unknown, `known formats: ${[...known].sort().join(', ')}`).toEqual([]);
  });

  it('syncs the OFAC SDN CSV set with its four files, dated by Last-Modified, the UN list and the CSL', async () => {
    const { sources } = await readSourcesConfig(shippedConfig);
    const enabled = sources.filter((s) => s.enabled);
    const ofac = enabled.find((s) => s.format === 'ofac-csv');
    expect(ofac).toMatchObject({ dataset: 'us_ofac_sdn', publishedAtFrom: 'last-modified' });
    expect(ofac!.urls.map((url) => new URL(url).pathname.split('/').at(-1)).sort()).toEqual([
      'add.csv',
      'alt.csv',
      'sdn.csv',
      'sdn_comments.csv',
    ]);
    expect(enabled.map((s) => s.format)).toEqual(expect.arrayContaining(['un-xml', 'csl-csv']));
    // No shipped source settles for an incomplete set.
    expect(sources.filter((s) => s.allowPartial)).toEqual([]);
    // Every URL is https: a list fetched in clear text could be altered on the way.
    expect(sources.flatMap((s) => s.urls).filter((url) => !url.startsWith('https://'))).toEqual([]);
    // The OpenSanctions examples stay off until someone holds a licence and turns them on.
    const opensanctions = sources.filter((s) => s.urls.some((url) => url.includes('opensanctions')));
    expect(opensanctions.length).toBeGreaterThan(0);
    expect(opensanctions.filter((s) => s.enabled)).toEqual([]);
  });
});

describe('parseSourcesConfig', () => {
  const parse = (value: unknown) => parseSourcesConfig(JSON.stringify(value), 'test.json');
  const source = { dataset: 'un_sc_sanctions', format: 'un-xml', urls: ['https://example.org/un.xml'] };

  it('fills in the defaults', () => {
    expect(parse({ sources: [source] }).sources).toEqual([
      { ...source, publishedAtFrom: 'file', allowPartial: false, enabled: true },
    ]);
  });

  it('refuses misspelt keys, bad datasets, non-http URLs and an empty URL list, naming each', () => {
    const error = (() => {
      try {
        parse({
          sources: [
            { ...source, enable: false },
            { ...source, dataset: 'UN List' },
            { ...source, urls: ['ftp://example.org/un.xml'] },
            { ...source, urls: [] },
            { ...source, publishedAtFrom: 'header' },
            { ...source, allowPartial: 'yes' },
          ],
        });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SourcesConfigError);
    const message = (error as Error).message;
    expect(message).toContain('sources.0: Unrecognized key: "enable"');
    expect(message).toContain('sources.1.dataset');
    expect(message).toContain('sources.2.urls.0: must be an http(s) URL');
    expect(message).toContain('sources.3.urls');
    expect(message).toContain('sources.4.publishedAtFrom');
    expect(message).toContain('sources.5.allowPartial');
  });

  it('refuses a dataset enabled twice, but not a disabled alternative', () => {
    expect(() => parse({ sources: [source, source] })).toThrow(/un_sc_sanctions is enabled more than once/);
    expect(parse({ sources: [source, { ...source, enabled: false }] }).sources).toHaveLength(2);
  });

  it('says which file is not JSON', () => {
    expect(() => parseSourcesConfig('{"sources": [', 'broken.json')).toThrow(/broken\.json is not JSON/);
  });
});
