/**
 * Thai names read in the Royal Thai General System of Transcription (RTGS, Royal Institute 1999),
 * the romanisation of Thai official documents: ประยุทธ์ จันทร์โอชา as "prayut chanocha", สมชาย
 * วงศ์สวัสดิ์ as "somchai wongsawat". Thai writes some vowels before their consonant (เ แ โ ใ ไ),
 * leaves the short vowels a and o unwritten, marks silent letters with ์, and reads a consonant
 * otherwise at the end of a syllable (ท th at the start, t at the end); a letter-by-letter reading
 * (any-ascii: "prayuthth", "smchay") does none of that. No romaniser of Thai is on the npm registry;
 * the tables below are RTGS's (initial and final consonants, vowels), reading the common syllable
 * shapes of names, not every word of the language.
 */

const INITIAL: Readonly<Record<string, string>> = {
  ก: 'k',
  ข: 'kh',
  ฃ: 'kh',
  ค: 'kh',
  ฅ: 'kh',
  ฆ: 'kh',
  ง: 'ng',
  จ: 'ch',
  ฉ: 'ch',
  ช: 'ch',
  ซ: 's',
  ฌ: 'ch',
  ญ: 'y',
  ฎ: 'd',
  ฏ: 't',
  ฐ: 'th',
  ฑ: 'th',
  ฒ: 'th',
  ณ: 'n',
  ด: 'd',
  ต: 't',
  ถ: 'th',
  ท: 'th',
  ธ: 'th',
  น: 'n',
  บ: 'b',
  ป: 'p',
  ผ: 'ph',
  ฝ: 'f',
  พ: 'ph',
  ฟ: 'f',
  ภ: 'ph',
  ม: 'm',
  ย: 'y',
  ร: 'r',
  ฤ: 'rue',
  ล: 'l',
  ฦ: 'lue',
  ว: 'w',
  ศ: 's',
  ษ: 's',
  ส: 's',
  ห: 'h',
  ฬ: 'l',
  อ: '',
  ฮ: 'h',
};

const FINAL: Readonly<Record<string, string>> = {
  ก: 'k',
  ข: 'k',
  ค: 'k',
  ฆ: 'k',
  ง: 'ng',
  จ: 't',
  ช: 't',
  ซ: 't',
  ฌ: 't',
  ญ: 'n',
  ฎ: 't',
  ฏ: 't',
  ฐ: 't',
  ฑ: 't',
  ฒ: 't',
  ณ: 'n',
  ด: 't',
  ต: 't',
  ถ: 't',
  ท: 't',
  ธ: 't',
  น: 'n',
  บ: 'p',
  ป: 'p',
  พ: 'p',
  ฟ: 'p',
  ภ: 'p',
  ม: 'm',
  ย: 'i',
  ร: 'n',
  ล: 'n',
  ว: 'o',
  ศ: 't',
  ษ: 't',
  ส: 't',
  ฬ: 'n',
};

const CONSONANT = /[\u0e01-\u0e2e]/u;
/** Vowel signs written after or above or below their consonant. */
const FOLLOWING_VOWEL = /[\u0e30-\u0e39\u0e45\u0e47]/u;
const LEADING_VOWEL = /[\u0e40-\u0e44]/u;
/** Tone marks and the short-vowel sign: no letter of their own in RTGS. */
const UNWRITTEN = /[\u0e47-\u0e4b]/gu;
/** A letter marked silent with the thanthakhat (with a vowel sign on it: ดิ์, ธุ์). */
const SILENT = /[\u0e01-\u0e2e][\u0e34\u0e38]?\u0e4c/gu;
/**
 * A consonant between a syllable's final and a silent letter is silent too (จันทร์ chan: น ends the
 * syllable, ทร์ is not read); after a vowel sign it is the final itself (ประยุทธ์ prayut).
 */
const SILENT_BEFORE =
  /(?<=[\u0e31-\u0e39][\u0e01-\u0e2e])[\u0e01-\u0e2e](?=[\u0e01-\u0e2e][\u0e34\u0e38]?\u0e4c)/gu;
/** Second letters of an initial cluster (กร kr, ปล pl, กว kw). */
const CLUSTER_SECOND = new Set(['ร', 'ล', 'ว']);
const CLUSTER_FIRST = new Set(['ก', 'ข', 'ค', 'ต', 'ป', 'ผ', 'พ']);
/** Letters a silent ห leads, giving them its tone (หญิง ying, หมอ mo). */
const LED_BY_HO = new Set(['ง', 'ญ', 'น', 'ม', 'ย', 'ร', 'ล', 'ว']);

const isConsonant = (char: string | undefined) => char !== undefined && CONSONANT.test(char);
const isFollowingVowel = (char: string | undefined) => char !== undefined && FOLLOWING_VOWEL.test(char);

