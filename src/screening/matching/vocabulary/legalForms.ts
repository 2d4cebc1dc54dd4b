/**
 * Legal forms of organisations. Every spelling of one form (abbreviated, dotted, spelled out,
 * transliterated from Cyrillic) maps to one canonical `form`; forms of the same kind of company
 * (private limited, joint-stock, corporation, partnership) share a `family`. Two names with the
 * same form agree fully, with the same family nearly; a legal form is low-weight evidence and can
 * never make a match on its own.
 *
 * Variants are written as they look after text normalisation: ASCII, lower case, dotted letters
 * joined ("S.A.R.L." -> "sarl"), apostrophes dropped, other punctuation a space.
 */
export interface LegalForm {
  form: string;
  family: 'private_limited' | 'joint_stock' | 'corporation' | 'partnership' | 'other';
  variants: string[];
  /** Variants that are also common words or particles: recognised only as the last token. */
  endOnly?: string[];
}

export const LEGAL_FORMS: readonly LegalForm[] = [
  {
    form: 'llc',
    family: 'private_limited',
    variants: ['llc', 'limited liability company', 'ltd liability co'],
  },
  {
    form: 'ooo',
    family: 'private_limited',
    variants: [
      'ooo',
      'obshchestvo s ogranichennoy otvetstvennostyu',
      'obshchestvo s ogranichennoi otvetstvennostiu',
      'obshestvo s ogranichennoy otvetstvennostyu',
    ],
  },
  { form: 'tov', family: 'private_limited', variants: ['tov', 'tovarystvo z obmezhenoyu vidpovidalnistyu'] },
  {
    form: 'gmbh',
    family: 'private_limited',
    variants: ['gmbh', 'gesmbh', 'gesellschaft mit beschrankter haftung'],
  },
  {
    form: 'srl',
    family: 'private_limited',
    variants: [
      'srl',
      'societatea cu raspundere limitata',
      'societa a responsabilita limitata',
      'sociedad de responsabilidad limitada',
    ],
  },
  { form: 'sarl', family: 'private_limited', variants: ['sarl', 'societe a responsabilite limitee'] },
  {
    form: 'spzoo',
    family: 'private_limited',
    variants: ['sp z oo', 'spzoo', 'spolka z ograniczona odpowiedzialnoscia'],
  },
  { form: 'sro', family: 'private_limited', variants: ['sro', 'spol sro'] },
  { form: 'doo', family: 'private_limited', variants: ['doo'] },
  { form: 'kft', family: 'private_limited', variants: ['kft'] },
  { form: 'ltda', family: 'private_limited', variants: ['ltda'] },
  { form: 'bv', family: 'private_limited', variants: ['bv', 'besloten vennootschap'] },
  { form: 'oy', family: 'private_limited', variants: ['oy'] },
  {
    form: 'ltd',
    family: 'private_limited',
    variants: [
      'ltd',
      'limited',
      'co ltd',
      'company limited',
      'pte ltd',
      'pty ltd',
      'proprietary limited',
      'pte limited',
      'pty limited',
      'pvt ltd',
      'private limited',
    ],
  },
  {
    form: 'jsc',
    family: 'joint_stock',
    variants: [
      'jsc',
      'ao',
      'joint stock company',
      'joint stock co',
      'aktsionernoe obshchestvo',
      'aktsionerne tovarystvo',
    ],
  },
  {
    form: 'ojsc',
    family: 'joint_stock',
    variants: ['ojsc', 'oao', 'open joint stock company', 'otkrytoe aktsionernoe obshchestvo'],
  },
  {
    form: 'cjsc',
    family: 'joint_stock',
    variants: ['cjsc', 'zao', 'closed joint stock company', 'zakrytoe aktsionernoe obshchestvo'],
  },
  {
    form: 'pjsc',
    family: 'joint_stock',
    variants: ['pjsc', 'pao', 'public joint stock company', 'publichnoe aktsionernoe obshchestvo'],
  },
  { form: 'ag', family: 'joint_stock', variants: ['ag', 'aktiengesellschaft'] },
  {
    form: 'sa',
    family: 'joint_stock',
    variants: ['sa', 'sociedad anonima', 'societe anonyme', 'sociedade anonima'],
  },
  { form: 'sa_de_cv', family: 'joint_stock', variants: ['sa de cv'] },
  { form: 'nv', family: 'joint_stock', variants: ['nv', 'naamloze vennootschap'] },
  { form: 'spa', family: 'joint_stock', variants: ['spa', 'societa per azioni'] },
  { form: 'ab', family: 'joint_stock', variants: ['ab', 'aktiebolag', 'ab publ'] },
  {
    form: 'as',
    family: 'joint_stock',
    variants: ['a s', 'asa', 'aktieselskab', 'aksjeselskap'],
    endOnly: ['as'],
  },
  { form: 'plc', family: 'joint_stock', variants: ['plc', 'public limited company'] },
  { form: 'oyj', family: 'joint_stock', variants: ['oyj'] },
  { form: 'kk', family: 'joint_stock', variants: ['kk', 'kabushiki kaisha'] },
  { form: 'sas', family: 'joint_stock', variants: ['sas', 'societe par actions simplifiee'] },
  { form: 'inc', family: 'corporation', variants: ['inc', 'incorporated'] },
  { form: 'corp', family: 'corporation', variants: ['corp', 'corporation'] },
  { form: 'co', family: 'corporation', variants: ['co', 'company', 'comp', 'cos'] },
  { form: 'na', family: 'corporation', variants: ['national association'], endOnly: ['na'] },
  { form: 'lp', family: 'partnership', variants: ['lp', 'limited partnership'] },
  { form: 'llp', family: 'partnership', variants: ['llp', 'limited liability partnership'] },
  {
    form: 'kg',
    family: 'partnership',
    variants: ['kg', 'kommanditgesellschaft', 'gmbh and co kg', 'gmbh co kg'],
  },
  { form: 'fze', family: 'other', variants: ['fze', 'fzco', 'fzc', 'fzllc', 'fz llc'] },
];

