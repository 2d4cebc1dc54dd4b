import { editBudget, weightedDistance } from './editDistance.js';
import type { NameClass, NameToken } from './nameTokens.js';
import type { PreparedName } from './preparedName.js';
import {
  compareTokens,
  type Fuzziness,
  TOKEN_SCORES,
  type TokenComparison,
  type TokenMatchKind,
} from './tokenSimilarity.js';

/**
 * Name comparison: align the parts of two names in any order, glue split parts, then weigh what
 * matched against what did not.
 *
 *   score = Σ matched (weight × similarity) / (Σ matched weight + penalties)
 *
 * Penalties, per unmatched part, as a share of its weight:
 * - a part on both sides that matches nothing on the other (a conflict: "Viktorovich" vs
 *   "Ivanovich", "Gas" vs "Oil") costs CONFLICT, and at least CONFLICT;
 * - a part only the query has costs EXTRA_QUERY (EXTRA_QUERY_MIDDLE for a person's middle name);
 * - a part only the listed name has costs EXTRA_CANDIDATE (lists give fuller names than callers),
 *   more for a place in an organisation's name ("Banco Santander México");
 * - unmatched legal forms, particles and connecting words cost little (MINOR_EXTRA).
 * A name pair where nothing but legal forms, particles or connecting words match scores 0.
 */
export const NAME_RULES = {
  conflict: 1.5,
  extraQuery: 0.8,
  extraQueryMiddle: 0.4,
  extraCandidatePerson: 0.2,
  extraCandidateOther: 0.3,
  extraCandidatePlace: 0.8,
  minorExtra: 0.3,
  /** Token pairs scoring below this are not aligned. */
  minimumPairScore: 0.5,
  /** Cost of each join when glued tokens meet split ones ("SergeiLavrov" / "Sergei Lavrov"). */
  mergeCost: 0.2,
  /** Vessels, aircraft and vehicles are spelled strictly: their edit budget is scaled by this. */
  objectBudgetFactor: 0.6,
} as const;

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
  /** Present when asked for: how each part of either name was used. */
  alignment?: AlignedPart[];
}

interface Edge {
  score: number;
  weight: number;
  queryMask: number;
  candidateMask: number;
  kind: TokenMatchKind;
}

const CORE_ROLES = new Set(['word', 'patronymic', 'number', 'initial']);
const scratch: TokenComparison = { score: 0, kind: 'exact' };

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

export function compareNames(
  query: PreparedName,
  candidate: PreparedName,
  fuzziness: Fuzziness,
  explain = false,
): NameComparison {
  const q = query.tokens;
  const r = candidate.tokens;
  if (q.length === 0 || r.length === 0) return { score: 0 };
  const nameClass = pairClass(query.nameClass, candidate.nameClass);
  const fuzz: Fuzziness =
    nameClass === 'object'
      ? { budgetFactor: fuzziness.budgetFactor * NAME_RULES.objectBudgetFactor, phonetic: false }
      : fuzziness;

  if (query.signature === candidate.signature && !explain) return { score: 1 };

  const edges: Edge[] = [];
  for (let i = 0; i < q.length; i++) {
    for (let j = 0; j < r.length; j++) {
      compareTokens(q[i]!, r[j]!, fuzz, scratch);
      if (scratch.score >= NAME_RULES.minimumPairScore) {
        edges.push({
          score: scratch.score,
          weight: pairWeight(q[i]!, r[j]!),
          queryMask: 1 << i,
          candidateMask: 1 << j,
          kind: scratch.kind,
        });
      }
    }
  }
  addMergedEdges(q, r, fuzz, edges, false);
  addMergedEdges(r, q, fuzz, edges, true);
  if (nameClass === 'org' || nameClass === 'unknown') {
    addAcronymEdges(q, r, edges, false);
    addAcronymEdges(r, q, edges, true);
  }
  if (edges.length === 0) return explain ? { score: 0, alignment: unmatchedOnly(q, r) } : { score: 0 };

  edges.sort((x, y) => y.score - x.score || y.weight - x.weight);
  let usedQuery = 0;
  let usedCandidate = 0;
  let matched = 0;
  let total = 0;
  let coreMatched = false;
  const chosen: Edge[] = [];
  for (const edge of edges) {
    if ((edge.queryMask & usedQuery) !== 0 || (edge.candidateMask & usedCandidate) !== 0) continue;
    usedQuery |= edge.queryMask;
    usedCandidate |= edge.candidateMask;
    matched += edge.weight * edge.score;
    total += edge.weight;
    if (!coreMatched) coreMatched = touchesCore(q, edge.queryMask) || touchesCore(r, edge.candidateMask);
    chosen.push(edge);
  }
  if (!coreMatched) return explain ? { score: 0, alignment: unmatchedOnly(q, r) } : { score: 0 };

  const penalty = unmatchedPenalty(q, r, usedQuery, usedCandidate, nameClass, explain ? [] : undefined);
  const score = matched / (total + penalty.total);
  if (!explain) return { score };
  return { score, alignment: [...chosen.map((edge) => describeEdge(edge, q, r)), ...penalty.parts!] };
}

