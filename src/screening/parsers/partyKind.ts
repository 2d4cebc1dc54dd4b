import type { EntityKind } from '../model/listedEntity.js';
import { countryCode } from './countries.js';
import { hasLegalForm } from './legalEntityKind.js';
import { cleanText } from './names.js';

/**
 * The kind of a party on a list that does not say whether it is a person at all (the BIS Denied
 * Persons List, and the Commerce and State lists in the US CSL: Entity List, Unverified List,
 * Military End User, ITAR debarred, Nonproliferation). From the names alone, in this order:
 *
 * 1. a legal form in any name ("... CO., LTD.", "NEXIANT, LLC", "OOO ...") -> `company`;
 * 2. a word organisations use and people do not ("Institute", "Airlines", "Trading",
 *    "Ministry", ...) in any name; a digit, a country name as the last word ("Huawei Cloud Argentina"), or
 *    an acronym in a mixed-case name ("Beijing Liuhe BGI") -> `organization`;
 * 3. a personal title in front ("Mr.", "Dr.") or "FAMILY, Given" with one to three words on
 *    each side -> `person`;
 * 4. two to five words of letters only (initials allowed: "BRAMWELL J. PRIDMORE-SMITH") ->
 *    `person`;
 * 5. anything else (one word, "AL-NASER AIRLINES" aside) -> `unknown`, which the matcher reads
 *    both ways.
 *
 * Step 4 is a guess that holds for these lists, where organisations nearly always carry a legal
 * form or an organisation word; where it fails, the name is still compared, only with person
 * rules (initials, family name) instead of organisation rules.
 */
export function guessPartyKind(
  names: readonly string[],
): Exclude<EntityKind, 'vessel' | 'aircraft' | 'vehicle'> {
  const primary = cleanText(names[0]);
  if (!primary) return 'unknown';
  const words = wordsOf(primary);
  const allWords = names.flatMap(wordsOf);
  if (names.some((name) => hasLegalForm(name)) || allWords.some((word) => EXTRA_LEGAL_FORMS.has(word))) {
    return 'company';
  }
  if (/\d/.test(primary) || hasOrganizationWord(names)) return 'organization';
  // "Beijing Liuhe BGI", "APEX St. Petersburg": an acronym in a name otherwise in mixed case.
  const acronym = /(?:^|\s)(\p{Lu}{3,})(?=\s|$)/u.exec(primary)?.[1];
  if (acronym && /\p{Ll}/u.test(primary) && !ROMAN_NUMERAL.test(acronym)) return 'organization';
  // "Huawei Cloud Argentina", "IKCO France": a branch named after its country.
  const last = words[words.length - 1]!;
  if (words.length > 1 && last.length > 3 && !COUNTRY_GIVEN_NAMES.has(last) && countryCode(last)) {
    return 'organization';
  }
  if (looksLikePersonByForm(primary)) return 'person';
  if (!primary.includes(',') && words.length >= 2 && words.length <= 5 && PERSON_WORDS.test(primary)) {
    return 'person';
  }
  return 'unknown';
}

/** Whether some name holds a word organisations use and people do not (see ORGANIZATION_WORDS). */
export function hasOrganizationWord(names: readonly string[]): boolean {
  return names.some((name) => wordsOf(name).some((word) => ORGANIZATION_WORDS.has(word)));
}

function wordsOf(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[\s,/&()-]+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
}

/** "Louis J. Kocurek, III": a generation, not an acronym. */
const ROMAN_NUMERAL = /^(?:II|III|IV|VI{0,3})$/;

const PERSON_TITLE = /^(?:mr|mrs|ms|miss|dr|prof|sheikh|shaikh)\.?\s+\p{L}/iu;

/**
 * Letters, spaces, hyphens, apostrophes, the dot of an initial, a quoted nickname or another
 * spelling in parentheses ("Lev Yershov (Ershov)"); nothing else.
 */
