import { CHECK_TYPES, type CheckType, checkTypesOfEntity } from '../checkTypes.js';
import {
  acronymsSpelledBy,
  mayBeAcronym,
  SEARCHED_ACRONYM_MIN,
  spellsAcronyms,
  writtenAsAcronym,
} from '../matching/acronyms.js';
import { type NameToken, nameClassOf, tokenIdentity } from '../matching/nameTokens.js';
import { type PreparedName, preparedNameOf, prepareName, readingNames } from '../matching/preparedName.js';
import { TOKEN_SCORES } from '../matching/tokenSimilarity.js';
import type { ListedEntity } from '../model/listedEntity.js';
import { DIGIT_SCHEMES, normaliseIdentifierValue } from '../scoring/identifiers.js';
import { kindsCompatible } from '../scoring/kinds.js';
import type { ScreeningProfile } from '../scoring/profiles.js';
import type { ScreeningSubject } from '../scoring/query.js';
import {
  type EntityScore,
  explainMatch,
  type MatchExplanation,
  PreparedSubject,
  scoreEntity,
  scoreNames,
} from '../scoring/scoreEntity.js';
import { MAX_EVIDENCE_GAIN, nameOnlyScore } from '../scoring/scoreWeights.js';
import { type EntityStore, EntityStoreBuilder } from './entityStore.js';
import { NameEvidence } from './nameEvidence.js';
import {
  isSearchablePart,
  MIN_SKELETON_HALF,
  type TermDictionary,
  TermDictionaryBuilder,
  type TermMatch,
} from './termDictionary.js';

/**
 * The in-memory screening index: every name of every listed party of the loaded snapshots, with
 * postings from name parts (terms) to names, and from identifiers to parties.
 *
 * A search finds candidates first and scores only them:
 * 1. each searchable part of the subject's name is matched against the term dictionary (exact,
 *    spelling variants, sound, abjad skeleton, 3-gram neighbours; termDictionary.ts);
 * 2. the names holding those terms collect evidence weighted by how rare each term is (IDF) and how
 *    well it matched; the most common part of the subject's name only adds to names a rarer part
 *    already found, so "john" or "mohammad" never floods the candidates (nameEvidence.ts);
 * 3. the best CANDIDATE_NAMES names, and every party sharing an identifier with the subject, are
 *    scored in full (scoreEntity), filtered by check type, dataset and kind, and the ones reaching
 *    the profile's threshold are explained.
 */

/** How many of the best-evidenced names are scored in full per search. */
export const CANDIDATE_NAMES = 100;
/** Terms of one part followed into the postings (leadingTerms). */
const TERM_FLOOR = 0.5;
const TERMS_PER_PART = 40;
/** Evidence of a part glued or split differently: a little below an exact part. */
const GLUED_SIMILARITY = 0.9;

export interface ScreeningMatch {
  entity: ListedEntity;
  /** The source snapshot the party was loaded from (null for parties indexed without one). */
  snapshotId: string | null;
  /** The check types the party is screened in (by its topics). */
  checkTypes: CheckType[];
  explanation: MatchExplanation;
}

export interface SearchOptions {
  profile: ScreeningProfile;
  /** Only parties screened in one of these check types. */
  checkTypes: readonly CheckType[];
  /** Overrides the profile's maxMatches. */
  limit?: number;
  /** Overrides the profile's threshold (0 returns every scored candidate). */
  threshold?: number;
  /**
   * Score every allowed party instead of the candidates: slow (every name of every party), for
   * measuring what candidate generation costs in recall and gains in speed.
   */
  exhaustive?: boolean;
}

export interface IndexStats {
  entities: number;
  names: number;
  terms: number;
  postings: number;
  datasets: string[];
}

const CHECK_TYPE_BIT: Readonly<Record<CheckType, number>> = Object.fromEntries(
  CHECK_TYPES.map((type, index) => [type, 1 << index]),
) as Record<CheckType, number>;

function checkTypeMask(types: readonly CheckType[]): number {
  let mask = 0;
  for (const type of types) mask |= CHECK_TYPE_BIT[type];
  return mask;
}

