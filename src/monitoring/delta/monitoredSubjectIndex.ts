import { type CheckType, checkTypesOfEntity } from '../../screening/checkTypes.js';
import { queryParts } from '../../screening/index/screeningIndex.js';
import { isSearchablePart, MIN_SKELETON_HALF, trigramsOf } from '../../screening/index/termDictionary.js';
import {
  acronymsSpelledBy,
  mayBeAcronym,
  SEARCHED_ACRONYM_MIN,
  spellsAcronyms,
  writtenAsAcronym,
} from '../../screening/matching/acronyms.js';
import { NAME_RULES } from '../../screening/matching/nameAlignment.js';
import { type NameToken, nameClassOf } from '../../screening/matching/nameTokens.js';
import { type PreparedName, prepareNames } from '../../screening/matching/preparedName.js';
import {
  compareTokens,
  comparisonIdentity,
  type Fuzziness,
  otherKoreanOrigin,
  skeletonReadings,
  type TokenComparison,
} from '../../screening/matching/tokenSimilarity.js';
import { shortVowels } from '../../screening/matching/vocabulary/japaneseReadings.js';
import { englishSound } from '../../screening/matching/vocabulary/katakanaLoanwords.js';
import { latinSoundReadings } from '../../screening/matching/vocabulary/soundSkeleton.js';
import type { EntityKind, ListedEntity } from '../../screening/model/listedEntity.js';
import { DIGIT_SCHEMES, normaliseIdentifierValue } from '../../screening/scoring/identifiers.js';
import { kindsCompatible } from '../../screening/scoring/kinds.js';
import type { ScreeningProfile } from '../../screening/scoring/profiles.js';
import type { ScreeningSubject } from '../../screening/scoring/query.js';
import {
  type NameMatch,
  PreparedSubject,
  scoreEntity,
  scoreNames,
} from '../../screening/scoring/scoreEntity.js';
import { MAX_EVIDENCE_GAIN, nameOnlyScore } from '../../screening/scoring/scoreWeights.js';

/**
 * Reverse screening: given a listed entity that changed, which monitored subjects can it match?
 *
 * THE GUARANTEE: for every subject S and listed entity E, if `ScreeningIndex.search(S, {profile,
 * checkTypes: S's})` over an index holding E can return E, then S's key is in `candidatesFor(E,
 * profile)`. Why it holds, step by step against screeningIndex.ts:
 *
 * 1. The forward search returns E only when E passes its filter (a check type of S screens E's
 *    topics, E is in one of the profile's datasets, kinds compatible): candidatesFor applies the
 *    same three tests.
 * 2. E is scored only when it is a candidate: some query part of S reached a term held by one of
 *    E's names (termDictionary routes: same text; same key; shared phonetic code; same skeleton
 *    across an abjad transliteration; enough shared 3-grams, each confirmed by `compareTokens`
 *    reaching minimumPairScore), or two neighbouring parts of S glued are one of E's terms, or a
 *    part of S split in two has a half that is one of E's terms (by text, or across an abjad
 *    transliteration by consonant skeleton: glued skeletons, or a half of a part's skeleton, equal
 *    to the skeleton of a term of the other script); or, for S of an organisation or of unknown
 *    kind, a part of S that may be an acronym is one a run of the words of one of E's names spells
 *    (acronyms.ts); or S has an identifier whose normalised value E holds. The reverse index
 *    keeps every query part of every subject (the same `queryParts` reading, person and company
 *    for an unknown kind) under each of those keys, and looks each searchable part of each name
 *    of E up by the same routes, in the other direction, with the same confirmation; the halves
 *    of splits and the glued pairs under their text; the acronyms each name of E spells among the
 *    parts' texts; identifiers under the same normalised values. It applies none of the forward search's
 *    limits (which only ever drop candidates): no rarity rule for the common half of a name, no
 *    cap on 3-gram neighbours, terms per part or candidate names.
 * 3. The forward score of E is `scoreEntity` over the names of E that had evidence (some query
 *    part of S reached one of the name's terms, by a route of step 2; the forward search keeps
 *    the best-evidenced of them), and E is returned only at or above the threshold. The reverse
 *    search scores E over every name of E one of whose searchable parts reaches S by those routes:
 *    a superset of the forward names. `scoreNames` is the best of the names it is given, so over
 *    a subset it is at most its value over the superset; and the combined score is
 *    non-decreasing in the name score (a weighted sum plus other evidence, clamped, with the
 *    identifier floor a maximum). So the direct score over the reached names is at least the
 *    forward one, and keeping a pair whose direct score reaches the threshold keeps every pair the
 *    forward search can return. A name score that cannot reach the threshold even with every
 *    other piece of evidence agreeing is dropped before the rest is scored, as the forward search
 *    drops it; a subject holding one of E's identifiers is scored over all of E's names, as the
 *    forward search scores an identifier holder. (The index scores with facts rebuilt from its
 *    compact arrays, birth dates packed and unpacked; those are E's own values, which is what the
 *    direct score reads.)
 *
 * So the candidates are exact for the direct score, a superset of the forward matches: a subject
 * the forward search missed only because of a cap (its name buried under 100 better-evidenced
 * names) is a candidate too, which is what re-screening in full then settles.
 *
 * Cost: subjects sharing a name and kind share one name score; a part's confirmations are
 * cached per distinct entity part and fuzziness; a name group is compared only with the names of
 * E that reach it (a UN party has a dozen aliases; a common given name reaches a group through one
 * of them).
 *
 * The index is kept up to date rather than rebuilt (delta/monitoredSubjects.ts): `add` a subject,
 * `remove` one (its slot is only marked, and skipped), `add` a key again to replace its subject.
 * Name groups, parts and postings only grow; the holder rebuilds when removed slots outnumber the
 * live ones.
 */

