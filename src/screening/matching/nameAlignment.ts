import { mayBeAcronym, mayStartRun, spelledRun, spellsAcronyms } from './acronyms.js';
import { distanceLowerBound, doubledLetters, editBudget, weightedDistance } from './editDistance.js';
import { MAX_TOKENS, type NameClass, type NameToken, type TokenRole } from './nameTokens.js';
import type { PreparedName } from './preparedName.js';
import { REMEMBERED_PARTS, remembered } from './remembered.js';
import {
  compareTokens,
  type Fuzziness,
  readingScore,
  sameKoreanSyllables,
  skeletonReadings,
  TOKEN_SCORES,
  type TokenComparison,
  type TokenMatchKind,
  textSkeletonReadings,
  withAbjadVReadings,
  withoutInnerArticle,
  withVReading,
} from './tokenSimilarity.js';
import { isOneSinoSyllable } from './vocabulary/chineseRomanisation.js';
import { koreanKey } from './vocabulary/koreanRomanisation.js';

/**
 * Name comparison: align the parts of two names in any order, glue split parts, then weigh what
 * matched against what did not.
 *
 *   score = Σ matched (weight × similarity) / (Σ matched weight + penalties)
 *
 * Token pairs are aligned greedily, best first; what is left over is priced by unmatchedPenalty:
 * - a part on both sides that matches nothing on the other is a conflict ("Viktorovich" vs
 *   "Ivanovich", "Gas" vs "Oil"): CONFLICT of its weight, plus CONFLICT_GROWTH per unit of matched
 *   weight beyond two parts, so that a contradicting part is not diluted by long names;
 * - a part only the query has costs EXTRA_QUERY (EXTRA_QUERY_MIDDLE for a person's middle name);
 * - a part only the listed name has costs EXTRA_CANDIDATE (lists give fuller names than callers);
 * - in organisation names a place or series number on one side only is another legal entity,
 *   and costs as much as a conflict ("Banco Santander México", "Fund II"); two numbers one step
 *   apart ("Fund XII" / "Fund XIII") are neighbours in one series and cost SERIES_SIBLING;
 * - unmatched legal forms, particles and connecting words cost little (MINOR_EXTRA), except two
 *   legal forms of different families ("AG" / "GmbH", LEGAL_CONFLICT);
 * - a repeated part left over costs REPEAT_EXTRA ("Shoigu Shoigu Sergey").
 * A name pair where nothing but legal forms, particles or connecting words match scores 0. Only
 * two names with the same parts score 1; any difference, however small, scores below.
 */
export const NAME_RULES = {
  conflict: 1.5,
  extraQuery: 0.8,
  extraQueryMiddle: 0.4,
  extraCandidatePerson: 0.2,
  extraCandidateOther: 0.3,
  minorExtra: 0.3,
  /** Two legal forms of different families ("AG" / "GmbH"): different legal entities. */
  legalConflict: 1,
  /** A conflict costs this much more per unit of matched weight beyond two parts. */
  conflictGrowth: 0.5,
  /**
   * Two numbers or codes one step apart ("Fund XII" / "Fund XIII", "Trust 2007-AHL1" / "2007-AHL2"):
   * the next sibling in one series of funds, trusts or vessels (or a digit slipped), worth a
   * reviewer's look: it costs its weight, two thirds of a conflict. Persons' numbers are
   * generations, and conflict.
   */
  seriesSibling: 1,
  /** A repeated part left over when nothing on the other side is. */
  repeatExtra: 0.1,
  /** Token pairs scoring below this are not aligned (only near misses score below 0.6). */
  minimumPairScore: 0.3,
  /**
   * Two words that agree only by their spelling on less than half of it are not aligned but
   * conflict ("Castillo" / "Castro" at 0.48); patronymics keep minimumPairScore (Валянцінавіч /
   * Valentinovich, a Belarusian patronymic against the Russian one, 0.46).
   */
  minimumFuzzyScore: 0.5,
  /** Glued or split tokens scoring below this are not aligned. */
  minimumMergedScore: 0.5,
  /** Cost of each join when glued tokens meet split ones ("SergeiLavrov" / "Sergei Lavrov"). */
  mergeCost: 0.2,
  /** The score of two names with the same parts in another order. */
  reordered: 0.98,
  /** Vessels, aircraft and vehicles are spelled strictly: their edit budget is scaled by this. */
  objectBudgetFactor: 0.6,
} as const;

/**
 * The recommended threshold on the name score: a name pair scoring at least this is a name match.
 * Tuned on OpenSanctions' labelled name pairs (persons, companies, organisations, vessels),
 * where F1 is flat between 0.625 and 0.7; the upper end of that plateau keeps precision high.
 * A name whose parts all agree but one contradicting part stays below it.
 */
export const NAME_MATCH_THRESHOLD = 0.7;

export type AlignmentKind = TokenMatchKind | 'conflict' | 'extra_query' | 'extra_candidate';

export interface AlignedPart {
  query: string | null;
  candidate: string | null;
  kind: AlignmentKind;
  score: number;
  weight: number;
}

export interface NameComparison {
  score: number;
  /** How each part of either name was used. */
  alignment: AlignedPart[];
}

interface Edge {
  score: number;
  weight: number;
  queryMask: number;
  candidateMask: number;
  kind: TokenMatchKind;
}

// Scratch state reused across calls: compareNames runs for every candidate of every query and
// must not allocate on the common path. It is synchronous and never re-entered.
const scratch: TokenComparison = { score: 0, kind: 'exact' };
const edgePool: Edge[] = [];
let edgeCount = 0;
// The parts each side leaves over, the first queryLeftCount and candidateLeftCount of them: counted
// rather than emptied, as `length = 0` gives an array's storage back and the next push allocates it.
const queryLeft: NameToken[] = [];
const candidateLeft: NameToken[] = [];
let queryLeftCount = 0;
let candidateLeftCount = 0;

