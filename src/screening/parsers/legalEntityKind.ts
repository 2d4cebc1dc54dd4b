import { joinDottedLetters, rawWords } from '../matching/text.js';
import { matchLegalForm } from '../matching/vocabulary/legalForms.js';

/**
 * Lists that do not say whether a non-person is a company or some other organisation (OFAC's
 * blank SDN type, UN entities, Canada's "EntityOrShip") get the kind from the names: a name
 * carrying a legal form anywhere ("... CO., LTD.", "OOO ...", "Public Joint Stock Company ...",
 * also in Cyrillic, which is transliterated first) marks a `company`; anything else is an
 * `organization` (agencies, armed groups, ministries, banks without a legal form). The legal
 * forms are the matcher's vocabulary (matching/vocabulary/legalForms.ts), so both agree.
 */
export function companyOrOrganization(names: Iterable<string>): 'company' | 'organization' {
  for (const name of names) if (hasLegalForm(name)) return 'company';
  return 'organization';
}

/** Whether some run of words in `name` is a legal form. */
export function hasLegalForm(name: string): boolean {
  const tokens = legalTokens(name);
  for (let i = 0; i < tokens.length; i++) if (matchLegalForm(tokens, i)) return true;
  return false;
}

/** Whether `name` is nothing but legal forms ("JSC", "Limited Liability Company", "ООО"): no name at all. */
export function isOnlyLegalForm(name: string): boolean {
  const tokens = legalTokens(name);
  if (tokens.length === 0) return false;
  let i = 0;
  while (i < tokens.length) {
    const match = matchLegalForm(tokens, i);
    if (!match) return false;
    i += match.length;
  }
  return true;
}

function legalTokens(name: string): string[] {
  return joinDottedLetters(rawWords(name, false)).map((word) => word.text);
}
