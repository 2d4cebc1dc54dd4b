import { describe, expect, it } from 'vitest';
import { fixturePath } from '../../../test/support/parsedEntities.js';
import { type EntityDelta, type ParseOptions, SourceParseError } from '../model/listedEntity.js';
import { ftmDeltaFormat } from './ftmDelta.js';

const fixture = (...segments: string[]) => fixturePath('ftm', ...segments);
const first = fixture('deltas', '20240527194702-wnk.entities.delta.jsonl');
const second = fixture('deltas', '20240528014702-pfh.entities.delta.jsonl');

async function collectDeltas(paths: string[], options?: ParseOptions): Promise<EntityDelta[]> {
  const deltas: EntityDelta[] = [];
  for await (const delta of ftmDeltaFormat.parseDelta(paths, options)) deltas.push(delta);
  return deltas;
}

const summary = (deltas: EntityDelta[]) =>
  deltas.map((d) =>
    d.op === 'delete' ? ['delete', d.id] : ['upsert', d.entity.id, d.entity.names[0]!.full],
  );

describe('ftm-delta', () => {
  it('turns ADD and MOD of parties into upserts and DEL into deletes, in the order of the files given', async () => {
    const deltas = await collectDeltas([first, second]);
    expect(summary(deltas)).toEqual([
      ['upsert', 'opensanctions:NK-company1', 'OOO Romashka'],
      ['upsert', 'opensanctions:NK-gone', 'Gone Ltd'],
      ['upsert', 'opensanctions:NK-company1', 'OOO Romashka Plus'],
      ['delete', 'opensanctions:NK-gone'],
      // A DEL does not say what it deletes: the Address's id is passed on too.
      ['delete', 'opensanctions:addr-1'],
    ]);
  });

  it('maps entities as the ftm format does, facts of Sanction entities in the delta included', async () => {
    const [added] = await collectDeltas([first], { dataset: 'us_bis_el' });
    expect(added).toMatchObject({
      op: 'upsert',
      entity: {
        id: 'us_bis_el:NK-company1',
        kind: 'company',
        topics: ['export.control'],
        datasets: ['us_bis_el'],
        listedOn: '2020-06-01',
        identifiers: [
          { scheme: 'ogrn', value: '1027700123456' },
          { scheme: 'lei', value: '253400ABCDEFGHIJKL12' },
          { scheme: 'swift_bic', value: 'ROMARUMM' },
          { scheme: 'registration', value: 'REG-42' },
        ],
      },
    });
  });

  it('takes a directory as its delta files in version order, and reports the newest version time', async () => {
    const dates: Date[] = [];
    const fromDirectory = await collectDeltas([fixture('deltas')], { onPublishedAt: (d) => dates.push(d) });
    expect(fromDirectory).toEqual(await collectDeltas([first, second]));
    expect(dates).toEqual([new Date('2024-05-28T01:47:02Z')]);
  });

  describe('malformed input', () => {
    async function failure(paths: string[]): Promise<SourceParseError> {
      const error = await collectDeltas(paths).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceParseError);
      return error as SourceParseError;
    }

    it('refuses an unknown op and a line without an entity id, naming the line', async () => {
      const op = await failure([fixture('unknown-op.entities.delta.jsonl')]);
      expect(op.location).toEqual({ line: 2 });
      expect(op.reason).toBe('unknown op "UPSERT" (expected ADD, MOD or DEL)');
      const noEntity = await failure([fixture('no-entity.entities.delta.jsonl')]);
      expect(noEntity.location).toEqual({ line: 1 });
      expect(noEntity.reason).toBe('DEL without an entity id');
    });

    it('refuses the version index and files out of version order', async () => {
      const index = await failure([fixture('deltas', 'delta.json')]);
      expect(index.reason).toMatch(/^this is the version index \(delta\.json\), not a delta/);
      const order = await failure([second, first]);
      expect(order.file).toBe(first);
      expect(order.reason).toMatch(/^delta files out of version order/);
    });

    it('names the line of bad JSON', async () => {
      const error = await failure([fixture('bad-json.entities.delta.jsonl')]);
      expect(error.location).toEqual({ line: 2 });
      expect(error.reason).toMatch(/^not a JSON line: /);
      // A line that is JSON but no change is no delta.
      expect((await failure([fixture('second.ftm.jsonl')])).reason).toBe(
        'unknown op undefined (expected ADD, MOD or DEL)',
      );
    });
  });
});
