import anyAscii from 'any-ascii';
import { collapse } from './soundSkeleton.js';

/**
 * Foreign names written in Chinese characters (鲍里斯·约翰逊 Boris Johnson, 乔治·奥斯本 George
 * Osborne, 杰里米·科尔宾 Jeremy Corbyn), as Chinese-language sources and Wikipedia write the names
 * of Western politicians. Each character stands for a syllable of the name's sound (the Xinhua
 * transcription tables), read in pinyin "baolisi yuehanxun", which no edit budget brings near
 * "boris johnson": Chinese gives every consonant a vowel (s as si, k as ke, final r or l as er),
 * has l for r, x for s, and writes some names by convention (约翰 yuehan for John).
 *
 * Both sides are brought to a sound skeleton: the consonants in classes Chinese does not tell
 * apart in transcription (b/p, d/t, g/k, l/r, s/x/z/sh, j/q/zh/ch ...), the vowels and the glide y
 * left out, the nasal of a syllable kept (han: H N), one of two alike. Boris and 鲍里斯 are both
 * B L S; Osborne (a non-rhotic r before a consonant) and 奥斯本 S B N.
 *
 * Only a name whose words are separated by a middle dot is read so: Chinese writes that dot
 * between the parts of transcribed foreign names only, so a Chinese name (习近平) never is.
 */

const HAN = /\p{Script=Han}/u;
/** The middle dots Chinese text separates a foreign name's parts with (·, ・, ‧, •, ･). */
const NAME_DOT = /[\u00b7\u30fb\u2027\u2022\uff65]/u;
const TRANSCRIBED_NAME = /^[\p{Script=Han}\u00b7\u30fb\u2027\u2022\uff65\s]+$/u;

/** Whether a name is a foreign name in Chinese characters: Han characters, and a middle dot between its words. */
export function isTranscribedName(name: string): boolean {
  return NAME_DOT.test(name) && HAN.test(name) && TRANSCRIBED_NAME.test(name);
}

/** The words of a transcribed name, in its own order. */
export function transcribedWords(name: string): string[] {
  return name.split(/[\u00b7\u30fb\u2027\u2022\uff65\s]+/u).filter(Boolean);
}

const PINYIN_INITIALS: readonly [string, string][] = [
  ['zh', 'J'],
  ['ch', 'J'],
  ['sh', 'S'],
  ['b', 'B'],
  ['p', 'B'],
  ['d', 'D'],
  ['t', 'D'],
  ['g', 'G'],
  ['k', 'G'],
  ['h', 'H'],
  ['f', 'F'],
  ['w', 'W'],
  ['l', 'L'],
  ['r', 'L'],
  ['m', 'M'],
  ['n', 'N'],
  ['s', 'S'],
  ['x', 'S'],
  ['z', 'S'],
  ['c', 'S'],
  ['j', 'J'],
  ['q', 'J'],
  ['y', ''],
];

/**
 * Syllables the transcription tables write an English w with: hua, huai and hui (华盛顿 Washington,
 * 爱德华 Edward, 懷登 Wyden, 惠特曼 Whitman), where 霍 huo stays h (霍华德 Howard, 霍金 Hawking).
 */
const W_SYLLABLES: ReadonlySet<string> = new Set(['hua', 'huai', 'hui']);

/** A pinyin syllable's skeleton: its initial's class, then N for a nasal final, L for er. */
function syllableSkeleton(syllable: string): string {
  if (syllable === 'er') return 'L';
  if (W_SYLLABLES.has(syllable)) return 'W';
  let skeleton = '';
  let rest = syllable;
  for (const [initial, sound] of PINYIN_INITIALS) {
    if (rest.startsWith(initial)) {
      skeleton = sound;
      rest = rest.slice(initial.length);
      break;
    }
  }
  if (rest.endsWith('n') || rest.endsWith('ng')) skeleton += 'N';
  return skeleton;
}

/**
 * Names Chinese writes by convention rather than by sound, with the skeleton of the name they
 * stand for: 约翰 (yuehan, from Johannes) is John; 大卫 and 戴维 (dawei, daiwei) are David, 理查
 * (licha) Richard and 爱德华 (aidehua) Edward, their last sound unwritten; 麦可 (maike) is Michael.
 */
const CONVENTIONAL = new Map([
  ['约翰', 'JN'],
  ['約翰', 'JN'],
  ['大卫', 'DWD'],
  ['大衛', 'DWD'],
  ['戴维', 'DWD'],
  ['戴維', 'DWD'],
  ['理查', 'LJD'],
  ['理察', 'LJD'],
  ['爱德华', 'DWD'],
  ['愛德華', 'DWD'],
  ['麦可', 'MGL'],
  ['麥可', 'MGL'],
]);

/**
 * Characters the transcription tables use for another sound than their pinyin: 加 and 伽 (jia) write
 * ga and ca (加里 Gary, 加德纳 Gardner, 加拉加斯 Caracas).
 */
const TRANSCRIPTION_SOUNDS = new Map([
  ['加', 'G'],
  ['伽', 'G'],
]);

/**
 * Syllables of j or q before i (ji, jin, jing, qi, qin, qing): the transcription tables write k and
 * g before i with them as well as j (基 ji for the ki of Kissinger, Keith and Markey, 金 jin for
 * the king of King and Kingsley, 吉 ji for Gil and for the j of Jimmy), as Mandarin itself has no
 * ki or gi. Such a syllable is read both ways; jia, jie or qiao are not (加 is ga already, 杰 and 乔
 * the je and geo of Jeremy and George).
 */
const PALATAL_SYLLABLE = /^[jq]i(?:n|ng)?$/;
/** Readings of one word at most: each palatal syllable doubles them (琪琪 is two). */
const MAX_READINGS = 4;

/**
 * The sound skeletons of a word in Chinese characters, read character by character in pinyin. A
 * nasal final before a syllable in m is that m written twice (汤姆 tang-mu Tom, 詹姆斯 zhan-mu-si
 * James): one M.
 */
export function transcriptionSkeletons(word: string): string[] {
  const conventional = CONVENTIONAL.get(word);
  if (conventional !== undefined) return [conventional];
  let skeletons = [''];
  for (const char of word) {
    const syllable = anyAscii(char).toLowerCase();
    const sound = TRANSCRIPTION_SOUNDS.get(char) ?? syllableSkeleton(syllable);
    const velar = PALATAL_SYLLABLE.test(syllable) && skeletons.length < MAX_READINGS;
    skeletons = skeletons.flatMap((skeleton) =>
      velar ? [skeleton + sound, skeleton + sound.replace('J', 'G')] : [skeleton + sound],
    );
  }
  return skeletons.map((skeleton) => collapse(skeleton.replaceAll('NM', 'M')));
}
