import type { EntityIdentifier, EntityKind, PartialDateRange } from '../model/listedEntity.js';
import { countryCode } from './countries.js';
import { parseDateRanges } from './dates.js';
import { cleanText } from './names.js';

/**
 * What OFAC's two formats share: the identifier labels (the legacy CSV writes them into the
 * remarks, the XML as `idType`), the remarks grammar, program tags and entry types. The source
 * URL is the publisher's landing page, for attribution; download locations are configuration.
 */

export const OFAC_SOURCE_URL = 'https://ofac.treasury.gov/sanctions-list-service';

/**
 * OFAC identifier labels -> identifier scheme. Labels not listed here are not identifiers we
 * match on (websites, e-mail and crypto addresses, directive dates); they stay in the notes.
 * Any value written "IMO 1234567" becomes scheme `imo` whatever its label (OFAC labels vessel
 * IMO numbers "Vessel Registration Identification" and company IMO numbers "Company Number").
 */
const ID_SCHEMES: Record<string, string> = {
  Passport: 'passport',
  'Diplomatic Passport': 'passport',
  'Stateless Person Passport': 'passport',
  'National ID No.': 'national_id',
  'Identification Number': 'national_id',
  'Personal ID Card': 'national_id',
  'Cedula No.': 'national_id',
  'D.N.I.': 'national_id',
  'C.U.R.P.': 'national_id',
  'C.U.R.P. #': 'national_id',
  'Kenyan ID No.': 'national_id',
  'Turkish Identificiation Number': 'national_id',
  'Numero de Identidad': 'national_id',
  'Refugee ID Card': 'national_id',
  'Stateless Person ID Card': 'national_id',
  'Residency Number': 'national_id',
  'Personal Numerical Code': 'national_id',
  SSN: 'national_id',
  'Tax ID No.': 'tax_id',
  'R.F.C.': 'tax_id',
  RFC: 'tax_id',
  'V.A.T. Number': 'tax_id',
  'NIT #': 'tax_id',
  'RUC #': 'tax_id',
  'C.U.I.T.': 'tax_id',
  RTN: 'tax_id',
  'Italian Fiscal Code': 'tax_id',
  'Fiscal Code': 'tax_id',
  'US FEIN': 'tax_id',
  'Tax Registration Number': 'tax_id',
  'Numero Unico de Identificacao Tributaria (NUIT)': 'tax_id',
  'Registration Number': 'registration',
  'Registration ID': 'registration',
  'Company Number': 'registration',
  'UK Company Number': 'registration',
  'Business Registration Number': 'registration',
  'Business Registration Document #': 'registration',
  'Public Registration Number': 'registration',
  'Commercial Registry Number': 'registration',
  'Chamber of Commerce Number': 'registration',
  'Certificate of Incorporation Number': 'registration',
  'Unified Social Credit Code (USCC)': 'registration',
  'United Social Credit Code Certificate (USCCC)': 'registration',
  'Enterprise Number': 'registration',
  'Matricula Mercantil No': 'registration',
  'Folio Mercantil No.': 'registration',
  'C.R. No.': 'registration',
  'Trade License No.': 'registration',
  'Economic Register Number (CBLS)': 'registration',
  'Legal Entity Number': 'lei',
  'SWIFT/BIC': 'swift_bic',
  'Vessel Registration Identification': 'registration',
  MMSI: 'mmsi',
  "Aircraft Manufacturer's Serial Number (MSN)": 'aircraft_serial',
  'Aircraft Tail Number': 'aircraft_tail',
  'Previous Aircraft Tail Number': 'aircraft_tail',
  'Aircraft Construction Number (also called L/N or S/N or F/N)': 'other',
  'D-U-N-S Number': 'other',
  'BIK (RU)': 'other',
  "Driver's License No.": 'other',
  'Birth Certificate Number': 'other',
  'Electoral Registry No.': 'other',
  'Credencial electoral': 'other',
  'I.F.E.': 'other',
};