function pushEdge(
  score: number,
  weight: number,
  queryMask: number,
  candidateMask: number,
  kind: TokenMatchKind,
): void {
  const edge = edgePool[edgeCount];
  if (edge === undefined) edgePool.push({ score, weight, queryMask, candidateMask, kind });
  else {
    edge.score = score;
    edge.weight = weight;
    edge.queryMask = queryMask;
    edge.candidateMask = candidateMask;
    edge.kind = kind;
  }
  edgeCount++;
}

/** Stable insertion sort of the pooled edges, best score first, then heavier first. */
function sortEdges(): void {
  for (let i = 1; i < edgeCount; i++) {
    const edge = edgePool[i]!;
    let j = i - 1;
    while (j >= 0) {
      const other = edgePool[j]!;
      if (other.score > edge.score || (other.score === edge.score && other.weight >= edge.weight)) break;
      edgePool[j + 1] = other;
      j--;
    }
    edgePool[j + 1] = edge;
  }
}

function isCore(token: NameToken): boolean {
  const role = token.role;
  return role === 'word' || role === 'patronymic' || role === 'number' || role === 'initial';
}

/** Numbers and codes with digits ("II", "2007", "AHL1"): series markers, not words. */
function isSerial(token: NameToken): boolean {
  return token.role === 'number' || token.letters >>> 26 !== 0;
}

const SERIAL_NUMBER = /^(.*?)(\d+)(\D*)$/;

/**
 * Two numbers or codes one step apart ("X" / "XI", "2005" / "2006", "AHL1" / "AHL2", "7862" /
 * "7863"): the next member of a series, or one digit slipped. Numbers further apart name other
 * members of the series ("FU YUAN YU 005" / "FU YUAN YU 7862", one fleet of dozens of vessels).
 */
function nextInSeries(a: NameToken, b: NameToken): boolean {
  if (!isSerial(a) || !isSerial(b)) return false;
  const left = SERIAL_NUMBER.exec(a.key);
  const right = SERIAL_NUMBER.exec(b.key);
  if (left === null || right === null || left[1] !== right[1] || left[3] !== right[3]) return false;
  const step = BigInt(left[2]!) - BigInt(right[2]!);
  return step === 1n || step === -1n;
}

function pairClass(query: NameClass, candidate: NameClass): NameClass {
  if (query === 'object' || candidate === 'object') return 'object';
  if (query === 'person' || candidate === 'person') return 'person';
  if (query === 'org' || candidate === 'org') return 'org';
  return 'unknown';
}

function pairWeight(a: NameToken, b: NameToken): number {
  if (a.role === 'initial' || b.role === 'initial') return Math.min(a.weight, b.weight);
  return Math.max(a.weight, b.weight);
}

/** The two names compared, with how each part of either was used: what a match explains. */
export function compareNames(
  query: PreparedName,
  candidate: PreparedName,
  fuzziness: Fuzziness,
): NameComparison {
  const alignment: AlignedPart[] = [];
  return { score: alignNames(query, candidate, fuzziness, alignment), alignment };
}

/**
 * The score of compareNames alone, which scoring asks for about a thousand times a search: no
 * alignment described, and a number rather than an object each time.
 */
export function alignedScore(query: PreparedName, candidate: PreparedName, fuzziness: Fuzziness): number {
  return alignNames(query, candidate, fuzziness, undefined);
}

/** The score of two names; `parts`, when given, receives how each part of either was used. */
function alignNames(
  query: PreparedName,
  candidate: PreparedName,
  fuzziness: Fuzziness,
  parts: AlignedPart[] | undefined,
): number {
  const q = query.tokens;
  const r = candidate.tokens;
  if (q.length === 0 || r.length === 0) return 0;
  const nameClass = pairClass(query.nameClass, candidate.nameClass);
  const fuzz: Fuzziness =
    nameClass === 'object'
      ? { budgetFactor: fuzziness.budgetFactor * NAME_RULES.objectBudgetFactor, phonetic: false }
      : q[0]!.han || r[0]!.han
        ? { ...fuzziness, syllablesRead: true }
        : fuzziness;

  // Two lineage chains with the same parts in another order are father and son, not one name.
  const lineage = query.lineage && candidate.lineage;
  const sameParts = !lineage && sameTexts(q, r);
  // The same parts in another order ("Kim Jong Un" / "Jong Un Kim") rank just below the same
  // order: most often the same name in another convention, but not always.
  const identical = sameParts ? (sameOrder(q, r) ? 1 : NAME_RULES.reordered) : 0;
  if (sameParts && parts === undefined) return identical;

  buildEdges(q, r, fuzz, nameClass, false);
  let aligned = chooseEdges(q, r);
  // Lineage chains aligned against their order ("Salman bin Muhammad" / "Muhammad bin Salman")
  // are father and son: align them again with own names held to own names.
  if (lineage && crossesGenerations(q, r)) {
    buildEdges(q, r, fuzz, nameClass, true);
    aligned = chooseEdges(q, r);
  }
  if (edgeCount === 0 || !aligned.coreMatched) {
    parts?.push(...unmatchedOnly(q, r));
    return 0;
  }
  const { usedQuery, usedCandidate, total } = aligned;
  const matched = aligned.matched + wholeNameHeard(query, candidate, usedQuery, usedCandidate);
  for (let k = 0; parts !== undefined && k < chosenCount; k++) parts.push(describeEdge(chosen[k]!, q, r));
  const penalty = unmatchedPenalty(
    q,
    r,
    usedQuery,
    usedCandidate,
    nameClass,
    total,
    aligned.queryInitialForWord,
    aligned.candidateInitialForWord,
    parts,
  );
  return sameParts ? identical : matched / (total + penalty);
}

/**
 * A part of a name read as Korean or Chinese syllables that is one syllable ("Sok", "Yu", "Shek"; the
 * Korean key ends each syllable with a full stop).
 */