function touchesCore(tokens: NameToken[], mask: number): boolean {
  for (let i = 0; i < tokens.length; i++) {
    if ((mask & (1 << i)) !== 0 && CORE_ROLES.has(tokens[i]!.role)) return true;
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
  edges: Edge[],
  singleIsCandidate: boolean,
): void {
  if (runs.length < 2) return;
  for (let s = 0; s < single.length; s++) {
    const token = single[s]!;
    if (token.role !== 'word' || token.text.length < 4) continue;
    for (let start = 0; start < runs.length - 1; start++) {
      let joinedLength = runs[start]!.text.length;
      for (let end = start + 1; end < runs.length && end < start + 3; end++) {
        joinedLength += runs[end]!.text.length;
        const joins = end - start;
        const length = Math.max(joinedLength, token.text.length);
        const budget = editBudget(length, fuzz.budgetFactor) - joins * NAME_RULES.mergeCost;
        if (budget < 0 || Math.abs(joinedLength - token.text.length) * 0.3 > budget) continue;
        let joined = '';
        let weight = token.weight;
        let mask = 0;
        for (let k = start; k <= end; k++) {
          joined += runs[k]!.text;
          weight = Math.max(weight, runs[k]!.weight);
          mask |= 1 << k;
        }
        const cost = weightedDistance(joined, token.text, budget);
        if (cost > budget) continue;
        const score = 1 - (cost + joins * NAME_RULES.mergeCost) / length;
        if (score < NAME_RULES.minimumPairScore) continue;
        edges.push({
          score,
          weight,
          queryMask: singleIsCandidate ? mask : 1 << s,
          candidateMask: singleIsCandidate ? 1 << s : mask,
          kind: 'merged',
        });
      }
    }
  }
}

/** "US" / "United States", "PLA" / "People's Liberation Army": a short word spelled by initials. */
function addAcronymEdges(
  short: NameToken[],
  words: NameToken[],
  edges: Edge[],
  shortIsCandidate: boolean,
): void {
  for (let s = 0; s < short.length; s++) {
    const token = short[s]!;
    const letters = token.text;
    if (token.role !== 'word' || letters.length < 2 || letters.length > 5) continue;
    for (let start = 0; start < words.length; start++) {
      let mask = 0;
      let matched = 0;
      let weight = 0;
      for (let k = start; k < words.length && matched < letters.length; k++) {
        const word = words[k]!;
        if (word.role === 'stop') {
          mask |= 1 << k;
          continue;
        }
        if (word.role !== 'word' || word.text[0] !== letters[matched]) break;
        mask |= 1 << k;
        weight = Math.max(weight, word.weight);
        matched++;
      }
      if (matched === letters.length) {
        edges.push({
          score: TOKEN_SCORES.acronym,
          weight: Math.max(weight, token.weight),
          queryMask: shortIsCandidate ? mask : 1 << s,
          candidateMask: shortIsCandidate ? 1 << s : mask,
          kind: 'acronym',
        });
      }
    }
  }
}

interface Penalty {
  total: number;
  parts?: AlignedPart[];
}

function unmatchedPenalty(
  q: NameToken[],
  r: NameToken[],
  usedQuery: number,
  usedCandidate: number,
  nameClass: NameClass,
  parts: AlignedPart[] | undefined,
): Penalty {
  const queryCore: NameToken[] = [];
  const candidateCore: NameToken[] = [];
  let total = 0;
  for (let i = 0; i < q.length; i++) {
    if ((usedQuery & (1 << i)) !== 0) continue;
    const token = q[i]!;
    if (CORE_ROLES.has(token.role)) queryCore.push(token);
    else {
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
    if (CORE_ROLES.has(token.role)) candidateCore.push(token);
    else {
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
  const byWeight = (a: NameToken, b: NameToken) => b.weight - a.weight;
  queryCore.sort(byWeight);
  candidateCore.sort(byWeight);
  const conflicts = Math.min(queryCore.length, candidateCore.length);
  for (let k = 0; k < conflicts; k++) {
    const left = queryCore[k]!;
    const right = candidateCore[k]!;
    const weight = Math.max(left.weight, right.weight, 1);
    total += NAME_RULES.conflict * weight;
    parts?.push({ query: left.text, candidate: right.text, kind: 'conflict', score: 0, weight });
  }
  const [firstMatched, lastMatched] = matchedSpan(usedQuery);
  for (let k = conflicts; k < queryCore.length; k++) {
    const token = queryCore[k]!;
    const middle = nameClass === 'person' && token.position > firstMatched && token.position < lastMatched;
    total += (middle ? NAME_RULES.extraQueryMiddle : NAME_RULES.extraQuery) * token.weight;
    parts?.push({ query: token.text, candidate: null, kind: 'extra_query', score: 0, weight: token.weight });
  }
  for (let k = conflicts; k < candidateCore.length; k++) {
    const token = candidateCore[k]!;
    const share = token.place
      ? NAME_RULES.extraCandidatePlace
      : nameClass === 'person'
        ? NAME_RULES.extraCandidatePerson
        : NAME_RULES.extraCandidateOther;
    total += share * token.weight;
    parts?.push({
      query: null,
      candidate: token.text,
      kind: 'extra_candidate',
      score: 0,
      weight: token.weight,
    });
  }
  return parts ? { total, parts } : { total };
}

/** Positions of the first and last used token of a mask. */
function matchedSpan(mask: number): [number, number] {
  if (mask === 0) return [0, 0];
  return [31 - Math.clz32(mask & -mask), 31 - Math.clz32(mask)];
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
