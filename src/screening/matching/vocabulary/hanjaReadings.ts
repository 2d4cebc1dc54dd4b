import { createRequire } from 'node:module';

/**
 * Korean names written in Hanja (金正恩, 李明博) read as the Hangul syllables Korean gives each
 * character, so that they meet the same names in Latin letters ("Kim Jong Un", "Ri Myong Bak")
 * through the Korean syllable keys (koreanRomanisation.ts), as names written in Hangul do.
 *
 * The readings are the `hanja` package's table (npm `hanja` 1.1.5, MIT, `lib/data/hanjaeum.json`:
 * 27,497 characters, one Sino-Korean reading each, shipped inside the package). Each is the
 * character's original sound: South Korea's initial-sound law, which writes 李 이 and 林 임 at the
 * start of a word, is not applied, as North Korean names and their romanisations keep the sound
 * (Ri, Rim, Ryu) and most Korean names on sanctions lists are North Korean.
 */
const require = createRequire(import.meta.url);
let readings: Readonly<Record<string, string>> | undefined;
/** The table (half a megabyte of JSON), read when the first name in Han characters needs it, not at start-up. */
function readingsTable(): Readonly<Record<string, string>> {
  readings ??= require('hanja/lib/data/hanjaeum.json') as Readonly<Record<string, string>>;
  return readings;
}

/** Characters read otherwise as a family name: 金 is 금 (gold) in words and 김 (Kim) as a surname. */
const FAMILY_READINGS: Readonly<Record<string, string>> = { 金: '김' };

/**
 * The common Korean family names, in the forms Korea writes them (traditional characters): a name
 * in Han characters is read as Korean only when it starts with one of them. Chinese names share
 * many (李, 王, 林), but not the simplified forms mainland China writes (张 for 張, 陈 for 陳, 刘 for
 * 劉): without this gate "张明" read 장명 met "Chang Myong-Chin" in the global negatives. Rare
 * Korean family names that are also common given-name characters (明, 景) are left out.
 */
const KOREAN_FAMILY_NAMES: ReadonlySet<string> = new Set(
  [
    '金李朴崔鄭丁姜康趙曺尹張林任韓吳徐申辛愼權黃安宋柳劉兪全田洪高文梁楊孫裵白許南沈盧魯河郭成',
    '車朱周禹具閔羅陳秦池嚴蔡元千方孔玄咸卞邊廉呂秋都蘇石宣薛馬吉延魏表奇潘王琴玉陸印孟諸卓鞠魚',
  ].join(''),
);

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;

/** Whether the text holds Han characters (Hanzi, Hanja, kanji). */
export function hasHan(text: string): boolean {
  return HAN.test(text);
}

/** Whether the first Han character of the text is a common Korean family name. */
export function startsWithKoreanFamilyName(text: string): boolean {
  for (const char of text) if (HAN.test(char)) return KOREAN_FAMILY_NAMES.has(char);
  return false;
}

/**
 * The text with each Han character replaced by its Hangul reading, the first one read as a family
 * name when `familyFirst`; undefined when a character has no reading.
 */
export function hanjaReading(text: string, familyFirst: boolean): string | undefined {
  const table = readingsTable();
  let reading = '';
  let first = familyFirst;
  for (const char of text) {
    if (!HAN.test(char)) {
      reading += char;
      continue;
    }
    const syllable = (first ? FAMILY_READINGS[char] : undefined) ?? table[char];
    if (syllable === undefined) return undefined;
    reading += syllable;
    first = false;
  }
  return reading;
}
