import path from 'node:path';
import type { DeltaFormat, EntityDelta, ParseOptions } from '../model/listedEntity.js';
import { SourceParseError } from '../model/listedEntity.js';
import {
  collectAdjuncts,
  expandPaths,
  type FtmEntityJson,
  ftmEntityOf,
  ftmToEntity,
  mayBeAdjunct,
  readJsonLines,
  twoPassProgress,
} from './ftmEntity.js';
import type { ProgressTracker } from './progress.js';

/**
 * FollowTheMoney delta files (OpenSanctions `entities.delta.json`): one change per line,
 * `{"op": "ADD" | "MOD" | "DEL", "entity": {...}}`; a DEL carries only the entity's id. ADD and
 * MOD become upserts of the mapped entity (ftmEntity.ts, as for `ftm`), DEL a deletion of
 * `<dataset>:<id>`. Changes to entities that are no parties (Sanction, Address, ...) are not
 * passed on; their facts reach a party only when the party itself changes in the same files. A
 * DEL does not say what it deletes, so it is always passed on; deleting an id the snapshot does not
 * have is harmless (the loader counts it as a missing delete).
 *
 * Inputs: the delta files themselves, applied in the order given, or a directory whose
 * `*.entities.delta.json` files are taken in name order. OpenSanctions names them
 * `<version>.entities.delta.json` with the version starting with its UTC time
 * (`20240527194702-wnk`): files out of version order are refused, and the newest version's time
 * is the publication date (reported before the first change, so that the loader can refuse a delta
 * not newer than its base before copying the base). The version index `delta.json` is no delta and is refused: it only
 * lists download URLs, and which versions to fetch is the sync's decision.
 */

export const ftmDeltaFormat: DeltaFormat = {
  name: 'ftm-delta',
  defaultDataset: 'opensanctions',
  datedBy: 'the version time in the file names (20240527194702-wnk.entities.delta.json)',
  acceptsDirectories: true,
  parseDelta: (paths, options) => parseFtmDelta(paths, options),
};

const OPS = { ADD: 'upsert', MOD: 'upsert', DEL: 'delete' } as const;
const VERSION_TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})-/;

async function* parseFtmDelta(paths: string[], options: ParseOptions = {}): AsyncGenerator<EntityDelta> {
  const dataset = options.dataset ?? ftmDeltaFormat.defaultDataset;
  const files = await expandPaths(paths, '.entities.delta.json');
  checkVersions(files, options);
  const progress = await twoPassProgress(files, options);
  const adjuncts = await collectAdjuncts(adjunctEntities(files, progress));
  for (const file of files) {
    for await (const { value, line } of readJsonLines(file, progress)) {
      const { op, entity } = deltaLine(value, file, line);
      if (op === 'delete') {
        yield { op, id: `${dataset}:${entity.id}` };
        continue;
      }
      const listed = ftmToEntity(ftmEntityOf(entity, file, line), { dataset, adjuncts, file, line });
      if (!listed) continue;
      progress.entity();
      yield { op, entity: listed };
    }
  }
}

function deltaLine(
  value: unknown,
  file: string,
  line: number,
): { op: EntityDelta['op']; entity: FtmEntityJson } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new SourceParseError(file, 'not a delta line: a JSON object was expected', { line });
  }
  const { op, entity } = value as { op?: unknown; entity?: unknown };
  const mapped = typeof op === 'string' ? OPS[op as keyof typeof OPS] : undefined;
  if (!mapped) {
    throw new SourceParseError(file, `unknown op ${JSON.stringify(op)} (expected ADD, MOD or DEL)`, { line });
  }
  if (!entity || typeof entity !== 'object' || typeof (entity as { id?: unknown }).id !== 'string') {
    throw new SourceParseError(file, `${op} without an entity id`, { line });
  }
  return { op: mapped, entity: entity as FtmEntityJson };
}

/**
 * Refuses the version index and files out of version order, and reports the newest version's
 * time (from the file name) as the publication date.
 */
function checkVersions(files: string[], options: ParseOptions): void {
  let previous: string | undefined;
  for (const file of files) {
    const name = path.basename(file);
    if (name === 'delta.json') {
      throw new SourceParseError(
        file,
        'this is the version index (delta.json), not a delta: pass the <version>.entities.delta.json files',
      );
    }
    const version = VERSION_TIME.exec(name)?.[0];
    if (!version) continue;
    if (previous && version < previous) {
      throw new SourceParseError(file, `delta files out of version order: ${name} comes before ${previous}`);
    }
    previous = version;
  }
  const newest = previous && VERSION_TIME.exec(previous);
  if (newest) {
    const [, y, mo, d, h, mi, s] = newest;
    const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
    if (!Number.isNaN(date.getTime())) options.onPublishedAt?.(date);
  }
}

async function* adjunctEntities(files: string[], progress: ProgressTracker): AsyncGenerator<FtmEntityJson> {
  for (const file of files) {
    for await (const { value, line } of readJsonLines(file, progress, mayBeAdjunct)) {
      const { op, entity } = deltaLine(value, file, line);
      if (op === 'upsert') yield ftmEntityOf(entity, file, line);
    }
  }
}