/** A Thai word in RTGS, lower case; undefined when it holds anything but Thai letters and signs. */
export function rtgsReading(word: string): string | undefined {
  if (!/^[\u0e01-\u0e4e]+$/u.test(word)) return undefined;
  const text = [...word.replace(UNWRITTEN, '').replace(SILENT_BEFORE, '').replace(SILENT, '')];
  let out = '';
  let i = 0;
  while (i < text.length) {
    const lead = LEADING_VOWEL.test(text[i]!) ? text[i++] : undefined;
    if (!isConsonant(text[i])) {
      i++;
      continue;
    }
    // The initial: a consonant, a cluster, or a sonorant led by a silent ห (or ย by อ).
    let initial = INITIAL[text[i]!] ?? '';
    if ((text[i] === 'ห' && LED_BY_HO.has(text[i + 1]!)) || (text[i] === 'อ' && text[i + 1] === 'ย')) {
      initial = INITIAL[text[++i]!]!;
    } else if (
      CLUSTER_FIRST.has(text[i]!) &&
      CLUSTER_SECOND.has(text[i + 1]!) &&
      (isFollowingVowel(text[i + 2]) || lead !== undefined)
    ) {
      initial += INITIAL[text[++i]!]!;
    }
    i++;
    const [vowel, used] = readVowel(lead, text, i);
    i += used;
    // A consonant not followed by a vowel sign of its own ends this syllable.
    let final = '';
    // (Nor one that อ or รร follows: they are then its vowel, as in รอน ron, วรรณ wan.)
    const vowelAfter = text[i + 1] === 'อ' || (text[i + 1] === 'ร' && text[i + 2] === 'ร');
    if (isConsonant(text[i]) && !isFollowingVowel(text[i + 1]) && !vowelAfter) {
      final = FINAL[text[i]!] ?? '';
      i++;
      // A second consonant after a final, at the end of the word, is not read (วัตร wat).
      if (i === text.length - 1 && isConsonant(text[i])) i++;
    }
    // No vowel written: a before the next syllable, o before a final (สม som).
    const spoken = vowel === '' ? (final === '' ? 'a' : 'o') : vowel;
    out += initial + spoken + final;
  }
  return out;
}

/** The vowel of a syllable from its signs, and how many characters after the initial it used. */
function readVowel(lead: string | undefined, text: string[], at: number): [string, number] {
  const [a, b, c] = [text[at], text[at + 1], text[at + 2]];
  switch (lead) {
    case 'เ':
      if (a === 'า' && b === 'ะ') return ['o', 2];
      if (a === 'า') return ['ao', 1];
      if (a === 'ี' && b === 'ย') return [c === 'ว' ? 'iao' : 'ia', c === 'ว' || c === 'ะ' ? 3 : 2];
      if (a === 'ื' && b === 'อ') return ['uea', c === 'ะ' ? 3 : 2];
      if (a === 'ิ' || a === 'อ') return ['oe', 1];
      // ย and ว with no vowel sign of their own are the glide of this vowel, not the next initial.
      if (a === 'ย' && !isFollowingVowel(b)) return ['oei', 1];
      if (a === 'ว' && !isFollowingVowel(b)) return ['eo', 1];
      return ['e', a === 'ะ' ? 1 : 0];
    case 'แ':
      if (a === 'ว' && !isFollowingVowel(b)) return ['aeo', 1];
      return ['ae', a === 'ะ' ? 1 : 0];
    case 'โ':
      return ['o', a === 'ะ' ? 1 : 0];
    case 'ใ':
    case 'ไ':
      return ['ai', 0];
  }
  if (a === 'ั' && b === 'ว') return ['ua', 2];
  // รร after a consonant is the vowel a, with n when no final follows (สุวรรณ suwan, สรร san).
  if (a === 'ร' && b === 'ร') return isConsonant(c) ? ['a', 2] : ['an', 2];
  if (a === 'ั' || a === 'ะ') return ['a', 1];
  if (a === 'า') return ['a', 1];
  if (a === 'ำ') return ['am', 1];
  if (a === 'ิ' || a === 'ี') return ['i', 1];
  if (a === 'ึ') return ['ue', 1];
  if (a === 'ื') return ['ue', b === 'อ' ? 2 : 1];
  if (a === 'ุ' || a === 'ู') return ['u', 1];
  // ว or อ between two consonants is the vowel ua or o (สวน suan, ชอบ chop).
  if (a === 'ว' && isConsonant(b)) return ['ua', 1];
  if (a === 'อ' && (isConsonant(b) || b === undefined)) return ['o', 1];
  return ['', 0];
}

/** Each word of a person's name written in Thai, with its RTGS reading; undefined for any other name. */
export function thaiNameReadings(name: string): { word: string; readings: string[] }[] | undefined {
  const words = name.trim().split(/\s+/u).filter(Boolean);
  if (words.length < 2) return undefined;
  const read: { word: string; readings: string[] }[] = [];
  for (const word of words) {
    const reading = rtgsReading(word);
    if (reading === undefined || reading === '') return undefined;
    read.push({ word, readings: [reading] });
  }
  return read;
}
