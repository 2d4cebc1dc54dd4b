import { describe, expect, it } from 'vitest';
import { collectEntities, entityById, fixturePath, namesOf } from '../../../test/support/parsedEntities.js';
import { type ParseProgress, SourceParseError } from '../model/listedEntity.js';
import { usCongressYamlFormat } from './usCongressYaml.js';

const fixture = (...segments: string[]) => fixturePath('us-congress-yaml', ...segments);

describe('us-congress-yaml', () => {
  it('reads the members, then the presidents and vice presidents who may be alive, as PEPs tied to the US', async () => {
    const entities = await collectEntities(usCongressYamlFormat, [fixture('set')]);
    expect(entities.map((e) => e.id)).toEqual([
      'us_congress:C000127',
      'us_congress:Z000017',
      'us_congress:V000137',
      // No bioguide id: the govtrack one. George Washington (born 1732) is left out.
      'us_congress:govtrack-412374',
    ]);
    for (const entity of entities) {
      expect(entity).toMatchObject({
        kind: 'person',
        topics: ['role.pep'],
        countries: ['US'],
        nationalities: ['US'],
        datasets: ['us_congress'],
      });
    }
  });

  it('reads a senator: official name with parts, birthday, gender, latest term and leadership role', async () => {
    const senator = entityById(
      await collectEntities(usCongressYamlFormat, [fixture('set')]),
      'us_congress:C000127',
    );
    expect(senator).toMatchObject({
      names: [{ full: 'Maria Cantwell', kind: 'primary', parts: { given: 'Maria', family: 'Cantwell' } }],
      birthDates: [{ from: '1958-10-13' }],
      gender: 'female',
      sourceRecordRef: 'C000127',
      notes: [
        'U.S. Senator for WA (Democrat), 2025-01-03 to 2031-01-03',
        'Leadership: Senate Democratic Outreach Chair, 2023-01-03 to 2025-01-03',
        'Wikidata: Q22250',
      ],
    });
    expect(senator.sources).toEqual([
      {
        name: expect.stringContaining('congress-legislators'),
        url: 'https://github.com/unitedstates/congress-legislators',
        dataset: 'us_congress',
        priority: 3,
      },
    ]);
  });

  it('builds the full name with suffix, and aliases from first and nickname; an at-large seat says so', async () => {
    const rep = entityById(
      await collectEntities(usCongressYamlFormat, [fixture('set')]),
      'us_congress:Z000017',
    );
    expect(rep.names[0]).toEqual({
      full: 'Lee Michael Zeldin, Jr.',
      kind: 'primary',
      parts: { given: 'Lee', middle: 'Michael', family: 'Zeldin' },
      script: 'Latn',
    });
    expect(namesOf(rep, 'alias')).toEqual(['Lee Zeldin', 'Mike Zeldin']);
    expect(rep.notes).toEqual(['U.S. Representative for AK-at large (Republican), 2023-01-03 to 2025-01-03']);
  });

  it('makes one entity of a person in both files, with both roles', async () => {
    const vance = entityById(
      await collectEntities(usCongressYamlFormat, [fixture('set')]),
      'us_congress:V000137',
    );
    expect(vance.names.map((n) => [n.kind, n.full, n.parts])).toEqual([
      ['primary', 'J.D. Vance', { given: 'J.D.', family: 'Vance' }],
      ['alias', 'James David Vance', { given: 'James David', family: 'Vance' }],
    ]);
    expect(vance.notes).toEqual([
      'U.S. Senator for OH (Republican), 2023-01-03 to 2029-01-03',
      'Vice President of the United States (Republican), 2025-01-20 to 2029-01-20',
    ]);
  });

  it('accepts the files one by one and reports progress to the end', async () => {
    const reports: ParseProgress[] = [];
    const entities = await collectEntities(
      usCongressYamlFormat,
      [fixture('set', 'legislators-current.yaml'), fixture('set', 'executive.yaml')],
      { onProgress: (p) => reports.push(p), dataset: 'us_pep' },
    );
    expect(entities.map((e) => e.id)).toEqual([
      'us_pep:C000127',
      'us_pep:Z000017',
      'us_pep:V000137',
      'us_pep:govtrack-412374',
    ]);
    expect(reports.at(-1)).toMatchObject({ entities: 4, bytesRead: reports.at(-1)!.bytesTotal });
  });

  describe('malformed input', () => {
    async function failure(name: string): Promise<SourceParseError> {
      const error = await collectEntities(usCongressYamlFormat, [fixture(name)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceParseError);
      return error as SourceParseError;
    }

    it('names the line of malformed YAML within the person it belongs to', async () => {
      const error = await failure('malformed.yaml');
      expect(error.location).toEqual({ line: 12 });
      expect(error.reason).toMatch(/^malformed YAML: /);
    });

    it('refuses a file that is not a list of people, and terms that are not a list', async () => {
      const error = await failure('not-a-list.yaml');
      expect(error.location).toEqual({ line: 1 });
      expect(error.reason).toBe('not a YAML list of people: a top-level line that is no list item');
      expect(await failure('terms-not-a-list.yaml')).toMatchObject({
        location: { line: 1 },
        reason: 'terms must be a list',
      });
    });

    it('names the person without an id, without a name, and listed twice', async () => {
      expect(await failure('no-id.yaml')).toMatchObject({
        location: { line: 6 },
        reason: 'person without a bioguide or govtrack id',
      });
      expect(await failure('no-name.yaml')).toMatchObject({
        location: { line: 1, record: 'A000001' },
        reason: 'person without a name',
      });
      expect(await failure('duplicate.yaml')).toMatchObject({
        location: { line: 6, record: 'A000001' },
        reason: 'id A000001 listed twice',
      });
    });
  });
});