function oneSyllable(token: NameToken): boolean {
  if (token.korean !== '' && token.korean.indexOf('.') === token.korean.length - 1) return true;
  return token.sino !== '' && isOneSinoSyllable(token.text);
}

/** The index of the first part of the hyphenated compound holding part `i` (`i` itself if none). */
function compoundStart(tokens: readonly NameToken[], i: number): number {
  let start = i;
  while (start > 0 && tokens[start - 1]!.hyphenNext) start--;
  return start;
}

/** The index of the last part of the hyphenated compound holding part `i` (`i` itself if none). */
function compoundEnd(tokens: readonly NameToken[], i: number): number {
  let end = i;
  while (end + 1 < tokens.length && tokens[end]!.hyphenNext) end++;
  return end;
}

function inCompound(tokens: readonly NameToken[], i: number): boolean {
  return tokens[i]!.hyphenNext || (i > 0 && tokens[i - 1]!.hyphenNext);
}

/**
 * A slip of the key inside a hyphenated compound ("Mercedes-Benn" / "Mercedes-Benz", "Jeab-Marie" /
 * "Jean-Marie", "Abd-al-Latif" / "Abs-al-Latif"): the writer's word is the whole compound, and one
 * edit in it is a typo, where the same edit in the short part alone changes a third of a word and
 * reads as another name ("Beta" / "Meta"). Scored as the compound would be: 1 - cost / its length,
 * when the two compounds have the same parts but this pair, one edit apart within the compound's
 * edit budget. 0 otherwise. Korean and Chinese syllables are left out: there one letter makes
 * another syllable, another name ("Sok-hwa" / "Sol-hwa"; koreanTypos.ts reads their slips).
 */
function compoundSlipScore(
  q: readonly NameToken[],
  i: number,
  r: readonly NameToken[],
  j: number,
  fuzz: Fuzziness,
): number {
  // Most parts are in no compound: the cheapest test first, on the path of every comparison.
  if (!inCompound(q, i) || !inCompound(r, j)) return 0;
  const left = q[i]!;
  const right = r[j]!;
  if (left.role !== 'word' || right.role !== 'word') return 0;
  const qStart = compoundStart(q, i);
  const qEnd = compoundEnd(q, i);
  const rStart = compoundStart(r, j);
  if (qEnd - qStart !== compoundEnd(r, j) - rStart || i - qStart !== j - rStart) return 0;
  let length = 0;
  for (let k = 0; k <= qEnd - qStart; k++) {
    const a = q[qStart + k]!.text;
    const b = r[rStart + k]!.text;
    if (qStart + k !== i && a !== b) return 0;
    length += Math.max(a.length, b.length);
  }
  const limit = Math.min(1, editBudget(length, fuzz.budgetFactor));
  const cost = weightedDistance(left.text, right.text, limit);
  if (cost > limit || oneSyllable(left) || oneSyllable(right)) return 0;
  return 1 - cost / length;
}

/** Fills the edge pool with every token pair, glued run and acronym that may align. */
function buildEdges(
  q: NameToken[],
  r: NameToken[],
  fuzz: Fuzziness,
  nameClass: NameClass,
  ownToOwn: boolean,
): void {
  edgeCount = 0;
  for (let i = 0; i < q.length; i++) {
    const left = q[i]!;
    for (let j = 0; j < r.length; j++) {
      const right = r[j]!;
      if (ownToOwn && !sameLineageRole(left, right)) continue;
      compareTokens(left, right, fuzz, scratch);
      if (scratch.score < 1) {
        const slip = compoundSlipScore(q, i, r, j, fuzz);
        if (slip > scratch.score) {
          scratch.score = slip;
          scratch.kind = 'fuzzy';
        }
      }
      const floor =
        scratch.kind === 'fuzzy' && left.role === 'word' && right.role === 'word'
          ? NAME_RULES.minimumFuzzyScore
          : NAME_RULES.minimumPairScore;
      if (scratch.score >= floor) {
        pushEdge(scratch.score, pairWeight(left, right), 1 << i, 1 << j, scratch.kind);
      }
    }
  }
  addMergedEdges(q, r, fuzz, nameClass, false);
  addMergedEdges(r, q, fuzz, nameClass, true);
  addResplitEdges(q, r, fuzz);
  if (spellsAcronyms(nameClass)) {
    addAcronymEdges(q, r, false);
    addAcronymEdges(r, q, true);
  }
  sortEdges();
}

interface Choice {
  usedQuery: number;
  usedCandidate: number;
  /** Σ weight × score of the chosen edges. */
  matched: number;
  /** Σ weight of the chosen edges. */
  total: number;
  /** A name word, number or initial is among the aligned parts. */
  coreMatched: boolean;
  /** A query initial stood for a candidate word, or the other way round. */
  queryInitialForWord: boolean;
  candidateInitialForWord: boolean;
}

const choice: Choice = {
  usedQuery: 0,
  usedCandidate: 0,
  matched: 0,
  total: 0,
  coreMatched: false,
  queryInitialForWord: false,
  candidateInitialForWord: false,
};
/** The chosen edges, in the order chosen (the first chosenCount entries). */
const chosen: Edge[] = [];
let chosenCount = 0;

/** Greedy alignment: the best remaining edge whose tokens are all still free, until none is. */
function chooseEdges(q: NameToken[], r: NameToken[]): Choice {
  choice.usedQuery = 0;
  choice.usedCandidate = 0;
  choice.matched = 0;
  choice.total = 0;
  choice.coreMatched = false;
  choice.queryInitialForWord = false;
  choice.candidateInitialForWord = false;
  chosenCount = 0;
  for (let e = 0; e < edgeCount; e++) {
    const edge = edgePool[e]!;
    if ((edge.queryMask & choice.usedQuery) !== 0 || (edge.candidateMask & choice.usedCandidate) !== 0)
      continue;
    choice.usedQuery |= edge.queryMask;
    choice.usedCandidate |= edge.candidateMask;
    choice.matched += edge.weight * edge.score;
    choice.total += edge.weight;
    if (!choice.coreMatched) {
      choice.coreMatched = touchesCore(q, edge.queryMask) || touchesCore(r, edge.candidateMask);
    }
    if (edge.kind === 'initial') {
      if (q[31 - Math.clz32(edge.queryMask)]!.role === 'initial') choice.queryInitialForWord = true;
      else choice.candidateInitialForWord = true;
    }
    chosen[chosenCount++] = edge;
  }
  return choice;
}

