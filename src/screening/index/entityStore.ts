import type {
  EntityIdentifier,
  EntityKind,
  ListedEntity,
  NameKind,
  PartialDateRange,
} from '../model/listedEntity.js';
import { ENTITY_KINDS } from '../model/listedEntity.js';

/**
 * The listed parties of an index, held in a few large arrays instead of millions of small
 * objects: at two million names, object graphs cost gigabytes and garbage-collection pauses of a
 * second that land on whichever search runs then. Each party keeps
 * - its JSON as UTF-8 bytes in large off-heap chunks (parsed only for the matches a search
 *   returns): even two million JSON strings on the heap made every young-generation collection,
 *   several a second under load, take 6 to 12 ms;
 * - what scoring reads, in typed arrays: kind, birth dates (packed integers), countries (indexes
 *   into a table), name kinds, and the token ids of each name (into the index's token table);
 * - identifiers, which few parties have, in a sparse map.
 */

export interface ScoringFacts {
  kind: EntityKind;
  birthDates: PartialDateRange[];
  countries: string[];
  identifiers: readonly EntityIdentifier[];
}

const NAME_KINDS: readonly NameKind[] = ['primary', 'alias', 'weak', 'previous'];
const NO_IDENTIFIERS: readonly EntityIdentifier[] = [];

/** `YYYY[-MM[-DD]]` as YYYYMMDD with zeros for the missing parts; approximate dates are negative. */
function packDate(text: string): number {
  const [year, month, day] = text.split('-').map(Number);
  return year! * 10_000 + (month ?? 0) * 100 + (day ?? 0);
}