export class ScreeningIndexBuilder {
  private readonly terms = new TermDictionaryBuilder();
  private readonly store = new EntityStoreBuilder();
  private readonly datasets: string[] = [];
  private readonly datasetIds = new Map<string, number>();
  /** The datasets of party i are entityDatasets[datasetStart[i]] up to datasetStart[i + 1]. */
  private readonly entityDatasets: number[] = [];
  private readonly datasetStart: number[] = [];
  private readonly entityMask: number[] = [];
  private readonly entityPriority: number[] = [];
  private readonly entitySnapshot: number[] = [];
  private readonly snapshots: (string | null)[] = [];
  private readonly nameEntity: number[] = [];
  /** Name id of each reading (readingNames) -> the index in its party's names of the name it reads. */
  private readonly readingSource = new Map<number, number>();
  /** Per term, the names holding it, in name order. */
  private readonly postings: number[][] = [];
  private readonly identifiers = new Map<string, number[]>();
  /** Per acronym, the names of organisations a run of whose words spells it (acronyms.ts). */
  private readonly acronyms = new Map<string, number[]>();
  private readonly ids = new Set<string>();
  /** Every distinct token (with its position) of every name, once; names refer to them by id. */
  private readonly tokenTable: NameToken[] = [];
  private readonly tokenIds = new Map<string, number>();

  /**
   * Adds a party, from the given source snapshot; a second party with the same id (two snapshots
   * of one dataset) is refused.
   */
  add(entity: ListedEntity, snapshotId: string | null = null): void {
    if (this.ids.has(entity.id)) throw new Error(`entity ${entity.id} is indexed twice`);
    this.ids.add(entity.id);
    // Each name, then the other readings of those that have some (readingNames), which the store
    // keeps as names of their own; a reading's full text is its name's.
    const names = entity.names.map((name) => prepareName(name, entity.kind));
    entity.names.forEach((name, source) => {
      for (const reading of readingNames(name, entity.kind)) {
        this.readingSource.set(this.nameEntity.length + names.length, source);
        names.push(reading);
      }
    });
    const entityId = this.store.add(
      entity,
      names.map((name) => ({ kind: name.kind, tokens: name.tokens.map((token) => this.tokenId(token)) })),
    );
    this.datasetStart.push(this.entityDatasets.length);
    for (const dataset of entity.datasets) this.entityDatasets.push(this.datasetOf(dataset));
    this.entitySnapshot.push(this.snapshotOf(snapshotId));
    this.entityMask.push(checkTypeMask(checkTypesOfEntity(entity.topics)));
    this.entityPriority.push(Math.min(255, ...entity.sources.map((source) => source.priority)));
    for (const name of names) {
      const nameId = this.nameEntity.length;
      this.nameEntity.push(entityId);
      for (const token of name.tokens) {
        if (!isSearchablePart(token)) continue;
        const term = this.terms.termOf(token);
        const list = this.postings[term];
        if (!list) this.postings[term] = [nameId];
        else if (list[list.length - 1] !== nameId) list.push(nameId);
      }
      if (!spellsAcronyms(name.nameClass)) continue;
      for (const acronym of acronymsSpelledBy(name.tokens)) {
        if (acronym.length < SEARCHED_ACRONYM_MIN) continue;
        const list = this.acronyms.get(acronym);
        if (!list) this.acronyms.set(acronym, [nameId]);
        else if (list[list.length - 1] !== nameId) list.push(nameId);
      }
    }
    for (const identifier of entity.identifiers) {
      const value = normaliseIdentifierValue(identifier.value, identifier.scheme);
      if (value.length < 4) continue;
      const list = this.identifiers.get(value) ?? [];
      if (list[list.length - 1] !== entityId) list.push(entityId);
      this.identifiers.set(value, list);
    }
  }

  private tokenId(token: NameToken): number {
    const identity = tokenIdentity(token);
    let id = this.tokenIds.get(identity);
    if (id === undefined) {
      id = this.tokenTable.length;
      this.tokenTable.push(token);
      this.tokenIds.set(identity, id);
    }
    return id;
  }