/** A name in Latin letters (and the marks, digits and spaces of one). */
const LATIN_NAME = /^[\p{Script=Latin}\p{M}\p{N}\p{P}\p{Zs}]+$/u;

/**
 * A name heard (a foreign name in Cyrillic, Hebrew or Chinese characters: vocabulary/soundSkeleton.ts)
 * whose every part meets every part of the other name, one to one, each by its sound: the parts'
 * short skeletons (Джон Манн J N / M N, John Mann) are weak evidence alone, as many names share
 * them, but a whole name of them agreeing part for part is not. The other name must be written in
 * Latin letters: the hearing is of an English spelling, and a romanised Chinese name is none
 * (ჯონ მანი J N / M N is not 孟昭文 Meng Zhaowen, heard M N / J N). Lifts those pairs' scores to a
 * full one and returns what the name gains; 0, and nothing changed, unless the whole name was
 * heard so.
 */
function wholeNameHeard(
  query: PreparedName,
  candidate: PreparedName,
  usedQuery: number,
  usedCandidate: number,
): number {
  const q = query.tokens;
  const r = candidate.tokens;
  if (chosenCount < 2 || usedQuery !== 2 ** q.length - 1 || usedCandidate !== 2 ** r.length - 1) return 0;
  // Every pair heard, checked first: two Latin names aligned in full, the common case on this path,
  // fail at their first pair.
  let queryHeard = false;
  for (let k = 0; k < chosenCount; k++) {
    const edge = chosen[k]!;
    if (!singleBits(edge) || edge.score < TOKEN_SCORES.singleSound) return 0;
    const left = q[31 - Math.clz32(edge.queryMask)]!;
    const right = r[31 - Math.clz32(edge.candidateMask)]!;
    if (left.readingKind !== 'sound' && right.readingKind !== 'sound') return 0;
    queryHeard ||= left.readingKind === 'sound';
  }
  if (!LATIN_NAME.test(queryHeard ? candidate.full : query.full)) return 0;
  let gain = 0;
  for (let k = 0; k < chosenCount; k++) {
    const edge = chosen[k]!;
    if (edge.score !== TOKEN_SCORES.singleSound) continue;
    gain += edge.weight * (TOKEN_SCORES.romanisation - TOKEN_SCORES.singleSound);
    edge.score = TOKEN_SCORES.romanisation;
  }
  return gain;
}

/**
 * Two chosen pairs whose generations run in opposite orders: a part earlier in the lineage on one
 * side meets a part later in it on the other, and the other way round.
 */
function crossesGenerations(q: NameToken[], r: NameToken[]): boolean {
  for (let a = 0; a < chosenCount; a++) {
    const first = chosen[a]!;
    if (!singleBits(first)) continue;
    const qa = q[31 - Math.clz32(first.queryMask)]!.generation;
    const ra = r[31 - Math.clz32(first.candidateMask)]!.generation;
    if (qa < 0 || ra < 0) continue;
    for (let b = a + 1; b < chosenCount; b++) {
      const second = chosen[b]!;
      if (!singleBits(second)) continue;
      const qb = q[31 - Math.clz32(second.queryMask)]!.generation;
      const rb = r[31 - Math.clz32(second.candidateMask)]!.generation;
      if (qb < 0 || rb < 0) continue;
      if ((qa < qb && ra > rb) || (qa > qb && ra < rb)) return true;
    }
  }
  return false;
}

/** The edge pairs one token with one token (not a glued run or an acronym). */
function singleBits(edge: Edge): boolean {
  return (
    (edge.queryMask & (edge.queryMask - 1)) === 0 && (edge.candidateMask & (edge.candidateMask - 1)) === 0
  );
}

/**
 * In "X bin Y" the part before the first bin is the person's own name and the rest are
 * ancestors: when both names are such chains, an own name may only meet an own name. Ancestors
 * may shift between generations, because a chain is often shortened ("Osama bin Laden" for
 * "Usama bin Muhammad bin Awad bin Ladin": Ladin is a forefather's name used as a family name).
 */
function sameLineageRole(a: NameToken, b: NameToken): boolean {
  if (a.generation < 0 || b.generation < 0) return true;
  return (a.generation === 0) === (b.generation === 0);
}

/** The core parts (name words, numbers, initials) come in the same order. */
/**
 * The same token texts, in any order (a multiset comparison). Names have at most MAX_TOKENS (24)
 * tokens, so a bit mask of the candidate's tokens already paired does without allocating: this
 * runs for every candidate name of every search.
 */
if (MAX_TOKENS > 31) throw new Error('sameTexts pairs tokens in a 31-bit mask');
function sameTexts(q: readonly NameToken[], r: readonly NameToken[]): boolean {
  if (q.length !== r.length) return false;
  let paired = 0;
  for (let i = 0; i < q.length; i++) {
    const text = q[i]!.text;
    let j = 0;
    while (j < r.length && ((paired >>> j) & 1 || r[j]!.text !== text)) j++;
    if (j === r.length) return false;
    paired |= 1 << j;
  }
  return true;
}

function sameOrder(q: NameToken[], r: NameToken[]): boolean {
  let j = 0;
  for (let i = 0; i < q.length; i++) {
    if (!isCore(q[i]!)) continue;
    while (j < r.length && !isCore(r[j]!)) j++;
    if (j === r.length || r[j]!.text !== q[i]!.text) return false;
    j++;
  }
  return true;
}

