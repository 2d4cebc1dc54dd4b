import { type ListedEntity, SourceParseError } from '../model/listedEntity.js';

/**
 * A list names each party once. A second record with an id already read means a corrupt file or
 * two lists mixed into one load, and is refused rather than silently merged or dropped.
 */
export class EntityIds {
  private readonly seen = new Set<string>();

  /** Throws SourceParseError naming the file, line and record when `entity` repeats an id. */
  claim(file: string, entity: ListedEntity, repeated: string, line: number | undefined): void {
    if (this.seen.has(entity.id)) {
      throw new SourceParseError(file, `${repeated} listed twice`, { line, record: entity.sourceRecordRef });
    }
    this.seen.add(entity.id);
  }
}