  private snapshotOf(snapshotId: string | null): number {
    const known = this.snapshots.indexOf(snapshotId);
    if (known >= 0) return known;
    this.snapshots.push(snapshotId);
    return this.snapshots.length - 1;
  }

  private datasetOf(name: string): number {
    let id = this.datasetIds.get(name);
    if (id === undefined) {
      id = this.datasets.length;
      this.datasets.push(name);
      this.datasetIds.set(name, id);
    }
    return id;
  }

  build(): ScreeningIndex {
    const dictionary = this.terms.build();
    const postings = Array.from({ length: dictionary.size }, (_, term) =>
      Int32Array.from(this.postings[term] ?? []),
    );
    const identifiers = new Map<string, Int32Array>();
    for (const [value, list] of this.identifiers) identifiers.set(value, Int32Array.from(list));
    const acronyms = new Map<string, Int32Array>();
    for (const [acronym, list] of this.acronyms) acronyms.set(acronym, Int32Array.from(list));
    return new ScreeningIndex({
      store: this.store.build(),
      tokenTable: this.tokenTable,
      nameEntity: Int32Array.from(this.nameEntity),
      readingSource: this.readingSource,
      entityDatasets: Uint16Array.from(this.entityDatasets),
      datasetStart: Int32Array.from([...this.datasetStart, this.entityDatasets.length]),
      entityMask: Uint8Array.from(this.entityMask),
      entityPriority: Uint8Array.from(this.entityPriority),
      entitySnapshot: Uint16Array.from(this.entitySnapshot),
      snapshots: this.snapshots,
      datasets: this.datasets,
      terms: dictionary,
      postings,
      identifiers,
      acronyms,
    });
  }
}

interface IndexParts {
  store: EntityStore;
  tokenTable: readonly NameToken[];
  nameEntity: Int32Array;
  readingSource: ReadonlyMap<number, number>;
  entityDatasets: Uint16Array;
  datasetStart: Int32Array;
  entityMask: Uint8Array;
  /** The best (lowest) source priority of each party. */
  entityPriority: Uint8Array;
  entitySnapshot: Uint16Array;
  snapshots: readonly (string | null)[];
  datasets: readonly string[];
  terms: TermDictionary;
  postings: readonly Int32Array[];
  identifiers: ReadonlyMap<string, Int32Array>;
  acronyms: ReadonlyMap<string, Int32Array>;
}

/** A candidate party, with the names (global ids) a search found evidence for; all of them when undefined. */
type Candidates = Map<number, number[] | undefined>;

export class ScreeningIndex {
  private readonly store: EntityStore;
  private readonly tokenTable: readonly NameToken[];
  private readonly nameEntity: Int32Array;
  private readonly readingSource: ReadonlyMap<number, number>;
  private readonly entityDatasets: Uint16Array;
  private readonly datasetStart: Int32Array;
  private readonly entityMask: Uint8Array;
  private readonly entityPriority: Uint8Array;
  private readonly entitySnapshot: Uint16Array;
  private readonly snapshots: readonly (string | null)[];
  private readonly datasets: readonly string[];
  private readonly terms: TermDictionary;
  private readonly postings: readonly Int32Array[];
  private readonly identifiers: ReadonlyMap<string, Int32Array>;
  private readonly acronyms: ReadonlyMap<string, Int32Array>;
  private readonly evidence: NameEvidence;
  private readonly idf: Float32Array;
  /** Party ids to their index, built on the first scoreParty. */
  private partyIds: Map<string, number> | undefined;

  constructor(parts: IndexParts) {
    this.store = parts.store;
    this.tokenTable = parts.tokenTable;
    this.nameEntity = parts.nameEntity;
    this.readingSource = parts.readingSource;
    this.entityDatasets = parts.entityDatasets;
    this.datasetStart = parts.datasetStart;
    this.entityMask = parts.entityMask;
    this.entityPriority = parts.entityPriority;
    this.entitySnapshot = parts.entitySnapshot;
    this.snapshots = parts.snapshots;
    this.datasets = parts.datasets;
    this.terms = parts.terms;
    this.postings = parts.postings;
    this.identifiers = parts.identifiers;
    this.acronyms = parts.acronyms;
    this.evidence = new NameEvidence(this.nameEntity.length);
    const names = Math.max(1, this.nameEntity.length);
    this.idf = Float32Array.from(this.postings, (list) => Math.log(1 + names / Math.max(1, list.length)));
  }

