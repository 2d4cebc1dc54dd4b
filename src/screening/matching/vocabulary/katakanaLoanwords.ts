/**
 * Foreign names written in katakana (テッド・クルーズ, ビル・ネルソン, ナンシー・ペロシ), as Japanese lists
 * and Japanese-language sources write the names of foreigners. Japanese gives every consonant but n
 * a vowel, has one sound for r and l, and no si: Hepburn reads those names "teddo kuruzu", "biru
 * neruson", "nanshi peroshi", which the Latin spellings (Ted Cruz, Bill Nelson, Nancy Pelosi) are
 * several edits away from. The readings here undo that: each vowel Japanese may have added (u
 * after a consonant, o after t or d, i after ch, sh or j) is kept or left out, r is read r and l,
 * shi is read shi and si. A Latin part within the edit budget of one reading matches it.
 */

/** A vowel Japanese adds: followed by a consonant or the end of the word, not by another vowel. */
const ADDED_VOWEL = /(?<=[bcdfghjkmprstvz])u(?![aeiou])|(?<=[td])o(?![aeiou])|(?<=ch|sh|j)i(?![aeiou])/g;
/** Past this many added vowels, the word is read with all or none of them left out. */
const MAX_CHOICES = 4;
const MAX_READINGS = 32;
const KATAKANA_NAME = /^[\u30a0-\u30ff\s\u00b7\uff65]+$/u;

/** Whether a name is written in katakana only (with spaces and middle dots between its words). */
export function isKatakanaName(name: string): boolean {
  return KATAKANA_NAME.test(name) && /[\u30a1-\u30fa]/u.test(name);
}

/** The Latin spellings a katakana word in Hepburn ("kuruzu") may stand for ("kuruzu", "kruz", "cruz"...). */
export function loanwordReadings(hepburn: string): string[] {
  const added = [...hepburn.matchAll(ADDED_VOWEL)].map((match) => match.index);
  const choices = added.length <= MAX_CHOICES ? 1 << added.length : 2;
  const spellings = new Set<string>();
  for (let mask = 0; mask < choices; mask++) {
    // With too many added vowels, only all kept (mask 0) or all left out (mask 1).
    const dropped = added.length <= MAX_CHOICES ? added.filter((_, i) => mask & (1 << i)) : mask ? added : [];
    let spelling = '';
    for (let i = 0; i < hepburn.length; i++) if (!dropped.includes(i)) spelling += hepburn[i];
    for (const withL of [spelling, spelling.replace(/r/g, 'l')])
      for (const reading of [withL, withL.replace(/shi/g, 'si')]) spellings.add(reading);
  }
  return [...spellings].slice(0, MAX_READINGS);
}

/**
 * A Latin name as Japanese hears it, to meet the readings above from the other side: katakana
 * writes a foreign name as it sounds in English, not as it is spelt. John is ジョン "jon" (no h),
 * Mark マーク "maaku" (no r after a vowel: Japanese takes English non-rhotic), Cole コール "kooru"
 * (c as k, no final e), Thune スーン "suun" (th as s), Royce ロイス "roisu", Farr ファー "faa",
 * McConnell マコーネル "makooneru" (one consonant for two), Warner ウォーナー "woonaa" (a final -er
 * as a long a). Compared with approximate readings only (tokenSimilarity.ts `readingScore`), beside
 * the name's own spelling, and a search route both ways (termDictionary.ts, with its mirror in
 * monitoredSubjectIndex.ts).
 */
export function englishSound(latin: string): string {
  return (
    latin
      .replace(/ph/g, 'f')
      .replace(/th/g, 's')
      .replace(/tch/g, 'ch')
      .replace(/ck/g, 'k')
      .replace(/c(?=[eiy])/g, 's')
      .replace(/c(?!h)/g, 'k')
      .replace(/q/g, 'k')
      .replace(/x/g, 'ks')
      .replace(/([b-df-hj-np-tv-z])\1/g, '$1')
      // A final -er or -or is a long a (Warner ウォーナー, Taylor テイラー).
      .replace(/(?<=.)[eo]r$/, 'a')
      // Non-rhotic r and silent h: after a vowel, where no vowel follows.
      .replace(/(?<=[aeiouy])[rh](?![aeiouy])/g, '')
      .replace(/(?<=.[b-df-hj-np-tv-z])e$/, '')
      .replace(/(?<=.)y/g, 'i')
  );
}