export interface MonitoredSubject {
  key: string;
  subject: ScreeningSubject;
  checkTypes: readonly CheckType[];
}

/** Subjects with the same name and kind: their name scores against any entity are the same. */
interface NameGroup {
  prepared: PreparedSubject;
  kind: EntityKind;
  /** Indices into the subjects. */
  members: number[];
}

interface Part {
  token: NameToken;
  /** Name groups whose query parts include it. */
  groups: number[];
}

class Postings {
  readonly lists = new Map<string, number[]>();
  add(key: string, value: number): void {
    const list = this.lists.get(key);
    if (!list) this.lists.set(key, [value]);
    else if (list[list.length - 1] !== value) list.push(value);
  }
  get(key: string): readonly number[] {
    return this.lists.get(key) ?? NONE;
  }
}

const NONE: readonly number[] = [];

/** Name groups scored per step of `candidateSteps` (about half a millisecond of work). */
const GROUPS_PER_STEP = 64;

export class MonitoredSubjectIndex {
  private readonly subjects: MonitoredSubject[] = [];
  /** Slots removed or replaced: skipped by every search. */
  private readonly removed = new Set<number>();
  /** Key -> its live slot. */
  private readonly slots = new Map<string, number>();
  private readonly groupIds = new Map<string, number>();
  private readonly partIds = new Map<string, number>();
  private readonly groups: NameGroup[] = [];
  private readonly parts: Part[] = [];
  // Routes from an entity's term to the subjects' parts (part ids).
  private readonly byText = new Postings();
  private readonly byKey = new Postings();
  private readonly byPhonetic = new Postings();
  private readonly bySkeleton = new Postings();
  /** Per 3-gram, the parts holding it, once per occurrence in the part (the forward overlap counts them so). */
  private readonly byTrigram = new Postings();
  private readonly gramCount: number[] = [];
  // Routes from an entity's term straight to name groups: glued neighbouring parts, halves of a split.
  private readonly byJoined = new Postings();
  private readonly byHalf = new Postings();
  /** The same two routes across an abjad transliteration, keyed as TermDictionary.skeletonTerms looks up. */
  private readonly byGluedSkeleton = new Postings();
  /** Normalised identifier value -> subjects. */
  private readonly byIdentifier = new Postings();
  /**
   * Per entity part (and fuzziness), the subjects' parts it reaches. Emptied whenever a part is
   * added: a cached answer lists only the parts there were, and the index outlives many searches.
   */
  private readonly confirmed = new Map<string, readonly number[]>();
  private readonly comparison: TokenComparison = { score: 0, kind: 'exact' };