  static build(entities: Iterable<ListedEntity>): ScreeningIndex {
    const builder = new ScreeningIndexBuilder();
    for (const entity of entities) builder.add(entity);
    return builder.build();
  }

  stats(): IndexStats {
    let postings = 0;
    for (const list of this.postings) postings += list.length;
    return {
      entities: this.store.size,
      names: this.nameEntity.length,
      terms: this.terms.size,
      postings,
      datasets: [...this.datasets],
    };
  }

  /** Matches at or above the threshold, best first. */
  search(subject: ScreeningSubject, options: SearchOptions): ScreeningMatch[] {
    const { profile } = options;
    const prepared = new PreparedSubject(subject);
    const threshold = options.threshold ?? profile.threshold;
    const limit = options.limit ?? profile.maxMatches;
    const allowed = this.filter(subject, options);

    const scored: { entityId: number; nameIds: number[]; score: EntityScore }[] = [];
    for (const [entityId, evidenced] of this.candidates(prepared, options, allowed)) {
      const nameIds = evidenced ?? this.allNames(entityId);
      const kind = this.store.kind(entityId);
      const names = this.preparedNames(entityId, nameIds);
      const nameMatch = scoreNames(prepared, kind, names, profile.fuzziness);
      // Names alone decide most candidates: skip reading the rest of a party that cannot reach the
      // threshold even with every other piece of evidence agreeing (identifier holders always can).
      if (evidenced && nameOnlyScore(nameMatch.nameScore) + MAX_EVIDENCE_GAIN < threshold) continue;
      const score = scoreEntity(
        prepared,
        { ...this.store.facts(entityId), names },
        profile.fuzziness,
        nameMatch,
      );
      if (score.score >= threshold && score.score > 0) scored.push({ entityId, nameIds, score });
    }
    // Ties keep the more authoritative source first, then the index's order (dataset, entity id).
    scored.sort(
      (a, b) =>
        b.score.score - a.score.score ||
        this.entityPriority[a.entityId]! - this.entityPriority[b.entityId]! ||
        a.entityId - b.entityId,
    );
    return scored.slice(0, limit).map(({ entityId, nameIds, score }) => {
      const entity = this.store.entity(entityId);
      return {
        entity,
        snapshotId: this.snapshots[this.entitySnapshot[entityId]!] ?? null,
        checkTypes: checkTypesOfEntity(entity.topics),
        explanation: explainMatch(
          prepared,
          { ...this.store.facts(entityId), names: this.preparedNames(entityId, nameIds, entity) },
          profile.fuzziness,
          score,
        ),
      };
    });
  }

  /**
   * One party scored against the subject over all its names, whatever the threshold (monitoring
   * follows the parties it has observed this way, docs/monitoring.md); undefined when the index does
   * not hold it.
   */
  scoreParty(
    subject: ScreeningSubject,
    partyId: string,
    profile: ScreeningProfile,
  ): ScreeningMatch | undefined {
    this.partyIds ??= new Map(
      Array.from({ length: this.store.size }, (_, i) => [this.store.entity(i).id, i]),
    );
    const entityId = this.partyIds.get(partyId);
    if (entityId === undefined) return undefined;
    const prepared = new PreparedSubject(subject);
    const entity = this.store.entity(entityId);
    const names = this.preparedNames(entityId, this.allNames(entityId), entity);
    const facts = { ...this.store.facts(entityId), names };
    const score = scoreEntity(prepared, facts, profile.fuzziness);
    return {
      entity,
      snapshotId: this.snapshots[this.entitySnapshot[entityId]!] ?? null,
      checkTypes: checkTypesOfEntity(entity.topics),
      explanation: explainMatch(prepared, facts, profile.fuzziness, score),
    };
  }