function unpackDate(packed: number): string {
  const year = Math.floor(packed / 10_000);
  const month = Math.floor(packed / 100) % 100;
  const day = packed % 100;
  const pad = (value: number) => String(value).padStart(2, '0');
  if (month === 0) return String(year);
  if (day === 0) return `${year}-${pad(month)}`;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/**
 * Texts as UTF-8 in chunks of CHUNK_BYTES (a longer text gets a chunk of its own), addressed by
 * chunk, offset and length. Chunks are never copied or grown, so building needs no spare memory.
 */
const CHUNK_BYTES = 32 * 1024 * 1024;

class TextChunksBuilder {
  private readonly chunks: Uint8Array[] = [];
  private current = new Uint8Array(0);
  private used = 0;
  private readonly encoder = new TextEncoder();
  readonly chunkOf = new GrowableInt32();
  readonly offsetOf = new GrowableInt32();
  readonly lengthOf = new GrowableInt32();

  add(text: string): void {
    const bytes = this.encoder.encode(text);
    if (this.used + bytes.length > this.current.length) {
      this.current = new Uint8Array(Math.max(CHUNK_BYTES, bytes.length));
      this.chunks.push(this.current);
      this.used = 0;
    }
    this.current.set(bytes, this.used);
    this.chunkOf.push(this.chunks.length - 1);
    this.offsetOf.push(this.used);
    this.lengthOf.push(bytes.length);
    this.used += bytes.length;
  }

  build(): TextChunks {
    // The last chunk is cut to what it holds: the spare space of a small index is returned.
    const chunks = this.chunks.map((chunk, index) =>
      index === this.chunks.length - 1 ? chunk.slice(0, this.used) : chunk,
    );
    return new TextChunks(chunks, this.chunkOf.freeze(), this.offsetOf.freeze(), this.lengthOf.freeze());
  }
}

class TextChunks {
  private readonly decoder = new TextDecoder();
  constructor(
    private readonly chunks: readonly Uint8Array[],
    private readonly chunkOf: Int32Array,
    private readonly offsetOf: Int32Array,
    private readonly lengthOf: Int32Array,
  ) {}

  get size(): number {
    return this.chunkOf.length;
  }

  text(id: number): string {
    const offset = this.offsetOf[id]!;
    return this.decoder.decode(this.chunks[this.chunkOf[id]!]!.subarray(offset, offset + this.lengthOf[id]!));
  }
}

class GrowableInt32 {
  private data = new Int32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  freeze(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

export class EntityStoreBuilder {
  private readonly json = new TextChunksBuilder();
  private readonly kinds: number[] = [];
  /** Per party, [from, to] pairs of packed dates (to = 0 for a single date). */
  private readonly dates = new GrowableInt32();
  private readonly dateStart = new GrowableInt32();
  private readonly countries = new GrowableInt32();
  private readonly countryStart = new GrowableInt32();
  private readonly countryTable: string[] = [];
  private readonly countryIds = new Map<string, number>();
  private readonly identifiers = new Map<number, readonly EntityIdentifier[]>();
  private readonly nameKinds: number[] = [];
  private readonly nameStart = new GrowableInt32();
  private readonly tokens = new GrowableInt32();
  private readonly tokenStart = new GrowableInt32();

  get size(): number {
    return this.json.chunkOf.length;
  }

  /**
   * Adds a party with its names as the index prepared them (`entity.names`, then other readings):
   * each a kind and token ids of the index's token table.
   */
  add(entity: ListedEntity, names: readonly { kind: NameKind; tokens: readonly number[] }[]): number {
    const id = this.size;
    this.json.add(JSON.stringify(entity));
    this.kinds.push(ENTITY_KINDS.indexOf(entity.kind));
    this.dateStart.push(this.dates.length);
    for (const range of entity.birthDates) {
      this.dates.push(packDate(range.from) * (range.approximate ? -1 : 1));
      this.dates.push(range.to ? packDate(range.to) : 0);
    }
    this.countryStart.push(this.countries.length);
    for (const country of entity.countries) this.countries.push(this.countryId(country));
    if (entity.identifiers.length > 0) this.identifiers.set(id, entity.identifiers);
    this.nameStart.push(this.nameKinds.length);
    for (const name of names) {
      this.nameKinds.push(NAME_KINDS.indexOf(name.kind));
      this.tokenStart.push(this.tokens.length);
      for (const token of name.tokens) this.tokens.push(token);
    }
    return id;
  }

  private countryId(country: string): number {
    let id = this.countryIds.get(country);
    if (id === undefined) {
      id = this.countryTable.length;
      this.countryTable.push(country);
      this.countryIds.set(country, id);
    }
    return id;
  }

  build(): EntityStore {
    this.dateStart.push(this.dates.length);
    this.countryStart.push(this.countries.length);
    this.nameStart.push(this.nameKinds.length);
    this.tokenStart.push(this.tokens.length);
    return new EntityStore({
      json: this.json.build(),
      kinds: Uint8Array.from(this.kinds),
      dates: this.dates.freeze(),
      dateStart: this.dateStart.freeze(),
      countries: Uint16Array.from(this.countries.freeze()),
      countryStart: this.countryStart.freeze(),
      countryTable: this.countryTable,
      identifiers: this.identifiers,
      nameKinds: Uint8Array.from(this.nameKinds),
      nameStart: this.nameStart.freeze(),
      tokens: this.tokens.freeze(),
      tokenStart: this.tokenStart.freeze(),
    });
  }
}

interface StoreArrays {
  json: TextChunks;
  kinds: Uint8Array;
  dates: Int32Array;
  dateStart: Int32Array;
  countries: Uint16Array;
  countryStart: Int32Array;
  countryTable: readonly string[];
  identifiers: ReadonlyMap<number, readonly EntityIdentifier[]>;
  nameKinds: Uint8Array;
  nameStart: Int32Array;
  tokens: Int32Array;
  tokenStart: Int32Array;
}

export class EntityStore {
  constructor(private readonly arrays: StoreArrays) {}

  get size(): number {
    return this.arrays.json.size;
  }

  get nameCount(): number {
    return this.arrays.nameKinds.length;
  }

  entity(id: number): ListedEntity {
    return JSON.parse(this.arrays.json.text(id)) as ListedEntity;
  }

  kind(id: number): EntityKind {
    return ENTITY_KINDS[this.arrays.kinds[id]!]!;
  }

  /** What scoring compares besides names, rebuilt from the arrays (cheap: a few small objects). */
  facts(id: number): ScoringFacts {
    const { dates, dateStart, countries, countryStart, countryTable } = this.arrays;
    const birthDates: PartialDateRange[] = [];
    for (let i = dateStart[id]!; i < dateStart[id + 1]!; i += 2) {
      const from = dates[i]!;
      const to = dates[i + 1]!;
      birthDates.push({
        from: unpackDate(Math.abs(from)),
        ...(to !== 0 && { to: unpackDate(to) }),
        ...(from < 0 && { approximate: true }),
      });
    }
    const codes: string[] = [];
    for (let i = countryStart[id]!; i < countryStart[id + 1]!; i++) codes.push(countryTable[countries[i]!]!);
    return {
      kind: this.kind(id),
      birthDates,
      countries: codes,
      identifiers: this.arrays.identifiers.get(id) ?? NO_IDENTIFIERS,
    };
  }

  /** Global ids of the party's names: `firstName(id)` to `firstName(id + 1) - 1`. */
  firstName(id: number): number {
    return this.arrays.nameStart[id]!;
  }

  nameKind(nameId: number): NameKind {
    return NAME_KINDS[this.arrays.nameKinds[nameId]!]!;
  }

  /** The token ids of a name, in order. */
  nameTokens(nameId: number): Int32Array {
    return this.arrays.tokens.subarray(this.arrays.tokenStart[nameId]!, this.arrays.tokenStart[nameId + 1]!);
  }
}
