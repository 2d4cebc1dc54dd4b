import countries from 'i18n-iso-countries/index.js';
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

/**
 * Vocabulary of organisation and object names: connecting words, common abbreviations, number
 * words, place names and vessel prefixes.
 */

/** Connecting words in organisation names; they weigh almost nothing. */
export const ORG_STOPWORDS: ReadonlySet<string> = new Set([
  'the',
  'of',
  'and',
  'for',
  'in',
  'on',
  'at',
  'to',
  'de',
  'del',
  'la',
  'le',
  'les',
  'du',
  'des',
  'der',
  'die',
  'das',
  'und',
  'et',
  'y',
  'com',
  'net',
  'org',
]);

/** Abbreviations of generic organisation words, expanded before comparison ("Int'l", "GRP"). */
export const ORG_ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['intl', 'international'],
  ['natl', 'national'],
  ['grp', 'group'],
  ['hldg', 'holding'],
  ['hldgs', 'holdings'],
  ['mfg', 'manufacturing'],
  ['svc', 'services'],
  ['svcs', 'services'],
  ['srvcs', 'services'],
  ['srvces', 'services'],
  ['dept', 'department'],
  ['univ', 'university'],
  ['assn', 'association'],
  ['assoc', 'association'],
  ['bros', 'brothers'],
  ['mgmt', 'management'],
  ['sys', 'systems'],
  ['engg', 'engineering'],
  ['invt', 'investment'],
  ['tech', 'technology'],
  ['inds', 'industries'],
  ['trdg', 'trading'],
  ['shpg', 'shipping'],
]);

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  thirtieth: 30,
  fortieth: 40,
  fiftieth: 50,
  sixtieth: 60,
  seventieth: 70,
  eightieth: 80,
  ninetieth: 90,
};

/** "sixth" -> 6, "twentieth" -> 20. */
export function readOrdinalWord(token: string): number | undefined {
  return ORDINALS[token];
}

interface NumberWords {
  value: number;
  length: number;
}

/**
 * Reads an English number written in words at `tokens[start]` ("forty four", "three", "first",
 * "forty fourth", "one hundred and first"), or a code read out digit by digit ("two six one three
 * nine", "twenty nine one five five": three numbers or more, all but the first one digit each),
 * returning its value as digits and how many tokens it spans.
 */
export function readSpelledNumber(
  tokens: readonly string[],
  start: number,
): { digits: string; length: number } | undefined {
  const first = readNumberWords(tokens, start);
  if (first === undefined) return undefined;
  const single = { digits: String(first.value), length: first.length };
  // An ordinal ends a number: "Fifth Third" is 5 and 3.
  if (ORDINALS[tokens[start + first.length - 1]!] !== undefined) return single;
  let digits = single.digits;
  let length = first.length;
  for (;;) {
    const digit = UNITS[tokens[start + length] ?? ''];
    if (digit === undefined || digit > 9) break;
    digits += String(digit);
    length++;
  }
  return length - first.length >= 2 ? { digits: String(BigInt(digits)), length } : single;
}

/**
 * Reads an English number written in words at `tokens[start]` ("forty four", "three", "first",
 * "forty fourth", "one hundred and first"), returning its value and how many tokens it spans.
 */
function readNumberWords(tokens: readonly string[], start: number): NumberWords | undefined {
  const low = readBelowHundred(tokens, start);
  if (low === undefined || low.length !== 1 || low.value < 1 || low.value > 9) return low;
  const hundred = tokens[start + 1];
  if (hundred === 'hundredth') return { value: low.value * 100, length: 2 };
  if (hundred !== 'hundred') return low;
  const restAt = tokens[start + 2] === 'and' ? start + 3 : start + 2;
  const rest = readBelowHundred(tokens, restAt);
  if (rest === undefined) return { value: low.value * 100, length: 2 };
  return { value: low.value * 100 + rest.value, length: restAt - start + rest.length };
}

function readBelowHundred(tokens: readonly string[], start: number): NumberWords | undefined {
  const first = tokens[start];
  if (first === undefined) return undefined;
  const ordinal = ORDINALS[first];
  if (ordinal !== undefined) return { value: ordinal, length: 1 };
  const tens = TENS[first];
  if (tens !== undefined) {
    const next = tokens[start + 1];
    const unit = next === undefined ? undefined : (UNITS[next] ?? ORDINALS[next]);
    if (unit !== undefined && unit > 0 && unit < 10) return { value: tens + unit, length: 2 };
    return { value: tens, length: 1 };
  }
  const unit = UNITS[first];
  return unit === undefined ? undefined : { value: unit, length: 1 };
}

const ORDINAL_DIGITS = /^(\d+)(st|nd|rd|th)$/;

/** "1st" -> 1, "22nd" -> 22. */
export function readOrdinalDigits(token: string): number | undefined {
  const match = ORDINAL_DIGITS.exec(token);
  return match ? Number(match[1]) : undefined;
}

const ROMAN = /^(x{0,3})(ix|iv|v?i{0,3})$/;
const ROMAN_VALUES: Record<string, number> = { i: 1, v: 5, x: 10 };

/** Roman numerals up to 39 ("ii", "xiv"); empty string excluded. */
export function readRomanNumeral(token: string): number | undefined {
  if (token.length === 0 || !ROMAN.test(token)) return undefined;
  let total = 0;
  for (let i = 0; i < token.length; i++) {
    const value = ROMAN_VALUES[token[i]!]!;
    const next = i + 1 < token.length ? ROMAN_VALUES[token[i + 1]!]! : 0;
    total += value < next ? -value : value;
  }
  return total;
}

/** Prefixes of vessel names ("MV", "M/V", "MT"), dropped before comparison. */
export const OBJECT_PREFIXES: ReadonlySet<string> = new Set(['mv', 'mt', 'ms', 'ss', 'fv', 'my', 'sy', 'rv']);

/**
 * One-word country names and their short forms ("mexico", "uk"): in organisation names they mark a
 * subsidiary or branch, so a place on one side and a different place (or none) on the other
 * counts against a match more than an ordinary word.
 */
export const PLACE_NAMES: ReadonlySet<string> = buildPlaceNames();

function buildPlaceNames(): Set<string> {
  countries.registerLocale(english);
  const names = new Set<string>([
    'uk',
    'usa',
    'uae',
    'england',
    'scotland',
    'wales',
    'europe',
    'asia',
    'africa',
  ]);
  for (const spellings of Object.values(countries.getNames('en', { select: 'all' }))) {
    for (const spelling of spellings) {
      const plain = spelling
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase();
      if (/^[a-z]+$/.test(plain) && plain.length > 3) names.add(plain);
    }
  }
  return names;
}