  private allNames(entityId: number): number[] {
    const names: number[] = [];
    for (let nameId = this.store.firstName(entityId); nameId < this.store.firstName(entityId + 1); nameId++) {
      names.push(nameId);
    }
    return names;
  }

  /**
   * The given names of a party, prepared from the token table; their full text (needed to explain
   * a match, not to score it) comes from the parsed party when given.
   */
  private preparedNames(entityId: number, nameIds: readonly number[], entity?: ListedEntity): PreparedName[] {
    const kind = this.store.kind(entityId);
    const first = this.store.firstName(entityId);
    const names: PreparedName[] = [];
    for (const nameId of nameIds) {
      const ids = this.store.nameTokens(nameId);
      const tokens: NameToken[] = [];
      for (let i = 0; i < ids.length; i++) tokens.push(this.tokenTable[ids[i]!]!);
      const full = entity?.names[this.readingSource.get(nameId) ?? nameId - first]?.full ?? '';
      names.push(preparedNameOf(full, this.store.nameKind(nameId), kind, tokens));
    }
    return names;
  }

  /** Which parties a search may return: check type, dataset (any of the party's) and kind. */
  private filter(subject: ScreeningSubject, options: SearchOptions): (entityId: number) => boolean {
    const mask = checkTypeMask(options.checkTypes);
    const datasets = options.profile.datasets;
    const allowedDatasets = datasets ? new Set(datasets.map((d) => this.datasets.indexOf(d))) : undefined;
    const inAllowedDataset = (entityId: number) => {
      for (let i = this.datasetStart[entityId]!; i < this.datasetStart[entityId + 1]!; i++) {
        if (allowedDatasets!.has(this.entityDatasets[i]!)) return true;
      }
      return false;
    };
    return (entityId) =>
      (this.entityMask[entityId]! & mask) !== 0 &&
      (!allowedDatasets || inAllowedDataset(entityId)) &&
      kindsCompatible(subject.kind, this.store.kind(entityId));
  }

  /**
   * Parties worth scoring, each with the names that had evidence (undefined: compare every name):
   * the parties of the best-evidenced names, and parties sharing an identifier with the subject.
   */
  private candidates(
    subject: PreparedSubject,
    options: SearchOptions,
    allowed: (entityId: number) => boolean,
  ): Candidates {
    const entities: Candidates = new Map();
    if (options.exhaustive) {
      for (let entityId = 0; entityId < this.store.size; entityId++) {
        if (allowed(entityId)) entities.set(entityId, this.allNames(entityId));
      }
    } else {
      for (const nameId of this.bestNames(subject, options, allowed)) {
        const entityId = this.nameEntity[nameId]!;
        const names = entities.get(entityId) ?? [];
        names.push(nameId);
        entities.set(entityId, names);
      }
    }
    for (const identifier of subject.subject.identifiers) {
      // An unlabelled number may be an IMO or MMSI written with its label ("IMO 9123456").
      const schemes = identifier.scheme === 'other' ? ['other', ...DIGIT_SCHEMES] : [identifier.scheme];
      for (const scheme of schemes) {
        const holders = this.identifiers.get(normaliseIdentifierValue(identifier.value, scheme));
        if (holders) for (const entityId of holders) if (allowed(entityId)) entities.set(entityId, undefined);
      }
    }
    return entities;
  }

