import type { DeltaFormat, SourceFormat } from '../model/listedEntity.js';
import { bisDplFormat } from './bisDpl.js';
import { caSemaXmlFormat } from './caSemaXml.js';
import { cslCsvFormat } from './cslCsv.js';
import { ebrdCsvFormat } from './ebrdCsv.js';
import { everyPoliticianCsvFormat } from './everyPoliticianCsv.js';
import { ftmDeltaFormat } from './ftmDelta.js';
import { ftmJsonFormat } from './ftmJson.js';
import { ofacCsvFormat } from './ofacCsv.js';
import { ofacXmlFormat } from './ofacXml.js';
import { unXmlFormat } from './unXml.js';
import { usCongressYamlFormat } from './usCongressYaml.js';

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
  [cslCsvFormat.name]: cslCsvFormat,
  [ftmJsonFormat.name]: ftmJsonFormat,
  [usCongressYamlFormat.name]: usCongressYamlFormat,
  [everyPoliticianCsvFormat.name]: everyPoliticianCsvFormat,
  [ebrdCsvFormat.name]: ebrdCsvFormat,
  [bisDplFormat.name]: bisDplFormat,
};

export const deltaFormats: Record<string, DeltaFormat> = {
  // delta format entries
  [ftmDeltaFormat.name]: ftmDeltaFormat,
};
