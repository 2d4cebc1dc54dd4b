/**
 * Names written in Cyrillic are compared, beside their letter-by-letter transliteration, by their
 * sound (soundSkeleton.ts, the Cyrillic hearing): Russian, Ukrainian, Belarusian, Bulgarian and
 * Serbian write a foreign name as it sounds (Джон Флеминг John Fleming, Клайв Беттс Clive Betts,
 * Хувен Hoeven, Уилсон Wilson), which no transliteration turns back into its English spelling
 * ("dzhon", "klayv", "khuven", "uilson").
 */
const CYRILLIC_NAME = /^[\u0400-\u04ff'\u2019\s.,-]+$/u;
const CYRILLIC_LETTER = /[\u0400-\u04ff]/u;

/** Whether a name is written in Cyrillic letters only (with apostrophes, hyphens, stops and a comma). */
export function isCyrillicName(name: string): boolean {
  return CYRILLIC_LETTER.test(name) && CYRILLIC_NAME.test(name);
}

/**
 * The words of a name in Cyrillic letters, the given names first: "Кейн, Тим" (a list's family
 * name first) is Тим Кейн.
 */
export function cyrillicWords(name: string): string[] {
  const [family, given] = name.split(',', 2);
  const ordered = given === undefined ? name : `${given} ${family}`;
  return ordered.split(/[\s.,-]+/u).filter((word) => CYRILLIC_LETTER.test(word));
}
