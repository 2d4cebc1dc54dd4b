import countries from 'i18n-iso-countries/index.js';
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

/**
 * Country names as sanctions publishers write them -> ISO 3166-1 alpha-2, upper case.
 *
 * The English names of i18n-iso-countries (every spelling it knows) come first; publishers use
 * names it does not know, so a small override table below covers those seen in the OFAC, UN and
 * Canadian lists. Names are compared after folding: lower case, no diacritics, `&` as "and",
 * punctuation as space, and "Korea, North" read as "North Korea".
 */

/**
 * Names i18n-iso-countries does not know (or knows for another country), keyed by folded name.
 * Regions map to the country they belong to (Crimea -> UA, Gaza/West Bank -> PS); Kosovo uses the
 * user-assigned XK that every sanctions data set uses. Countries that no longer exist (Soviet
 * Union, Yugoslavia, Serbia and Montenegro, Netherlands Antilles) are left out on purpose: no
 * current code is right for them.
 */
const OVERRIDES: Record<string, string> = {
  // UN style
  'democratic people s republic of korea': 'KP',
  'iran islamic republic of': 'IR',
  'syrian arab republic': 'SY',
  'russian federation': 'RU',
  'viet nam': 'VN',
  'united kingdom of great britain and northern ireland': 'GB',
  'united republic of tanzania': 'TZ',
  'bolivia plurinational state of': 'BO',
  'venezuela bolivarian republic of': 'VE',
  'republic of moldova': 'MD',
  'lao people s democratic republic': 'LA',
  'china hong kong special administrative region': 'HK',
  'china macao special administrative region': 'MO',
  'british virgin islands': 'VG',
  'state of palestine': 'PS',
  // "Congo" alone is the Republic of the Congo in ISO and UN usage; the library lists it under CD too.
  congo: 'CG',
  // OFAC style
  syria: 'SY',
  'u k': 'GB',
  'palestinian authority': 'PS',
  'korea north': 'KP',
  'north korea': 'KP',
  'korea south': 'KR',
  'congo democratic republic of the': 'CD',
  'congo republic of the': 'CG',
  burma: 'MM',
  'myanmar burma': 'MM',
  moldova: 'MD',
  laos: 'LA',
  macau: 'MO',
  macedonia: 'MK',
  'macedonia the former yugoslav republic of': 'MK',
  'bahamas the': 'BS',
  'gambia the': 'GM',
  'cote d ivoire': 'CI',
  'cabo verde': 'CV',
  swaziland: 'SZ',
  brunei: 'BN',
  curacao: 'CW',
  'east timor': 'TL',
  'holy see': 'VA',
  'vatican city': 'VA',
  palestinian: 'PS',
  palestine: 'PS',
  'west bank': 'PS',
  gaza: 'PS',
  'gaza strip': 'PS',
  'region gaza': 'PS',
  'region west bank': 'PS',
  'region crimea': 'UA',
  crimea: 'UA',
  kosovo: 'XK',
  'saint martin': 'MF',
  'sint maarten': 'SX',
  'st kitts and nevis': 'KN',
  'st lucia': 'LC',
  'st vincent and the grenadines': 'VC',
  'turks and caicos': 'TC',
  'micronesia federated states of': 'FM',
  'czech republic': 'CZ',
  turkiye: 'TR',
  'united states of america': 'US',
  // Other publishers' spellings (BIS, EBRD, World Bank)
  prc: 'CN',
  'peoples republic of china': 'CN',
  'people s republic of china': 'CN',
  'bolivarian republic of venezuela': 'VE',
  'kyrgyz republic': 'KG',
  usa: 'US',
  uk: 'GB',
  'democratic republic of congo': 'CD',
  'lao peoples democratic republic': 'LA',
};

function fold(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const BY_NAME: ReadonlyMap<string, string> = buildIndex();

function buildIndex(): Map<string, string> {
  const index = new Map<string, string>();
  for (const [code, spellings] of Object.entries(english.countries as Record<string, string | string[]>)) {
    for (const spelling of Array.isArray(spellings) ? spellings : [spellings]) {
      const key = fold(spelling);
      // The first country listing a spelling keeps it ("Congo" is under both CD and CG).
      if (!index.has(key)) index.set(key, code);
    }
  }
  for (const [name, code] of Object.entries(OVERRIDES)) index.set(fold(name), code);
  return index;
}

/**
 * ISO 3166-1 alpha-2 (upper case) for a country name or code as publishers write it, or
 * `undefined` when it names no current country. Accepts alpha-2 and alpha-3 codes, English
 * names and their variants, "Name, Qualifier" inversions, and bilingual "English / French"
 * labels (Canada) by trying each side.
 */
export function countryCode(text: string | undefined | null): string | undefined {
  if (!text) return undefined;
  const trimmed = text.replace(/\s+/g, ' ').trim();
  if (trimmed === '') return undefined;
  // Codes only in capitals: lower-case "na" is UN's "not available", not Namibia.
  if (/^[A-Z]{2}$/.test(trimmed) && countries.isValid(trimmed)) return trimmed;
  if (/^[A-Z]{3}$/.test(trimmed)) {
    const fromAlpha3 = countries.alpha3ToAlpha2(trimmed);
    if (fromAlpha3) return fromAlpha3;
  }
  for (const side of trimmed.split(' / ')) {
    const found = BY_NAME.get(fold(side)) ?? invertedLookup(side);
    if (found) return found;
  }
  for (const side of trimmed.split(' / ')) {
    const bare = withoutStyle(side);
    const found = bare && (BY_NAME.get(fold(bare)) ?? invertedLookup(bare));
    if (found) return found;
  }
  return undefined;
}

/**
 * The name without a formal style in front or a qualifier in parentheses behind, tried only when
 * the full name is unknown: "Kingdom of Saudi Arabia", "State of Kuwait", "Republic of
 * Azerbaijan", "Iraq (Islamic Republic of)". `undefined` when there is nothing to take off.
 */
function withoutStyle(side: string): string | undefined {
  const bare = side
    .replace(
      /^(?:the\s+)?(?:kingdom|state|republic|sultanate|principality|commonwealth)\s+of\s+(?:the\s+)?/i,
      '',
    )
    .replace(/\s*\([^()]*\)$/, '')
    .trim();
  return bare && bare !== side ? bare : undefined;
}

/** "Korea, North" -> "North Korea"; "Virgin Islands, British" -> "British Virgin Islands". */
function invertedLookup(side: string): string | undefined {
  const comma = side.indexOf(',');
  if (comma < 0) return undefined;
  const inverted = `${side.slice(comma + 1)} ${side.slice(0, comma)}`;
  return BY_NAME.get(fold(inverted));
}

/** Every distinct code among `texts`, in first-seen order; names that resolve to nothing are dropped. */
export function countryCodes(texts: Iterable<string | undefined | null>): string[] {
  const codes = new Set<string>();
  for (const text of texts) {
    const code = countryCode(text);
    if (code) codes.add(code);
  }
  return [...codes];
}
