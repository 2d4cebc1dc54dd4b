import type { ListedEntity, ParseOptions, SourceFormat } from '../model/listedEntity.js';
import { EntityIds } from './entityIds.js';
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
 * FollowTheMoney entity files (`entities.ftm.json`: one entity per line), as OpenSanctions
 * publishes its datasets. Files are given one by one or as a directory (its `*.ftm.json` files in
 * name order). The entity mapping lives in ftmEntity.ts, shared with `ftm-delta`.
 *
 * The entity id is `<dataset>:<FtM id>`; the entity's own `datasets` (the OpenSanctions sources
 * it was merged from) follow the load's dataset in `datasets`. A party listed twice is an error.
 * The files state no publication date.
 */

export const ftmJsonFormat: SourceFormat = {
  name: 'ftm',
  defaultDataset: 'opensanctions',
  acceptsDirectories: true,
  parse: (paths, options) => parseFtm(paths, options),
};

async function* parseFtm(paths: string[], options: ParseOptions = {}): AsyncGenerator<ListedEntity> {
  const dataset = options.dataset ?? ftmJsonFormat.defaultDataset;
  const files = await expandPaths(paths, '.ftm.json');
  const progress = await twoPassProgress(files, options);
  const adjuncts = await collectAdjuncts(adjunctEntities(files, progress));
  const ids = new EntityIds();
  for (const file of files) {
    for await (const { value, line } of readJsonLines(file, progress)) {
      const entity = ftmToEntity(ftmEntityOf(value, file, line), { dataset, adjuncts, file, line });
      if (!entity) continue;
      ids.claim(file, entity, 'FtM id', line);
      progress.entity();
      yield entity;
    }
  }
}

async function* adjunctEntities(files: string[], progress: ProgressTracker): AsyncGenerator<FtmEntityJson> {
  for (const file of files) {
    for await (const { value, line } of readJsonLines(file, progress, mayBeAdjunct)) {
      yield ftmEntityOf(value, file, line);
    }
  }
}