function touchesCore(tokens: NameToken[], mask: number): boolean {
  for (let i = 0; i < tokens.length; i++) {
    if ((mask & (1 << i)) !== 0 && isCore(tokens[i]!)) return true;
  }
  return false;
}

/**
 * Glued and split tokens: a run of two or three consecutive tokens on one side, joined, against a
 * single word on the other ("Patr ushev" / "Patrushev", "JSC ARGUMENT" / "JSCARGUMENT").
 */
function addMergedEdges(
  single: NameToken[],
  runs: NameToken[],
  fuzz: Fuzziness,
  nameClass: NameClass,
  singleIsCandidate: boolean,
): void {
  if (runs.length < 2) return;
  for (let s = 0; s < single.length; s++) {
    const token = single[s]!;
    if ((token.role !== 'word' && token.role !== 'patronymic') || token.text.length < 4) continue;
    const tokenDoubled = doubledLetters(token.text);
    let tokenReadings: readonly string[] | undefined;
    for (let start = 0; start < runs.length - 1; start++) {
      let joinedLength = runs[start]!.text.length;
      let joinedLetters = runs[start]!.letters;
      let joinedDoubled = doubledLetters(runs[start]!.text);
      for (let end = start + 1; end < runs.length && end < start + 3; end++) {
        const last = runs[end - 1]!.text;
        const next = runs[end]!.text;
        joinedDoubled += doubledLetters(next) + doubledAtJoin(last, next);
        joinedLength += next.length;
        joinedLetters |= runs[end]!.letters;
        const joins = end - start;
        const length = Math.max(joinedLength, token.text.length);
        const budget = editBudget(length, fuzz.budgetFactor) - joins * NAME_RULES.mergeCost;
        let score = 0;
        if (
          budget >= 0 &&
          distanceLowerBound(
            joinedLetters,
            token.letters,
            joinedLength,
            token.text.length,
            joinedDoubled,
            tokenDoubled,
          ) <= budget
        ) {
          const cost = weightedDistance(joinedText(runs, start, end), token.text, budget);
          if (cost <= budget) score = 1 - (cost + joins * NAME_RULES.mergeCost) / length;
        }
        // "Tse-tung" / "Zedong": the same Chinese syllables, split and romanised differently.
        if (
          token.sino !== '' &&
          score < TOKEN_SCORES.romanisation &&
          joinedSino(runs, start, end) === token.sino
        ) {
          score = TOKEN_SCORES.romanisation;
        }
        // "bongju" / "Pong-ju": the same Korean syllables, joined on one side. The parts' keys joined,
        // or the key of the joined text, which splits the syllables as the whole word does
        // (hyeongyu: hyeong-yu, where the parts say Hyon-gyu).
        if (
          token.korean !== '' &&
          score < TOKEN_SCORES.romanisation &&
          (sameKoreanSyllables(token.korean, joinedKorean(runs, start, end)) ||
            sameKoreanSyllables(token.korean, joinedTextKorean(runs, start, end)))
        ) {
          score = TOKEN_SCORES.romanisation;
        }
        // "จันทร์โอชา" / "Chan-o-cha": a part of a reading name meets the joined parts by its readings.
        if (token.readings.length > 0 && score < TOKEN_SCORES.romanisation) {
          const joined = joinedText(runs, start, end);
          const read =
            readingScore(token, joined, fuzz) * (1 - (joins * NAME_RULES.mergeCost) / joined.length);
          if (read > score) score = read;
        }
        // "عبدالغفور" / "Abd al-Ghafur": a compound one side writes as one word and the other in parts
        // meets on the skeleton of the joined parts. The article inside the run is left free: the
        // other side's own article may align with it ("al-" is dropped once repeated in a name).
        // The joined word may also have the article assimilated, as Latin writes the one word
        // ("Jalaluddin" / "Jalal al-Din"): then the parts meet it without their article.
        // Compounds are persons' names: a company's or a vessel's name written in Arabic or Hebrew
        // letters is a translation or a word-by-word spelling, and a person's two names glued met
        // such names ("ايليا عقیلی" / LUKOIL, "יובל עטיה" / BALITA).
        let articleFree = false;
        if (
          nameClass === 'person' &&
          token.abjad !== runs[start]!.abjad &&
          score < TOKEN_SCORES.scriptFactor
        ) {
          for (const withArticle of [true, false]) {
            const parts = withArticle ? joins + 1 : partsBesidesArticle(runs, start, end);
            if (!withArticle && parts === joins + 1) continue;
            // Each side read every way its letters are written (آخوند زاده / AKHUNZADA: ه as a).
            for (const skeleton of runReadings(runs, start, end, withArticle)) {
              tokenReadings ??= compoundReadings(token);
              if (skeleton.length < 3 || !tokenReadings.includes(skeleton)) continue;
              const joined =
                TOKEN_SCORES.scriptFactor * (1 - ((parts - 1) * NAME_RULES.mergeCost) / skeleton.length);
              if (joined > score) {
                score = joined;
                articleFree = true;
              }
            }
          }
        }
        if (score < NAME_RULES.minimumMergedScore) continue;
        let weight = token.weight;
        let mask = 0;
        for (let k = start; k <= end; k++) {
          if (articleFree && runs[k]!.role === 'particle') continue;
          weight = Math.max(weight, runs[k]!.weight);
          mask |= 1 << k;
        }
        if (singleIsCandidate) pushEdge(score, weight, mask, 1 << s, 'merged');
        else pushEdge(score, weight, 1 << s, mask, 'merged');
      }
    }
  }
}

/**
 * The skeleton readings of a glued run (runs[start..end], with or without its article): a property
 * of one name's parts, asked for once per part of every name of the other script it is compared
 * with, so kept with the parts (a name's token array is not changed once made). Only runs met
 * across scripts get here, so a Latin-only comparison allocates nothing for it.
 */
