/**
 * Korean names written in Cyrillic (Ким Чен Ын, Пак Пон Джу, Ким Ир Сен) read as the Latin
 * spellings McCune-Reischauer and Revised Romanization give them (Kim Jong Un, Pak Pong Ju, Kim Il).
 * Russian writes Korean syllables by the Kontsevich system and by the older conventions of its
 * press, which spell apart what the Latin systems spell alike and the other way round: final н is
 * both ㄴ and ㅇ (Чен is 정, jong), е and о are both ㅓ (eo, o), ы is ㅡ (eu, u), and a plain
 * consonant is the voiced or the unvoiced one by its place in the word (ч: ch or j, к: k or g). A
 * letter by letter transliteration ("chen yn") meets none of them, so each syllable is read every
 * way it can be, and a Latin part equal to one reading matches.
 *
 * Tables: the Kontsevich system (Л. Р. Концевич, the Russian standard for Korean) with the press
 * conventions for North Korean names (е for ㅓ, дж for ㅈ); the Latin sides are those of
 * koreanRomanisation.ts.
 */

/** Initial consonants, longest first: Cyrillic, then the Latin spellings of the Korean consonant. */
const INITIALS: readonly (readonly [string, readonly string[]])[] = [
  ['чх', ['ch']],
  ['кх', ['k']],
  ['тх', ['t']],
  ['пх', ['p']],
  ['кк', ['kk']],
  ['тт', ['tt']],
  ['пп', ['pp']],
  ['сс', ['ss']],
  ['чч', ['jj']],
  ['дж', ['j', 'ch']],
  ['ч', ['ch', 'j']],
  ['ц', ['ch', 'j']],
  ['к', ['k', 'g']],
  ['г', ['g', 'k']],
  ['т', ['t', 'd']],
  ['д', ['d', 't']],
  ['п', ['p', 'b']],
  ['б', ['b', 'p']],
  ['с', ['s']],
  ['ш', ['s', 'sh']],
  ['х', ['h']],
  ['н', ['n']],
  ['м', ['m']],
  ['р', ['r', 'l']],
  ['л', ['r', 'l']],
  ['', ['']],
];

/** Vowels, longest first. */
const VOWELS: readonly (readonly [string, readonly string[]])[] = [
  ['ый', ['ui', 'eui']],
  ['ва', ['wa']],
  ['во', ['wo', 'weo']],
  ['вэ', ['wae']],
  ['ве', ['we', 'oe']],
  ['ви', ['wi']],
  ['йе', ['ye']],
  // Й before a vowel writes its y as я, ё and ю do (Йон Ир, Yong Il, beside Ён).
  ['йо', ['yo', 'yeo']],
  ['йа', ['ya']],
  ['йу', ['yu']],
  ['а', ['a']],
  ['я', ['ya']],
  ['о', ['o', 'eo']],
  ['ё', ['yo', 'yeo']],
  ['е', ['eo', 'o', 'e']],
  ['э', ['ae', 'e']],
  ['у', ['u']],
  ['ю', ['yu']],
  ['ы', ['eu', 'u']],
  ['и', ['i']],
];

/** Final consonants, longest first; '' for an open syllable. */
const FINALS: readonly (readonly [string, readonly string[]])[] = [
  ['ль', ['l']],
  ['нъ', ['ng']],
  ['н', ['n', 'ng']],
  ['р', ['l']],
  ['л', ['l']],
  ['к', ['k']],
  ['м', ['m']],
  ['п', ['p']],
  ['т', ['t']],
  ['', ['']],
];

/**
 * Korean family names as Russian writes them: a Cyrillic name is read as Korean only when it starts
 * with one, as Иван or Лиана would otherwise be (и-ван, ли-а-на).
 */
const FAMILY_NAMES: ReadonlySet<string> = new Set(
  'ким ли ри пак пэк чхве цой чой чон чен чан кан ан ю рю ян хан сон со ко хо о юн лим рим син шин хон мун нам чо ро но мин пэ ха квон кон сим тхэ'.split(
    ' ',
  ),
);

const MAX_SYLLABLES = 3;
/** A word's readings are the product of its syllables': past this many, the word is not a name. */
const MAX_READINGS = 64;
const CYRILLIC_WORD = /^[а-яё]+$/u;

/**
 * Each word (in lower case) of a person's name in Cyrillic that starts with a Korean family name
 * and is made only of Korean syllables (at most three a word, two to four words), with its Latin
 * readings; undefined for any other name.
 */
export function cyrillicKoreanReadings(name: string): { word: string; readings: string[] }[] | undefined {
  const words = name
    .toLowerCase()
    .split(/[\s\-‐‑]+/u)
    .filter(Boolean);
  if (words.length < 2 || words.length > 4 || !FAMILY_NAMES.has(words[0]!)) return undefined;
  const read: { word: string; readings: string[] }[] = [];
  for (const word of words) {
    if (!CYRILLIC_WORD.test(word)) return undefined;
    const readings = syllableReadings(word, 0, 0);
    if (readings === undefined) return undefined;
    read.push({ word, readings: [...new Set(readings)] });
  }
  return read;
}

function syllableReadings(word: string, start: number, syllables: number): string[] | undefined {
  if (start === word.length) return syllables > 0 ? [''] : undefined;
  if (syllables === MAX_SYLLABLES) return undefined;
  const found: string[] = [];
  for (const [initial, initialLatin] of INITIALS) {
    if (!word.startsWith(initial, start)) continue;
    const afterInitial = start + initial.length;
    for (const [vowel, vowelLatin] of VOWELS) {
      if (!word.startsWith(vowel, afterInitial)) continue;
      const afterVowel = afterInitial + vowel.length;
      for (const [final, finalLatin] of FINALS) {
        if (!word.startsWith(final, afterVowel)) continue;
        const rest = syllableReadings(word, afterVowel + final.length, syllables + 1);
        if (rest === undefined) continue;
        for (const i of initialLatin)
          for (const v of vowelLatin)
            for (const f of finalLatin)
              for (const r of rest) if (found.length < MAX_READINGS) found.push(i + v + f + r);
      }
    }
  }
  return found.length > 0 ? found : undefined;
}