  /** The names with the most evidence for the subject's name (steps 1 and 2 above). */
  private bestNames(
    subject: PreparedSubject,
    options: SearchOptions,
    allowed: (entityId: number) => boolean,
  ): number[] {
    const { parts, personReading } = queryPartReadings(subject);
    const matched = parts
      .map((part) => leadingTerms(this.terms.matches(part, options.profile.fuzziness)))
      .map((terms, part) => ({ part, terms, frequency: this.frequencyOf(terms), adding: false }))
      .filter(({ terms }) => terms.length > 0)
      .sort((a, b) => a.frequency - b.frequency);

    // A name sharing only the common half of a subject's name cannot reach a threshold: "John" alone
    // is not "John Smith", and two names of six parts that agree only on "Abdul", "Muhammad" and
    // "Jr" are two people. So only the rarer half of the parts (the rarest one of two) bring in new
    // names; the common half only adds evidence to names the rarer parts (or parts glued or split)
    // found, and "john" or "mohammad" never floods the candidates. A subject of unknown kind is
    // read as a person's name and as an organisation's: the halves are those of all its parts,
    // and also those of the person reading, so that it finds what the same subject as a person
    // would. Read as an organisation, "ABU RUSDAN" has "abu" as a word, rarer than "rusdan"; read
    // as a person, "abu" is a particle and "rusdan" all of the name. (The organisation reading's
    // own halves too brought in more false positives: 4 more among the 50,000 synthetic US
    // negatives, 3 among the 24,496 names from every region.)
    const halves = (ranked: typeof matched) => {
      const adding = ranked.length <= 2 ? 1 : Math.ceil(ranked.length / 2);
      for (const entry of ranked.slice(0, adding)) entry.adding = true;
    };
    halves(matched);
    if (personReading) halves(matched.filter(({ part }) => personReading.includes(part)));
    for (const { terms, adding } of matched) if (adding) this.collect(terms, true);
    for (const { terms, adding } of matched) if (!adding) this.collect(terms, false);
    for (const terms of this.joinedParts(parts)) this.collect(terms, true);
    for (const [rarer, commoner] of this.splitParts(parts)) {
      this.collect(rarer, true);
      this.collect(commoner, false);
    }
    // A part that may be an acronym (three letters or more, in capitals in a mixed-case name), of an
    // organisation's name, finds the names whose words spell it.
    if (spellsAcronyms(nameClassOf(subject.subject.kind))) {
      for (const part of parts) {
        const names =
          mayBeAcronym(part, SEARCHED_ACRONYM_MIN) && writtenAsAcronym(subject.subject.name, part.text)
            ? this.acronyms.get(part.text)
            : undefined;
        if (names === undefined) continue;
        this.evidence.beginPart();
        const idf = Math.log(1 + this.nameEntity.length / names.length);
        this.evidence.add(names, idf * TOKEN_SCORES.acronym);
      }
    }
    return this.evidence.take(CANDIDATE_NAMES, (nameId) => allowed(this.nameEntity[nameId]!));
  }

  /**
   * Two neighbouring parts written as one in a list ("Abdul Hai" / "ABDULHAI"); across an abjad
   * transliteration, by their skeletons joined ("ولی جان" / "WALIJAN").
   */
  private joinedParts(parts: readonly NameToken[]): TermMatch[][] {
    const joined: TermMatch[][] = [];
    for (let i = 0; i + 1 < parts.length; i++) {
      const [left, right] = [parts[i]!, parts[i + 1]!];
      const term = this.terms.lookup(left.text + right.text);
      if (term !== undefined) joined.push([{ term, similarity: GLUED_SIMILARITY }]);
      if (left.abjad !== right.abjad) continue;
      const across = this.terms.skeletonTerms(left.skeleton + right.skeleton, left.abjad);
      if (across.length > 0)
        joined.push(Array.from(across, (term) => ({ term, similarity: GLUED_SIMILARITY })));
    }
    return joined;
  }

