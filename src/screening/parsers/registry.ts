import type { DeltaFormat, SourceFormat } from '../model/listedEntity.js';
import { caSemaXmlFormat } from './caSemaXml.js';
import { ofacCsvFormat } from './ofacCsv.js';
import { ofacXmlFormat } from './ofacXml.js';
import { unXmlFormat } from './unXml.js';

/**
 * Every list format `casescreen sources load --format <name>` accepts, by its CLI name. Each parser
 * module adds its own line here.
 */
export const sourceFormats: Record<string, SourceFormat> = {
  // format entries
  [ofacCsvFormat.name]: ofacCsvFormat,
  [ofacXmlFormat.name]: ofacXmlFormat,
  [unXmlFormat.name]: unXmlFormat,
  [caSemaXmlFormat.name]: caSemaXmlFormat,
};

export const deltaFormats: Record<string, DeltaFormat> = {
  // delta format entries
};