function runReadings(runs: NameToken[], start: number, end: number, withArticle: boolean): readonly string[] {
  let readings = gluedRunReadings.get(runs);
  if (!readings) {
    readings = [];
    gluedRunReadings.set(runs, readings);
  }
  // Runs join at most three parts (end < start + 3).
  const slot = (start * 3 + (end - start)) * 2 + (withArticle ? 1 : 0);
  let found = readings[slot];
  if (!found) {
    found = skeletonReadingsOfText(joinedText(runs, start, end, withArticle), runs[start]!.abjad);
    // Latin parts glued may make a digraph neither part has ("Mohammad Javad": d and j as in
    // Djamel, "Mohammad Hassan": d and h as in Dhafer): the parts' own skeletons, joined, too.
    const ownSkeletons = runs[start]!.abjad ? '' : joinedText(runs, start, end, withArticle, 'skeleton');
    if (ownSkeletons.length > 0 && !found.includes(ownSkeletons)) found = [...found, ownSkeletons];
    readings[slot] = found;
  }
  return found;
}

const gluedRunReadings = new WeakMap<NameToken[], (readonly string[])[]>();

/**
 * textSkeletonReadings by the text: the index makes a candidate's token arrays anew for each
 * search, so the cache above lasts one search, while the same names are candidates of search after
 * search (a Hebrew or Arabic query at two million names spent a sixth of its time here).
 */
function skeletonReadingsOfText(text: string, abjad: boolean): readonly string[] {
  return abjad ? abjadRunReadings(text) : latinRunReadings(text);
}

// An abjad run also with its w read as v (محمد جواد / Mohammadjavad), as a single part is (withVReading).
const abjadRunReadings = remembered(REMEMBERED_PARTS, (text) =>
  withAbjadVReadings(textSkeletonReadings(text, true), text),
);
const latinRunReadings = remembered(REMEMBERED_PARTS, (text) => textSkeletonReadings(text, false));

/**
 * Two parts split at another place on each side ("Myongc-hin" / "Myong-chin"): adjacent pairs
 * whose joined spellings agree align as one.
 */
function addResplitEdges(q: NameToken[], r: NameToken[], fuzz: Fuzziness): void {
  for (let i = 0; i + 1 < q.length; i++) {
    const a = q[i]!;
    const b = q[i + 1]!;
    if (!isWord(a) || !isWord(b)) continue;
    const queryLength = a.text.length + b.text.length;
    const queryLetters = a.letters | b.letters;
    for (let j = 0; j + 1 < r.length; j++) {
      const c = r[j]!;
      const d = r[j + 1]!;
      if (!isWord(c) || !isWord(d) || a.text.length === c.text.length) continue;
      const candidateLength = c.text.length + d.text.length;
      const length = Math.max(queryLength, candidateLength);
      const budget = editBudget(length, fuzz.budgetFactor) - NAME_RULES.mergeCost;
      if (budget < 0) continue;
      const least = distanceLowerBound(
        queryLetters,
        c.letters | d.letters,
        queryLength,
        candidateLength,
        doubledAcross(a.text, b.text),
        doubledAcross(c.text, d.text),
      );
      if (least > budget) continue;
      const cost = weightedDistance(a.text + b.text, c.text + d.text, budget);
      if (cost > budget) continue;
      const score = 1 - (cost + NAME_RULES.mergeCost) / length;
      if (score >= NAME_RULES.minimumMergedScore) {
        pushEdge(score, Math.max(a.weight, b.weight, c.weight, d.weight), 3 << i, 3 << j, 'merged');
      }
    }
  }
}

/** doubledLetters of two texts joined, without joining them (a search compares thousands of pairs). */
function doubledAcross(left: string, right: string): number {
  return doubledLetters(left) + doubledLetters(right) + doubledAtJoin(left, right);
}

/** 1 when the letter joining two parts repeats the one before it, as inside a part. */
function doubledAtJoin(left: string, right: string): number {
  return (left.charCodeAt(left.length - 1) & 127) === (right.charCodeAt(0) & 127) ? 1 : 0;
}

/**
 * The skeleton readings of a word meeting glued parts, and for an abjad compound with the article
 * inside (أبواليزيد bwalyzyd, عبد الباقي bdalbaqi), also without it however short the rest: a Latin
 * name writes the article once and leaves out its repeats ("ABOU EL YAZID EL AYASHI" keeps one el).
 */
function compoundReadings(token: NameToken): readonly string[] {
  if (!token.abjad) return skeletonReadings(token);
  const readings = withVReading(token);
  const assimilated = withoutInnerArticle(token.text);
  return assimilated === '' || readings.includes(assimilated) ? readings : [...readings, assimilated];
}

function isWord(token: NameToken): boolean {
  return token.role === 'word' || token.role === 'patronymic';
}

/** The parts' texts (or skeletons) glued, the article left out unless `withArticle`. */
function joinedText(
  tokens: NameToken[],
  start: number,
  end: number,
  withArticle = true,
  field: 'text' | 'skeleton' = 'text',
): string {
  let joined = '';
  for (let k = start; k <= end; k++) {
    if (withArticle || !isArticle(tokens[k]!)) joined += tokens[k]![field];
  }
  return joined;
}

/** The Arabic article however Latin writes it (al, el, ul, ud, ad ...: one key). */
function isArticle(token: NameToken): boolean {
  return token.role === 'particle' && token.key === 'al';
}

/** The parts of a run that are not the article. */
function partsBesidesArticle(tokens: NameToken[], start: number, end: number): number {
  let parts = 0;
  for (let k = start; k <= end; k++) if (!isArticle(tokens[k]!)) parts++;
  return parts;
}

/** The runs' shared Chinese spellings joined, or '' when one of them has none. */
function joinedSino(tokens: NameToken[], start: number, end: number): string {
  let joined = '';
  for (let k = start; k <= end; k++) {
    const sino = tokens[k]!.sino;
    if (sino === '') return '';
    joined += sino;
  }
  return joined;
}

