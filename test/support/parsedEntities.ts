import path from 'node:path';
import type { ListedEntity, ParseOptions, SourceFormat } from '../../src/screening/model/listedEntity.js';

/** A file or folder under test/fixtures/screening/<format>/. */
export function fixturePath(format: string, ...segments: string[]): string {
  return path.join(process.cwd(), 'test', 'fixtures', 'screening', format, ...segments);
}

/** Every entity a format yields for `paths`, in order. */
export async function collectEntities(
  format: SourceFormat,
  paths: string[],
  options?: ParseOptions,
): Promise<ListedEntity[]> {
  const entities: ListedEntity[] = [];
  for await (const entity of format.parse(paths, options)) entities.push(entity);
  return entities;
}

/** The entity with `id`, failing loudly when it is missing. */
export function entityById(entities: ListedEntity[], id: string): ListedEntity {
  const entity = entities.find((e) => e.id === id);
  if (!entity) throw new Error(`no entity ${id} among ${entities.length}`);
  return entity;
}

/** Name texts of one kind. */
export function namesOf(entity: ListedEntity, kind: ListedEntity['names'][number]['kind']): string[] {
  return entity.names.filter((n) => n.kind === kind).map((n) => n.full);
}