const PERSON_WORDS = /^[\p{L}\p{M}][\p{L}\p{M}'’".()\- ]*$/u;

/**
 * A personal title in front ("Mr. Frank Nnaji", "Dr. ...") or "FAMILY, Given" with one to three
 * words of letters on each side ("Zhang, Fangjun"): a person's name by its form alone. The caller
 * has ruled out legal forms and organisation words.
 */
export function looksLikePersonByForm(name: string): boolean {
  const clean = cleanText(name);
  return PERSON_TITLE.test(clean) || looksLikeFamilyCommaGiven(clean);
}

function looksLikeFamilyCommaGiven(name: string): boolean {
  const parts = name.split(',');
  if (parts.length !== 2) return false;
  return parts.every((part) => {
    const trimmed = part.trim();
    const count = trimmed.split(/\s+/).length;
    return count >= 1 && count <= 3 && PERSON_WORDS.test(trimmed);
  });
}

/** Malaysian and Estonian forms the matcher's legal-form vocabulary does not list ("Eco Biochem Sdn Bhd"). */
const EXTRA_LEGAL_FORMS: ReadonlySet<string> = new Set(['bhd', 'sdn', 'ou']);

/** Country names that are also given or family names: "Michael Jordan" is a person. */
const COUNTRY_GIVEN_NAMES: ReadonlySet<string> = new Set(['chad', 'georgia', 'india', 'israel', 'jordan']);

/**
 * Words that name what organisations are or do. Lower case; matched as whole words of the
 * primary name. Kept to words that are not also common family names (no "Bank", "Mason", "Smith").
 */
const ORGANIZATION_WORDS: ReadonlySet<string> = new Set([
  'academy',
  'aero',
  'aerospace',
  'agency',
  'agro',
  'air',
  'aircraft',
  'airlines',
  'airport',
  'airways',
  'alloy',
  'analog',
  'army',
  'associates',
  'association',
  'authority',
  'automation',
  'aviation',
  'bank',
  'bureau',
  'catering',
  'center',
  'centre',
  'chemical',
  'chemicals',
  'cloud',
  'club',
  'college',
  'commercio',
  'commission',
  'committee',
  'communications',
  'computer',
  'computers',
  'construction',
  'consulting',
  'contracting',
  'council',
  'defence',
  'defense',
  'department',
  'design',
  'development',
  'digital',
  'directorate',
  'distribution',
  'electronic',
  'electronics',
  'energy',
  'engineering',
  'enterprise',
  'enterprises',
  'equipment',
  'establishment',
  'export',
  'exporters',
  'exports',
  'factory',
  'federal',
  'finance',
  'financial',
  'food',
  'foods',
  'force',
  'forces',
  'foundation',
  'front',
  'gas',
  'global',
  'government',
  'group',
  'guard',
  'hezbollah',
  'hizballah',
  'holding',
  'holdings',
  'hospital',
  'hub',
  'import',
  'importers',
  'imports',
  'industrial',
  'industries',
  'industry',
  'institute',
  'institution',
  'instruments',
  'international',
  'investment',
  'investments',
  'kiosk',
  'lab',
  'laboratories',
  'laboratory',
  'labs',
  'logistics',
  'machinery',
  'manufacturing',
  'marine',
  'marketing',
  'media',
  'medical',
  'metals',
  'microelectronics',
  'microsystems',
  'mining',
  'ministry',
  'motor',
  'motors',
  'network',
  'office',
  'oil',
  'optics',
  'organisation',
  'organization',
  'party',
  'petroleum',
  'pharma',
  'pharmaceutical',
  'pharmaceuticals',
  'photonics',
  'plant',
  'port',
  'ports',
  'power',
  'production',
  'productions',
  'products',
  'railway',
  'railways',
  'research',
  'resources',
  'school',
  'science',
  'sciences',
  'scientific',
  'security',
  'service',
  'services',
  'shipbuilding',
  'shipping',
  'shipyard',
  'software',
  'solutions',
  'steel',
  'studio',
  'supplies',
  'supply',
  'system',
  'systems',
  'tech',
  'technical',
  'technik',
  'technologies',
  'technology',
  'telecom',
  'textile',
  'textiles',
  'trade',
  'traders',
  'trading',
  'transport',
  'transportation',
  'university',
  'vertriebs',
  'works',
]);