/** The runs' Korean keys joined, after the origin of the first; '' when one of them has none. */
function joinedKorean(tokens: NameToken[], start: number, end: number): string {
  let joined = tokens[start]!.korean.slice(0, 1);
  for (let k = start; k <= end; k++) {
    const korean = tokens[k]!.korean;
    if (korean === '') return '';
    joined += korean.slice(1);
  }
  return joined;
}

/** The Korean key of the runs' text joined, after the origin of the first; '' when it has none. */
function joinedTextKorean(tokens: NameToken[], start: number, end: number): string {
  const origin = tokens[start]!.korean.slice(0, 1);
  if (origin === '') return '';
  const key = koreanKey(joinedText(tokens, start, end));
  return key === undefined ? '' : origin + key;
}

/** "US" / "United States", "PLA" / "People's Liberation Army": a short word spelled by initials (acronyms.ts). */
function addAcronymEdges(short: NameToken[], words: NameToken[], shortIsCandidate: boolean): void {
  for (let s = 0; s < short.length; s++) {
    const token = short[s]!;
    if (!mayBeAcronym(token)) continue;
    for (let start = 0; start < words.length; start++) {
      if (!mayStartRun(words[start]!)) continue;
      const run = spelledRun(token.text, words, start);
      if (run === undefined) continue;
      const edgeWeight = Math.max(run.weight, token.weight);
      if (shortIsCandidate) pushEdge(TOKEN_SCORES.acronym, edgeWeight, run.mask, 1 << s, 'acronym');
      else pushEdge(TOKEN_SCORES.acronym, edgeWeight, 1 << s, run.mask, 'acronym');
    }
  }
}

/**
 * What the parts left unmatched cost, in weight added to the denominator of the score:
 * - legal forms, particles and connecting words cost MINOR_EXTRA of their small weight, except
 *   two legal forms of different families ("AG" / "GmbH"), which name different legal entities;
 * - a core part on both sides is a conflict. In a person's name it says "another person" however
 *   many other parts agree, because the agreeing parts are often the commonest names of a
 *   culture (Muhammad, Abdul, Ibrahim): so beyond two matched parts, each further unit of matched
 *   weight makes a conflict dearer by CONFLICT_GROWTH, and a name with one contradicting part
 *   stays below 2/3 however long it is. The same holds for a differing word in an organisation's
 *   name ("Gas" / "Oil"), but not for numbers and codes;
 * - two numbers or codes one step apart in the name of anything but a person ("Fund XII" /
 *   "Fund XIII", "Zu Zag Bong 5" / "6") are neighbours in one series, and cost SERIES_SIBLING; in
 *   a person's name ("II" / "III") they are generations, and conflict;
 * - in an organisation's name, a place or a series number on one side only ("Banco Santander" /
 *   "Banco Santander México", "Fund" / "Fund II") names another legal entity and costs as much as
 *   a conflict;
 * - a repeated part left over costs almost nothing;
 * - other extras cost EXTRA_QUERY (EXTRA_QUERY_MIDDLE for a person's middle name) or
 *   EXTRA_CANDIDATE of their weight.
 * `parts`, when given, receives the explanation of each unmatched part.
 */
function unmatchedPenalty(
  q: NameToken[],
  r: NameToken[],
  usedQuery: number,
  usedCandidate: number,
  nameClass: NameClass,
  matchedWeight: number,
  queryInitialForWord: boolean,
  candidateInitialForWord: boolean,
  parts: AlignedPart[] | undefined,
): number {
  queryLeftCount = 0;
  candidateLeftCount = 0;
  let total = 0;
  // Unmatched legal forms on both sides are of different families: otherwise they would match.
  const queryLegal = firstUnmatched(q, usedQuery, 'legal');
  const candidateLegal = firstUnmatched(r, usedCandidate, 'legal');
  const legalConflict = queryLegal !== undefined && candidateLegal !== undefined;
  // Two different generations (II / III, Jr. / Sr.) are father and son, or grandson.
  const querySuffix = firstUnmatched(q, usedQuery, 'suffix');
  const candidateSuffix = firstUnmatched(r, usedCandidate, 'suffix');
  const suffixConflict = querySuffix !== undefined && candidateSuffix !== undefined;
  if (suffixConflict) total += conflictOf(querySuffix!, candidateSuffix!, NAME_RULES.conflict, parts);
  if (legalConflict) total += conflictOf(queryLegal, candidateLegal, NAME_RULES.legalConflict, parts);
  for (let i = 0; i < q.length; i++) {
    if ((usedQuery & (1 << i)) !== 0) continue;
    const token = q[i]!;
    if (isCore(token)) queryLeft[queryLeftCount++] = token;
    else if (!(legalConflict && token === queryLegal) && !(suffixConflict && token === querySuffix)) {
      total += NAME_RULES.minorExtra * token.weight;
      parts?.push({
        query: token.text,
        candidate: null,
        kind: 'extra_query',
        score: 0,
        weight: token.weight,
      });
    }
  }
  for (let j = 0; j < r.length; j++) {
    if ((usedCandidate & (1 << j)) !== 0) continue;
    const token = r[j]!;
    if (isCore(token)) candidateLeft[candidateLeftCount++] = token;
    else if (!(legalConflict && token === candidateLegal) && !(suffixConflict && token === candidateSuffix)) {
      total += NAME_RULES.minorExtra * token.weight;
      parts?.push({
        query: null,
        candidate: token.text,
        kind: 'extra_candidate',
        score: 0,
        weight: token.weight,
      });
    }
  }
  const growth = NAME_RULES.conflictGrowth * Math.max(0, matchedWeight - 2);
  // Heaviest parts pair up first; repeated parts last: they are the ones to leave over.
  sortLeftovers(queryLeft, queryLeftCount);
  sortLeftovers(candidateLeft, candidateLeftCount);
  const conflicts = Math.min(queryLeftCount, candidateLeftCount);
  for (let k = 0; k < conflicts; k++) {
    const left = queryLeft[k]!;
    const right = candidateLeft[k]!;
    const weight = Math.max(left.weight, right.weight, 1);
    if (nameClass !== 'person' && nextInSeries(left, right)) total += NAME_RULES.seriesSibling * weight;
    else {
      total += NAME_RULES.conflict * weight;
      if (!isSerial(left) && !isSerial(right)) total += growth;
    }
    parts?.push({ query: left.text, candidate: right.text, kind: 'conflict', score: 0, weight });
  }
  const isOrg = nameClass === 'org' || nameClass === 'unknown';
  const firstMatched = usedQuery === 0 ? 0 : 31 - Math.clz32(usedQuery & -usedQuery);
  const lastMatched = usedQuery === 0 ? 0 : 31 - Math.clz32(usedQuery);
  for (let k = conflicts; k < queryLeftCount; k++) {
    const token = queryLeft[k]!;
    const middle = nameClass === 'person' && token.position > firstMatched && token.position < lastMatched;
    const share = middle ? NAME_RULES.extraQueryMiddle : NAME_RULES.extraQuery;
    total += extraCost(token, isOrg, growth, share, queryInitialForWord);
    parts?.push({ query: token.text, candidate: null, kind: 'extra_query', score: 0, weight: token.weight });
  }
  for (let k = conflicts; k < candidateLeftCount; k++) {
    const token = candidateLeft[k]!;
    const share =
      nameClass !== 'person'
        ? NAME_RULES.extraCandidateOther
        : halfAGivenName(r, usedCandidate, token)
          ? NAME_RULES.extraQuery
          : NAME_RULES.extraCandidatePerson;
    total += extraCost(token, isOrg, growth, share, candidateInitialForWord);
    parts?.push({
      query: null,
      candidate: token.text,
      kind: 'extra_candidate',
      score: 0,
      weight: token.weight,
    });
  }
  return total;
}