  /**
   * One part written as two in a list ("SergeiLavrov" / "Sergei Lavrov"): every split of a word no
   * term holds into two halves that both are terms, the rarer half first.
   */
  private splitParts(parts: readonly NameToken[]): [TermMatch[], TermMatch[]][] {
    const splits: [TermMatch[], TermMatch[]][] = [];
    const glued = (terms: ArrayLike<number>) =>
      Array.from(terms, (term) => ({ term, similarity: GLUED_SIMILARITY }));
    const push = (left: ArrayLike<number>, right: ArrayLike<number>) => {
      const halves = [glued(left), glued(right)].sort((a, b) => this.frequencyOf(a) - this.frequencyOf(b));
      splits.push([halves[0]!, halves[1]!]);
    };
    for (const { role, text, skeleton, abjad } of parts) {
      if (role !== 'word') continue;
      if (text.length >= 6 && this.terms.lookup(text) === undefined) {
        for (let i = 3; i <= text.length - 3; i++) {
          const left = this.terms.lookup(text.slice(0, i));
          const right = this.terms.lookup(text.slice(i));
          if (left !== undefined && right !== undefined) push([left], [right]);
        }
      }
      // An abjad compound against Latin parts, by the skeleton ("عبدالرحمن" / "ABDUL RAHMAN"). Not
      // the other way: Arabic script writes its compounds as one word far more often than Latin
      // does, and every Latin part's halves would cost every query a walk of postings.
      if (!abjad) continue;
      for (let i = MIN_SKELETON_HALF; i <= skeleton.length - MIN_SKELETON_HALF; i++) {
        const left = this.terms.skeletonTerms(skeleton.slice(0, i), abjad);
        const right = this.terms.skeletonTerms(skeleton.slice(i), abjad);
        if (left.length > 0 && right.length > 0) push(left, right);
      }
    }
    return splits;
  }

  private frequencyOf(terms: readonly TermMatch[]): number {
    let total = 0;
    for (const { term } of terms) total += this.postings[term]!.length;
    return total;
  }

  /**
   * Adds each term's IDF, times its similarity, to the names holding it, once per query part: the
   * terms come best first, so a name reached by several terms of one part counts the best. A part
   * that may not bring in names raises those the others reach (NameEvidence.raise).
   */
  private collect(terms: readonly TermMatch[], mayAdd: boolean): void {
    if (!mayAdd) {
      this.evidence.raise(
        terms.map(({ term }) => this.postings[term]!),
        terms.map(({ term, similarity }) => this.idf[term]! * similarity),
      );
      return;
    }
    this.evidence.beginPart();
    for (const { term, similarity } of terms)
      this.evidence.add(this.postings[term]!, this.idf[term]! * similarity);
  }
}

/**
 * The terms of a part worth following: those matching at least TERM_FLOOR (a weaker one, a near
 * miss, hardly lifts a name's score, yet its postings cost as much to walk), at most TERMS_PER_PART,
 * best first as the dictionary returns them.
 */
function leadingTerms(terms: readonly TermMatch[]): readonly TermMatch[] {
  let end = 0;
  while (end < terms.length && end < TERMS_PER_PART && terms[end]!.similarity >= TERM_FLOOR) end++;
  return end === terms.length ? terms : terms.slice(0, end);
}

/**
 * The searchable parts of the subject's name as each kind of party would read it: a subject of
 * unknown kind is searched both as a person's name and as an organisation's. Each text once. (The
 * reverse index of monitoring reads names the same way, src/monitoring/delta/monitoredSubjectIndex.ts.)
 */
export function queryParts(subject: PreparedSubject): NameToken[] {
  return queryPartReadings(subject).parts;
}

/** queryParts, and for a subject of unknown kind which of them (indices) its person reading has. */
function queryPartReadings(subject: PreparedSubject): { parts: NameToken[]; personReading?: number[] } {
  const kinds =
    subject.subject.kind === 'unknown' ? (['person', 'company'] as const) : [subject.subject.kind];
  const ids = new Map<string, number>();
  const parts: NameToken[] = [];
  const readings: number[][] = [];
  for (const kind of kinds) {
    const reading: number[] = [];
    for (const name of subject.namesFor(kind)) {
      for (const token of name.tokens) {
        if (!isSearchablePart(token)) continue;
        // Two reading names may hold one text read otherwise (恩 in a Japanese and a Korean reading).
        const identity =
          token.readings.length === 0 ? token.text : `${token.text}|${token.readings.join('|')}`;
        let id = ids.get(identity);
        if (id === undefined) {
          id = parts.length;
          ids.set(identity, id);
          parts.push(token);
        }
        if (!reading.includes(id)) reading.push(id);
      }
    }
    readings.push(reading);
  }
  return { parts, ...(readings.length > 1 && { personReading: readings[0] }) };
}
