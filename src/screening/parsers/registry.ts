import type { DeltaFormat, SourceFormat } from '../model/listedEntity.js';

/**
 * Every list format `casescreen sources load --format <name>` accepts, by its CLI name. Each parser
 * module adds its own line here.
 */
export const sourceFormats: Record<string, SourceFormat> = {
  // format entries
};

export const deltaFormats: Record<string, DeltaFormat> = {
  // delta format entries
};