/**
 * A syllable of a Korean or Chinese given name of two, beside its other syllable that was matched
 * ("CHANG, MYO'NG-HO", "CHANG, MYONG HO"): half a given name met is another given name (明 Ming is
 * not 명호 Myong-Ho), so the syllable left costs as a part the caller gave that the list lacks, not
 * as the fuller name a list gives. A family name is not half of anything.
 */
function halfAGivenName(tokens: readonly NameToken[], used: number, token: NameToken): boolean {
  if (token.family || !oneSyllable(token)) return false;
  const syllableMet = (k: number) =>
    k >= 0 && k < tokens.length && (used & (1 << k)) !== 0 && !tokens[k]!.family && oneSyllable(tokens[k]!);
  return syllableMet(token.position - 1) || syllableMet(token.position + 1);
}

/** The cost of two parts left over that contradict each other, described in `parts` when given. */
function conflictOf(
  query: NameToken,
  candidate: NameToken,
  cost: number,
  parts: AlignedPart[] | undefined,
): number {
  parts?.push({ query: query.text, candidate: candidate.text, kind: 'conflict', score: 0, weight: cost });
  return cost;
}

/** Stable insertion sort: heavier first, repeated parts after the others. */
function sortLeftovers(tokens: NameToken[], count: number): void {
  for (let i = 1; i < count; i++) {
    const token = tokens[i]!;
    let j = i - 1;
    while (j >= 0 && before(token, tokens[j]!)) {
      tokens[j + 1] = tokens[j]!;
      j--;
    }
    tokens[j + 1] = token;
  }
}

function before(a: NameToken, b: NameToken): boolean {
  if (a.repeat !== b.repeat) return !a.repeat;
  return a.weight > b.weight;
}

function firstUnmatched(tokens: NameToken[], used: number, role: TokenRole): NameToken | undefined {
  for (let i = 0; i < tokens.length; i++) {
    if ((used & (1 << i)) === 0 && tokens[i]!.role === role) return tokens[i];
  }
  return undefined;
}

/**
 * The cost of a core part found on one side only (see unmatchedPenalty). `initialForWord`: an
 * initial on this side stood for a full name on the other ("Justin Torres" / "Manuel J.
 * Torres"); then a full name left over on this side contradicts that name rather than adding to
 * it, and costs as much as a conflict.
 */
function extraCost(
  token: NameToken,
  isOrg: boolean,
  growth: number,
  share: number,
  initialForWord: boolean,
): number {
  if (token.repeat) return NAME_RULES.repeatExtra * token.weight;
  if (isOrg && isSerial(token)) return NAME_RULES.conflict * token.weight;
  if (isOrg && token.place) return NAME_RULES.conflict * token.weight + growth;
  if (initialForWord && (token.role === 'word' || token.role === 'patronymic')) {
    return NAME_RULES.conflict * token.weight;
  }
  return share * token.weight;
}

function textsOf(tokens: NameToken[], mask: number): string {
  const texts: string[] = [];
  for (let i = 0; i < tokens.length; i++) if ((mask & (1 << i)) !== 0) texts.push(tokens[i]!.text);
  return texts.join(' ');
}

function describeEdge(edge: Edge, q: NameToken[], r: NameToken[]): AlignedPart {
  return {
    query: textsOf(q, edge.queryMask),
    candidate: textsOf(r, edge.candidateMask),
    kind: edge.kind,
    score: round(edge.score),
    weight: edge.weight,
  };
}

function unmatchedOnly(q: NameToken[], r: NameToken[]): AlignedPart[] {
  return [
    ...q.map((token) => ({
      query: token.text,
      candidate: null,
      kind: 'extra_query' as const,
      score: 0,
      weight: token.weight,
    })),
    ...r.map((token) => ({
      query: null,
      candidate: token.text,
      kind: 'extra_candidate' as const,
      score: 0,
      weight: token.weight,
    })),
  ];
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