  private constructor() {}

  static build(subjects: Iterable<MonitoredSubject>): MonitoredSubjectIndex {
    const index = new MonitoredSubjectIndex();
    for (const subject of subjects) index.add(subject);
    return index;
  }

  /** Subjects searched. */
  get size(): number {
    return this.slots.size;
  }

  /** Slots of removed or replaced subjects, still held. */
  get removedSize(): number {
    return this.removed.size;
  }

  /** Adds a subject under its key, replacing the subject the key had. */
  add(subject: MonitoredSubject): void {
    this.remove(subject.key);
    const id = this.subjects.length;
    this.subjects.push(subject);
    this.slots.set(subject.key, id);
    const groupKey = `${subject.subject.kind}\u0000${subject.subject.name}`;
    let group = this.groupIds.get(groupKey);
    if (group === undefined) {
      group = this.groups.length;
      this.groupIds.set(groupKey, group);
      this.groups.push({
        prepared: new PreparedSubject(subject.subject),
        kind: subject.subject.kind,
        members: [],
      });
      this.addGroupParts(group);
    }
    this.groups[group]!.members.push(id);
    for (const identifier of subject.subject.identifiers) {
      const schemes = identifier.scheme === 'other' ? ['other', ...DIGIT_SCHEMES] : [identifier.scheme];
      for (const scheme of schemes) {
        const value = normaliseIdentifierValue(identifier.value, scheme);
        if (value.length > 0) this.byIdentifier.add(value, id);
      }
    }
  }

  /** Stops finding the subject of `key` (nothing when it is not held). */
  remove(key: string): void {
    const id = this.slots.get(key);
    if (id === undefined) return;
    this.slots.delete(key);
    this.removed.add(id);
  }