export interface LegalFormMatch {
  form: string;
  family: LegalForm['family'];
  /** Number of tokens the form spans. */
  length: number;
}

interface Entry {
  form: string;
  family: LegalForm['family'];
  tokens: string[];
  endOnly: boolean;
}

const BY_FIRST_TOKEN = new Map<string, Entry[]>();
/** Long one-word forms, recognised with one typo ("Aktiengeselschaft"). */
const LONG_SINGLE: Entry[] = [];

for (const legalForm of LEGAL_FORMS) {
  const add = (variant: string, endOnly: boolean) => {
    const entry: Entry = {
      form: legalForm.form,
      family: legalForm.family,
      tokens: variant.split(' '),
      endOnly,
    };
    const first = entry.tokens[0]!;
    const list = BY_FIRST_TOKEN.get(first) ?? [];
    list.push(entry);
    BY_FIRST_TOKEN.set(first, list);
    if (entry.tokens.length === 1 && first.length >= 9) LONG_SINGLE.push(entry);
  };
  for (const variant of legalForm.variants) add(variant, false);
  for (const variant of legalForm.endOnly ?? []) add(variant, true);
}
for (const list of BY_FIRST_TOKEN.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);

/**
 * Per canonical form, the letters its written variants start with ("ltd": l for Limited, c for
 * Company Limited, p for Private Limited): the initial a legal form may lend to an acronym.
 */
const INITIALS = new Map<string, string>();
for (const legalForm of LEGAL_FORMS) {
  const variants = [...legalForm.variants, ...(legalForm.endOnly ?? [])];
  const initials = new Set([legalForm.form[0]!, ...variants.map((variant) => variant[0]!)]);
  INITIALS.set(legalForm.form, [...initials].join(''));
}

/** The letters a word writing the legal form `form` can start with; '' for no known form. */
export function legalFormInitials(form: string): string {
  return INITIALS.get(form) ?? '';
}

/**
 * The longest legal form starting at `tokens[start]`, if any. `singleTokenOnly` restricts to
 * one-word forms (used for person names, where "sa" or "ao" are more likely name parts).
 */
export function matchLegalForm(
  tokens: readonly string[],
  start: number,
  singleTokenOnly = false,
): LegalFormMatch | undefined {
  const first = tokens[start]!;
  const candidates = BY_FIRST_TOKEN.get(first);
  if (candidates) {
    for (const entry of candidates) {
      if (singleTokenOnly && entry.tokens.length > 1) continue;
      if (entry.endOnly && start + entry.tokens.length !== tokens.length) continue;
      if (start + entry.tokens.length > tokens.length) continue;
      let same = true;
      for (let k = 1; k < entry.tokens.length && same; k++) same = tokens[start + k] === entry.tokens[k];
      if (same) return { form: entry.form, family: entry.family, length: entry.tokens.length };
    }
  }
  if (first.length >= 9) {
    for (const entry of LONG_SINGLE) {
      if (withinOneEdit(first, entry.tokens[0]!))
        return { form: entry.form, family: entry.family, length: 1 };
    }
  }
  return undefined;
}

/** Plain Levenshtein distance <= 1, without allocating. */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a.charCodeAt(i) === b.charCodeAt(j)) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (a.length < b.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}
