/**
 * One listed party as every parser produces it and the matcher, the snapshot store and the case
 * workflow read it. Formats differ wildly; this is the common ground (docs/screening-entity-model.md
 * maps each format's fields onto it).
 */

/** The subject types of the API, which are also the kinds of listed parties. */
export const ENTITY_KINDS = [
  'person',
  'company',
  'organization',
  'vessel',
  'aircraft',
  'vehicle',
  'unknown',
] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/**
 * - primary: the name the publisher lists the party under (exactly one per entity).
 * - alias: a strong a.k.a. / f.k.a. / other spelling, including other scripts.
 * - weak: a low-quality alias (OFAC "weak a.k.a.", UN "Low" quality, FtM `weakAlias`): shown as
 *   evidence but never enough on its own for a strong match.
 * - previous: a former name (FtM `previousName`, OFAC f.k.a.).
 */
export type NameKind = 'primary' | 'alias' | 'weak' | 'previous';

export interface EntityName {
  /** As published, trimmed, inner whitespace collapsed; no other normalisation. */
  full: string;
  kind: NameKind;
  /** Name parts when the publisher gives them separately (person names); all optional. */
  parts?: NameParts;
  /** ISO 15924 script code when known or detected (`Latn`, `Cyrl`, `Arab`, `Hani`, ...). */
  script?: string;
}

export interface NameParts {
  given?: string;
  middle?: string;
  family?: string;
  patronymic?: string;
  title?: string;
}

/**
 * A date as precise as the publisher gives it: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`. A range
 * ("circa 1960-1965", UN `FROM_YEAR`/`TO_YEAR`) is two bounds; a single date has `from` only.
 */
export interface PartialDateRange {
  from: string;
  to?: string;
  /** Publisher said "circa"/"approximately". */
  approximate?: boolean;
}

export interface EntityIdentifier {
  /** Lower-case scheme: `imo`, `mmsi`, `passport`, `national_id`, `tax_id`, `inn`, `ogrn`, `lei`,
   * `swift_bic`, `registration`, `aircraft_serial`, `aircraft_tail`, `other`. */
  scheme: string;
  value: string;
  /** ISO 3166-1 alpha-2 of the issuing country, upper case, when known. */
  country?: string;
}

export interface EntitySource {
  name: string;
  url: string | null;
  dataset: string | null;
  /** Lower is more authoritative: 1 official sanctions list, 2 official other, 3 aggregated. */
  priority: number;
}

export interface ListedEntity {
  /** Stable across snapshots of the same dataset: `<dataset>:<publisher id>`. */
  id: string;
  kind: EntityKind;
  names: EntityName[];
  birthDates: PartialDateRange[];
  /** ISO 3166-1 alpha-2, upper case: every country the record ties the party to. */
  countries: string[];
  /** ISO 3166-1 alpha-2, upper case: nationality or citizenship (persons), also in `countries`. */
  nationalities: string[];
  identifiers: EntityIdentifier[];
  /** FtM topics (`sanction`, `role.pep`, `debarment`, ...): what selects the entity for a check type. */
  topics: string[];
  datasets: string[];
  sources: EntitySource[];
  /** Sanctions programmes or list names (`SDGT`, `UKRAINE-EO13662`, `QDi`, ...). */
  programs: string[];
  listedOn?: string;
  modifiedOn?: string;
  /** The publisher's own reference for the record (`ofac:sdn:36`, UN `QDi.001`, FtM id). */
  sourceRecordRef: string;
  /** Gender when given: `male`, `female`, `other`. */
  gender?: string;
  /** Free-form extra facts worth showing a reviewer (addresses, remarks), never used to match. */
  notes?: string[];
}

/** Where a parse failed: the file, and the line or record when known. */
export class SourceParseError extends Error {
  override readonly name = 'SourceParseError';
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly location?: { line?: number; record?: string },
  ) {
    const where = location?.line !== undefined ? `:${location.line}` : '';
    const record = location?.record !== undefined ? ` (record ${location.record})` : '';
    super(`${file}${where}${record}: ${reason}`);
  }
}

export interface ParseProgress {
  file: string;
  bytesRead: number;
  bytesTotal: number;
  entities: number;
}

export interface ParseOptions {
  /** Dataset name; each format has a default (`us_ofac_sdn`, `un_sc_sanctions`, ...). */
  dataset?: string;
  onProgress?: (progress: ParseProgress) => void;
  /**
   * The publisher's date of the list, for formats whose files state it (UN `dateGenerated`, OFAC
   * `Publish_Date`; see `datedBy`): called once, as soon as the parser reads it. The snapshot
   * records it and measures staleness against it (docs/screening-sources.md).
   */
  onPublishedAt?: (publishedAt: Date) => void;
}

/** A file a complete publication has and a load's inputs lack, and what it would have added. */
export interface MissingFile {
  /** As the publisher names it: `alt.csv`. */
  name: string;
  /** What the list loses without it: `aliases`. */
  holds: string;
}

/** What every format, full list or delta, says about itself. */
interface FormatTraits {
  name: string;
  defaultDataset: string;
  /** True when a directory is an input (the files it holds are read); otherwise only files are. */
  acceptsDirectories?: boolean;
  /**
   * Where the files state the publisher's date of the list (`the dateGenerated attribute`), for
   * formats whose files may state one; the parser reports it through `onPublishedAt`. Absent when
   * the files never state one: a load then needs the date given (`--published-at`, a sync's
   * Last-Modified), because staleness is measured from it (docs/screening-sources.md).
   */
  datedBy?: string;
  /**
   * The companion files of a complete publication that these inputs lack (`ofac-csv`: sdn.csv
   * without alt.csv, ...), in the publisher's names; empty when nothing is missing. A load without
   * them would silently lose what they hold, so the loader refuses it unless told otherwise.
   */
  missingFiles?(paths: string[]): Promise<MissingFile[]>;
}

/**
 * A format reads one or more files (or a directory, for `ofac-csv`) and yields entities as it goes,
 * so a 100 MB list never sits in memory as text. It throws `SourceParseError` on malformed input;
 * the caller (the snapshot loader) discards everything it got so nothing half-loaded becomes
 * current.
 */
export interface SourceFormat extends FormatTraits {
  parse(paths: string[], options?: ParseOptions): AsyncIterable<ListedEntity>;
}

/** One change of a delta file (FtM `entities.delta.json`): applied to the dataset's current snapshot. */
export type EntityDelta = { op: 'upsert'; entity: ListedEntity } | { op: 'delete'; id: string };

export interface DeltaFormat extends FormatTraits {
  parseDelta(paths: string[], options?: ParseOptions): AsyncIterable<EntityDelta>;
}