  /** The query parts of a group's name, as ScreeningIndex.queryParts reads them, under every route. */
  private addGroupParts(group: number): void {
    const partIds = this.partIds;
    const parts = queryParts(this.groups[group]!.prepared);
    for (const token of parts) {
      const identity = comparisonIdentity(token);
      let part = partIds.get(identity);
      if (part === undefined) {
        part = this.parts.length;
        partIds.set(identity, part);
        this.confirmed.clear();
        this.parts.push({ token, groups: [] });
        this.byText.add(token.text, part);
        this.byKey.add(token.key, part);
        if (token.role !== 'number') {
          for (const code of token.phonetic) this.byPhonetic.add(code, part);
          // Under the keys the forward search looks a part up with; a term is listed under the other side's.
          for (const reading of skeletonReadings(token))
            this.bySkeleton.add(`${token.abjad ? 'l' : 'a'}${reading}`, part);
          // The Korean route, likewise: a Hangul part looks up Latin terms, and the other way round.
          if (token.korean !== '') this.bySkeleton.add(`k${otherKoreanOrigin(token.korean)}`, part);
          // The reading routes, likewise: a Latin part looks up the parts of reading names (kanji,
          // Korean in Cyrillic) by its spelling, and such a part Latin terms by its readings.
          if (token.readings.length === 0) this.bySkeleton.add(`j${shortVowels(token.text)}`, part);
          for (const reading of token.readings) this.bySkeleton.add(`J${reading}`, part);
          // The sound route (englishSound), likewise.
          if (token.readings.length === 0) {
            const spelling = shortVowels(token.text);
            const sound = englishSound(spelling);
            if (sound !== spelling) this.bySkeleton.add(`j${sound}`, part);
          }
          if (token.readingKind === 'approximate')
            for (const reading of token.readings) this.bySkeleton.add(`E${reading}`, part);
          // The transcription route (latinSoundReadings), likewise.
          if (token.readingKind === 'sound')
            for (const reading of token.readings) this.bySkeleton.add(`C${reading}`, part);
          else if (token.readings.length === 0)
            for (const reading of latinSoundReadings(token.text)) this.bySkeleton.add(`T${reading}`, part);
          const grams = trigramsOf(token.text);
          this.gramCount[part] = grams.length;
          if (token.text.length >= 4) {
            for (const gram of grams) {
              const list = this.byTrigram.lists.get(gram);
              if (list) list.push(part);
              else this.byTrigram.lists.set(gram, [part]);
            }
          }
        }
      }
      const groups = this.parts[part]!.groups;
      if (groups[groups.length - 1] !== group) groups.push(group);
    }
    for (let i = 0; i + 1 < parts.length; i++) this.byJoined.add(parts[i]!.text + parts[i + 1]!.text, group);
    for (let i = 0; i + 1 < parts.length; i++) {
      const [left, right] = [parts[i]!, parts[i + 1]!];
      if (left.abjad === right.abjad) {
        this.byGluedSkeleton.add(`${left.abjad ? 'l' : 'a'}${left.skeleton}${right.skeleton}`, group);
      }
    }
    for (const { role, text, skeleton, abjad } of parts) {
      if (role !== 'word') continue;
      if (text.length >= 6) {
        for (let i = 3; i <= text.length - 3; i++) {
          this.byHalf.add(text.slice(0, i), group);
          this.byHalf.add(text.slice(i), group);
        }
      }
      // The forward search splits abjad parts only.
      if (!abjad) continue;
      for (let i = MIN_SKELETON_HALF; i <= skeleton.length - MIN_SKELETON_HALF; i++) {
        this.byGluedSkeleton.add(`l${skeleton.slice(0, i)}`, group);
        this.byGluedSkeleton.add(`l${skeleton.slice(i)}`, group);
      }
    }
  }