/**
 * Labels by their first word, longest first within a word, so "Diplomatic Passport" wins over
 * "Passport" and "C.U.R.P. #" over "C.U.R.P." as the start of a remark.
 */
const ID_LABELS_BY_FIRST_WORD = new Map<string, string[]>();
for (const label of Object.keys(ID_SCHEMES).sort((a, b) => b.length - a.length)) {
  const first = firstWord(label);
  ID_LABELS_BY_FIRST_WORD.set(first, [...(ID_LABELS_BY_FIRST_WORD.get(first) ?? []), label]);
}

function firstWord(text: string): string {
  const space = text.indexOf(' ');
  return space < 0 ? text : text.slice(0, space);
}

/**
 * An identifier from an OFAC label and value, or `undefined` when the label is not an
 * identifier (see ID_SCHEMES). The value may carry a country in parentheses and issue/expiry
 * words ("A123 (Russia) issued 01 Jan 2010 expires 01 Jan 2020"): the country is kept, the rest
 * dropped. A tax number (10 or 12 digits) or registration number (13 or 15 digits) issued by
 * Russia becomes `inn` / `ogrn`, the schemes FollowTheMoney data uses for them.
 */
export function ofacIdentifier(
  label: string,
  rawValue: string,
  countryText?: string,
): EntityIdentifier | undefined {
  const baseScheme = ID_SCHEMES[cleanText(label)];
  if (!baseScheme) return undefined;
  let value = cleanText(rawValue).replace(/\s+(?:issued|expires|expiring|valid)\b.*$/i, '');
  let country = countryCode(countryText);
  value = value.replace(/\s*\(([^()]*)\)/g, (_whole, inner: string) => {
    country = countryCode(inner) ?? country;
    return '';
  });
  value = value
    .replace(/^(?:#|No\.|Booklet:?)\s*/i, '')
    .replace(/^[:#\s]+/, '')
    .replace(/[.,;\s]+$/, '')
    .trim();
  if (!value) return undefined;
  const imo = /^IMO\s*(\d{7})$/i.exec(value);
  const scheme = imo ? 'imo' : refineRussian(baseScheme, value, country);
  const identifier: EntityIdentifier = { scheme, value: imo ? imo[1]! : value };
  if (country) identifier.country = country;
  return identifier;
}

function refineRussian(scheme: string, value: string, country: string | undefined): string {
  if (country !== 'RU' || !/^\d+$/.test(value)) return scheme;
  if (scheme === 'tax_id' && (value.length === 10 || value.length === 12)) return 'inn';
  if (scheme === 'registration' && (value.length === 13 || value.length === 15)) return 'ogrn';
  return scheme;
}

export interface OfacRemarkFacts {
  birthDates: PartialDateRange[];
  /** Country names as written (nationality, citizenship). */
  nationalities: string[];
  /** Other country names as written (place of birth, registration, vessel flag). */
  countries: string[];
  identifiers: EntityIdentifier[];
  gender?: string;
  /** Quoted a.k.a. / f.k.a. names: OFAC's weak aliases live only here. */
  weakAliases: string[];
  /** "Target Type" (Private Company, Government Entity, ...), a hint for the entity kind. */
  targetType?: string;
}

/**
 * The facts in a legacy-CSV remarks field: `;`-separated parts such as "DOB 10 Oct 1960",
 * "alt. DOB circa 1962", "POB Medellin, Colombia", "nationality Russia", "citizen Mexico",
 * "Gender Male", "Passport 1234 (Russia)", "Vessel Registration Identification IMO 9187629",
 * "a.k.a. 'ABU AL-FOUTOUH'". Parts it does not recognise are ignored (the whole remarks text
 * is kept as a note by the caller).
 */
export function parseOfacRemarks(remarks: string): OfacRemarkFacts {
  const facts: OfacRemarkFacts = {
    birthDates: [],
    nationalities: [],
    countries: [],
    identifiers: [],
    weakAliases: [],
  };
  for (const rawPart of remarks.split(';')) {
    const part = cleanText(rawPart)
      .replace(/^alt\.\s+/i, '')
      .replace(/\.$/, '');
    if (part) readRemarkPart(part, facts);
  }
  return facts;
}

function readRemarkPart(part: string, facts: OfacRemarkFacts): void {
  let m = /^DOB\s+(.+)$/.exec(part);
  if (m) {
    facts.birthDates.push(...parseDateRanges(m[1]!));
    return;
  }
  m = /^POB\s+(.+)$/.exec(part);
  if (m) {
    const place = m[1]!;
    facts.countries.push(cleanText(place.slice(place.lastIndexOf(',') + 1)));
    return;
  }
  m = /^(?:nationality|citizen)\s+(.+)$/.exec(part);
  if (m) {
    facts.nationalities.push(m[1]!);
    return;
  }
  m = /^(?:Nationality of Registration|Other Vessel Flag)\s+(.+)$/.exec(part);
  if (m) {
    facts.countries.push(m[1]!);
    return;
  }
  m = /^Gender\s+(\S+)$/.exec(part);
  if (m) {
    facts.gender = m[1]!;
    return;
  }
  m = /^Target Type\s+(.+)$/.exec(part);
  if (m) {
    facts.targetType = m[1]!;
    return;
  }
  m = /^[afn]\.k\.a\.\s+'?(.*)$/.exec(part);
  if (m) {
    const name = unquoteWeakAlias(m[1]!);
    if (name) facts.weakAliases.push(name);
    return;
  }
  for (const label of ID_LABELS_BY_FIRST_WORD.get(firstWord(part)) ?? []) {
    if (part.startsWith(`${label} `)) {
      const identifier = ofacIdentifier(label, part.slice(label.length + 1));
      if (identifier) facts.identifiers.push(identifier);
      return;
    }
  }
}

/**
 * The text between the quotes of "a.k.a. 'NAME'" (the opening quote already removed). Names
 * contain apostrophes ("'ABD AL-'AZIZ"), so only the last quote closes; a doubled pair
 * ("''FOOPIE''") is unwrapped once more.
 */
function unquoteWeakAlias(text: string): string {
  let name = text.trim();
  if (name.endsWith("'")) name = name.slice(0, -1);
  if (name.length > 1 && name.startsWith("'") && name.endsWith("'")) name = name.slice(1, -1);
  return cleanText(name);
}

/** "SDGT] [IRGC" (the CSV column) or a list of `<program>` texts -> program tags. */
export function ofacPrograms(texts: Iterable<string>): string[] {
  const programs: string[] = [];
  for (const text of texts) {
    for (const tag of text.split(/\]\s*\[/)) {
      const clean = cleanText(tag.replace(/[[\]]/g, ''));
      if (clean && !programs.includes(clean)) programs.push(clean);
    }
  }
  return programs;
}

/**
 * The entity kind an OFAC entry type names (`individual`, `vessel`, `aircraft`; the XML writes
 * them capitalised), or `undefined` for a non-person the caller must classify (blank, `Entity`).
 */
export function ofacTypeKind(type: string | undefined): EntityKind | undefined {
  switch (cleanText(type).toLowerCase()) {
    case 'individual':
      return 'person';
    case 'vessel':
      return 'vessel';
    case 'aircraft':
      return 'aircraft';
    default:
      return undefined;
  }
}

/** OFAC's "Target Type" says company or not for some entries; it wins over the name heuristic. */
export function targetTypeKind(targetType: string | undefined): 'company' | 'organization' | undefined {
  const type = cleanText(targetType).toLowerCase();
  if (!type) return undefined;
  if (/company|enterprise|financial institution|bank/.test(type)) return 'company';
  if (/government|organization|military|political|terrorist/.test(type)) return 'organization';
  return undefined;
}
