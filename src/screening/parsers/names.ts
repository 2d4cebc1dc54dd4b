import type { NameParts } from '../model/listedEntity.js';

/**
 * Name text as every parser stores it, and the script it is written in. Matching normalises
 * further; these only make published names tidy and comparable for de-duplication.
 */

const NEEDS_CLEANING = /[^\S ]| {2}|\p{Cc}|[\u200b]/u;

/**
 * Trimmed, every whitespace run (including no-break spaces, tabs and line breaks inside a
 * value) as one space, control characters dropped. Returns '' for blank input.
 */
export function cleanText(text: string | undefined | null): string {
  if (!text) return '';
  // Most values are already tidy: testing is much cheaper than replacing.
  if (!NEEDS_CLEANING.test(text)) return text.trim();
  return text
    .replace(/[\s\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]+/g, ' ')
    .replace(/\p{Cc}/gu, '')
    .trim();
}

const SCRIPTS: [RegExp, string][] = [
  [/\p{Script=Latin}/u, 'Latn'],
  [/\p{Script=Cyrillic}/u, 'Cyrl'],
  [/\p{Script=Arabic}/u, 'Arab'],
  [/\p{Script=Han}/u, 'Hani'],
  [/\p{Script=Hangul}/u, 'Hang'],
  [/\p{Script=Hebrew}/u, 'Hebr'],
  [/\p{Script=Greek}/u, 'Grek'],
  [/\p{Script=Georgian}/u, 'Geor'],
  [/\p{Script=Armenian}/u, 'Armn'],
  [/\p{Script=Thai}/u, 'Thai'],
  [/\p{Script=Devanagari}/u, 'Deva'],
  [/\p{Script=Bengali}/u, 'Beng'],
  [/\p{Script=Myanmar}/u, 'Mymr'],
  [/\p{Script=Ethiopic}/u, 'Ethi'],
  [/\p{Script=Hiragana}|\p{Script=Katakana}/u, 'Jpan'],
];

/**
 * ISO 15924 code of the script most letters of `text` are written in (`Latn`, `Cyrl`, `Arab`,
 * `Hani`, ...), or `undefined` when it has no letters of a known script. Latin letters mixed
 * into a Cyrillic name ("Aндрэй" with a Latin A) lose to the majority.
 */
export function detectScript(text: string): string | undefined {
  const counts = new Map<string, number>();
  let latin = 0;
  for (const char of text) {
    // ASCII needs no Unicode property tests: only its letters count, as Latin.
    const code = char.charCodeAt(0);
    if (code < 128) {
      if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) latin++;
      continue;
    }
    if (!/\p{L}/u.test(char)) continue;
    for (const [pattern, code] of SCRIPTS) {
      if (pattern.test(char)) {
        counts.set(code, (counts.get(code) ?? 0) + 1);
        break;
      }
    }
  }
  if (latin > 0) counts.set('Latn', (counts.get('Latn') ?? 0) + latin);
  let best: string | undefined;
  let bestCount = 0;
  for (const [code, count] of counts) {
    if (count > bestCount) {
      best = code;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Parts of a person's name written "FAMILY, Given Names" (OFAC, some UN aliases): the family
 * name before the first comma, the given names after it. `undefined` when there is no comma or
 * either side is empty: a name without the comma gives no reliable split.
 */
export function splitFamilyCommaGiven(full: string): NameParts | undefined {
  const comma = full.indexOf(',');
  if (comma < 0) return undefined;
  const family = cleanText(full.slice(0, comma));
  const given = cleanText(full.slice(comma + 1));
  if (!family || !given) return undefined;
  return { family, given };
}

/** "Given Family" from parts given separately; either may be missing. */
export function joinGivenFamily(given: string | undefined | null, family: string | undefined | null): string {
  return cleanText([cleanText(given), cleanText(family)].filter(Boolean).join(' '));
}