  /** The keys of the subjects `entity` can match under `profile` (see THE GUARANTEE), in build order. */
  candidatesFor(entity: ListedEntity, profile: ScreeningProfile): string[] {
    const steps = this.candidateSteps(entity, profile);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `candidatesFor` in steps of at most GROUPS_PER_STEP name groups scored, for a caller that must
   * not hold its event loop for long: one party with dozens of aliases, some of them common names,
   * reaches thousands of groups (a third of a second for the slowest UN party of 2026-02 against
   * 100,000 subjects). The index must not change until the generator is done.
   */
  *candidateSteps(entity: ListedEntity, profile: ScreeningProfile): Generator<void, string[], void> {
    if (profile.datasets && !entity.datasets.some((dataset) => profile.datasets!.includes(dataset)))
      return [];
    const entityTypes = checkTypesOfEntity(entity.topics);
    if (entityTypes.length === 0) return [];
    const names = prepareNames(entity.names, entity.kind);
    const candidate = {
      kind: entity.kind,
      birthDates: entity.birthDates,
      countries: entity.countries,
      identifiers: entity.identifiers,
      names,
    };
    const allowed = (subject: MonitoredSubject) =>
      subject.checkTypes.some((type) => entityTypes.includes(type)) &&
      kindsCompatible(subject.subject.kind, entity.kind);

    const keep = new Set<number>();
    const consider = (subjectId: number, nameMatch: NameMatch) => {
      if (keep.has(subjectId) || this.removed.has(subjectId)) return;
      const subject = this.subjects[subjectId]!;
      if (!allowed(subject)) return;
      const score = scoreEntity(
        new PreparedSubject(subject.subject),
        candidate,
        profile.fuzziness,
        nameMatch,
      );
      if (score.score >= profile.threshold && score.score > 0) keep.add(subjectId);
    };

    let scored = 0;
    for (const [group, reachedBy] of this.groupsReached(names, profile.fuzziness)) {
      if (++scored % GROUPS_PER_STEP === 0) yield;
      const { prepared, kind, members } = this.groups[group]!;
      if (!kindsCompatible(kind, entity.kind)) continue;
      if (members.every((subjectId) => this.removed.has(subjectId))) continue;
      const evidenced = reachedBy.length === names.length ? names : reachedBy.map((i) => names[i]!);
      const nameMatch = scoreNames(prepared, entity.kind, evidenced, profile.fuzziness);
      if (nameOnlyScore(nameMatch.nameScore) + MAX_EVIDENCE_GAIN < profile.threshold) continue;
      const matched = { ...nameMatch, nameIndex: reachedBy[nameMatch.nameIndex] ?? 0 };
      for (const subjectId of members) consider(subjectId, matched);
    }
    for (const identifier of entity.identifiers) {
      const value = normaliseIdentifierValue(identifier.value, identifier.scheme);
      if (value.length < 4) continue;
      for (const subjectId of this.byIdentifier.get(value)) {
        if (this.removed.has(subjectId)) continue;
        const subject = this.subjects[subjectId]!;
        const prepared = new PreparedSubject(subject.subject);
        consider(subjectId, scoreNames(prepared, entity.kind, names, profile.fuzziness));
      }
    }
    return [...keep].sort((a, b) => a - b).map((id) => this.subjects[id]!.key);
  }

  /**
   * The name groups any searchable part of any of the names reaches, each with the names (indices,
   * ascending) that reach it: the names the forward search can find evidence for.
   */
  private groupsReached(names: readonly PreparedName[], fuzziness: Fuzziness): Map<number, number[]> {
    const reached = new Map<number, number[]>();
    const byIdentity = new Map<string, readonly number[]>();
    for (let nameIndex = 0; nameIndex < names.length; nameIndex++) {
      const reach = (group: number) => {
        const list = reached.get(group);
        if (list === undefined) reached.set(group, [nameIndex]);
        else if (list[list.length - 1] !== nameIndex) list.push(nameIndex);
      };
      const name = names[nameIndex]!;
      for (const token of name.tokens) {
        if (!isSearchablePart(token)) continue;
        const identity = comparisonIdentity(token);
        let groups = byIdentity.get(identity);
        if (groups === undefined) {
          groups = this.groupsOfTerm(token, identity, fuzziness);
          byIdentity.set(identity, groups);
        }
        for (const group of groups) reach(group);
      }
      if (spellsAcronyms(name.nameClass)) for (const group of this.groupsOfAcronyms(name)) reach(group);
    }
    return reached;
  }

  /**
   * The name groups of organisations (or of unknown kind) with a part that may be an acronym (of
   * SEARCHED_ACRONYM_MIN letters or more, written as one) a run of the name's words spells: the
   * forward search looks such a part up among the acronyms of the indexed names (acronyms.ts).
   */
  private groupsOfAcronyms(name: PreparedName): number[] {
    const groups: number[] = [];
    for (const acronym of acronymsSpelledBy(name.tokens)) {
      for (const part of this.byText.get(acronym)) {
        if (!mayBeAcronym(this.parts[part]!.token, SEARCHED_ACRONYM_MIN)) continue;
        for (const group of this.parts[part]!.groups) {
          const { kind, prepared } = this.groups[group]!;
          if (spellsAcronyms(nameClassOf(kind)) && writtenAsAcronym(prepared.subject.name, acronym))
            groups.push(group);
        }
      }
    }
    return groups;
  }

  /** The name groups one term of a listed name reaches, by every route. */
  private groupsOfTerm(token: NameToken, identity: string, fuzziness: Fuzziness): number[] {
    const groups = new Set<number>();
    for (const part of this.partsMatching(token, identity, fuzziness)) {
      for (const group of this.parts[part]!.groups) groups.add(group);
    }
    for (const group of this.byJoined.get(token.text)) groups.add(group);
    for (const group of this.byHalf.get(token.text)) groups.add(group);
    // The forward lookup finds a term listed under any of its readings (TermDictionary).
    for (const reading of skeletonReadings(token)) {
      for (const group of this.byGluedSkeleton.get(`${token.abjad ? 'a' : 'l'}${reading}`)) groups.add(group);
    }
    return [...groups];
  }

  /**
   * The subjects' parts whose forward lookup reaches the entity's term `term`: the routes of
   * TermDictionary.find, reversed, and the same confirmation (the exact text needs none).
   */
  private partsMatching(term: NameToken, identity: string, fuzziness: Fuzziness): readonly number[] {
    const cacheKey = `${fuzziness.budgetFactor}|${fuzziness.phonetic ? 1 : 0}|${identity}`;
    const cached = this.confirmed.get(cacheKey);
    if (cached) return cached;
    const found = new Set<number>(this.byText.get(term.text));
    const proposed = new Set<number>();
    // Key route: the part's key is the term's text, or (for a term whose key is not its text) its key.
    for (const part of this.byKey.get(term.text)) proposed.add(part);
    for (const part of this.byKey.get(term.key)) proposed.add(part);
    // The other routes start from word parts only (TermDictionary.find returns before them for a
    // number), which is how the parts are listed under them; they reach terms of any role, but
    // the 3-gram lists hold no number terms.
    if (fuzziness.phonetic) {
      for (const code of term.phonetic) for (const part of this.byPhonetic.get(code)) proposed.add(part);
    }
    for (const reading of skeletonReadings(term)) {
      for (const part of this.bySkeleton.get(`${term.abjad ? 'a' : 'l'}${reading}`)) proposed.add(part);
    }
    if (term.korean !== '') for (const part of this.bySkeleton.get(`k${term.korean}`)) proposed.add(part);
    for (const reading of term.readings)
      for (const part of this.bySkeleton.get(`j${reading}`)) proposed.add(part);
    for (const part of this.bySkeleton.get(`J${term.text}`)) proposed.add(part);
    if (term.readings.length === 0) {
      const sound = englishSound(shortVowels(term.text));
      if (sound !== term.text) for (const part of this.bySkeleton.get(`E${sound}`)) proposed.add(part);
      for (const reading of latinSoundReadings(term.text))
        for (const part of this.bySkeleton.get(`C${reading}`)) proposed.add(part);
    } else if (term.readingKind === 'sound') {
      for (const reading of term.readings)
        for (const part of this.bySkeleton.get(`T${reading}`)) proposed.add(part);
    }
    if (term.role !== 'number') for (const part of this.trigramNeighbours(term.text)) proposed.add(part);
    for (const part of proposed) {
      if (found.has(part)) continue;
      compareTokens(this.parts[part]!.token, term, fuzziness, this.comparison);
      if (this.comparison.score >= NAME_RULES.minimumPairScore) found.add(part);
    }
    const parts = [...found];
    this.confirmed.set(cacheKey, parts);
    return parts;
  }

  /**
   * Parts that would list `text` among their 3-gram neighbours: the part is at least 4 letters, the
   * two lengths differ by at most 3, and the part's 3-grams (each occurrence) found in `text` number
   * at least max(2, a third of the part's).
   */
  private trigramNeighbours(text: string): number[] {
    const overlap = new Map<number, number>();
    for (const gram of new Set(trigramsOf(text))) {
      for (const part of this.byTrigram.get(gram)) overlap.set(part, (overlap.get(part) ?? 0) + 1);
    }
    const parts: number[] = [];
    for (const [part, shared] of overlap) {
      const partText = this.parts[part]!.token.text;
      if (Math.abs(partText.length - text.length) > 3) continue;
      if (shared >= Math.max(2, Math.ceil(this.gramCount[part]! / 3))) parts.push(part);
    }
    return parts;
  }
}
