import anyAscii from 'any-ascii';

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

/** A pinyin syllable's skeleton: its initial's class, then N for a nasal final, L for er. */
function syllableSkeleton(syllable: string): string {
  if (syllable === 'er') return 'L';
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
 * stand for: 约翰 (yuehan, from Johannes) is John.
 */
const CONVENTIONAL = new Map([
  ['约翰', 'JN'],
  ['約翰', 'JN'],
]);

/** The sound skeleton of a word in Chinese characters, read character by character in pinyin. */
export function transcriptionSkeleton(word: string): string {
  const conventional = CONVENTIONAL.get(word);
  if (conventional !== undefined) return conventional;
  let skeleton = '';
  for (const char of word) skeleton += syllableSkeleton(anyAscii(char).toLowerCase());
  return collapse(skeleton);
}

const VOWEL = /[aeiouy]/;
const DIGRAPHS = new Map([
  ['ph', 'F'],
  ['th', 'S'],
  ['sh', 'S'],
  ['ch', 'J'],
  ['kh', 'H'],
  ['gh', ''],
  ['wh', 'W'],
  ['ck', 'G'],
]);

/**
 * The sound skeleton of a Latin name part (lower-case ASCII), as a Chinese transcription hears
 * it: ph f, th s, ch and soft g j, soft c s, hard c, k, q g, x g s, v w, kh h; h but at the start,
 * gh, w after a vowel, and r after a vowel where no vowel follows (non-rhotic English: Warner 沃纳
 * W N, Palmer 帕尔默 B L M) silent.
 */
export function latinSkeleton(spelling: string): string {
  // One consonant for two first (Matthew, Carswell), so a doubled t does not stand before th.
  const latin = spelling.replace(/([b-df-hj-np-tv-z])\1/g, '$1');
  let skeleton = '';
  const vowelAt = (i: number) => i >= 0 && i < latin.length && VOWEL.test(latin[i]!);
  for (let i = 0; i < latin.length; i++) {
    const char = latin[i]!;
    const next = latin[i + 1] ?? '';
    if (VOWEL.test(char)) continue;
    const pair = char + next;
    // tch is ch (Mitch 米奇 M J); th at the start is t (Thomas 托马斯, Thune 图恩), else s (Smith 史密斯).
    if (pair === 'tc' && latin[i + 2] === 'h') continue;
    // A final ts or tz is one sound (Coats 科茨 G S, Schatz 夏茨); inside, two (Watson 沃特森).
    if ((pair === 'ts' || pair === 'tz') && i + 2 === latin.length) {
      skeleton += 'S';
      i++;
      continue;
    }
    if (pair === 'th' && i === 0) {
      skeleton += 'D';
      i++;
      continue;
    }
    const digraph = DIGRAPHS.get(pair);
    if (digraph !== undefined) {
      skeleton += digraph;
      i++;
      continue;
    }
    const soft = next === 'e' || next === 'i' || next === 'y';
    switch (char) {
      case 'b':
      case 'p':
        skeleton += 'B';
        break;
      case 'd':
      case 't':
        skeleton += 'D';
        break;
      case 'c':
        skeleton += soft ? 'S' : 'G';
        break;
      case 'g':
        skeleton += soft ? 'J' : 'G';
        break;
      case 'k':
      case 'q':
        skeleton += 'G';
        break;
      case 'x':
        skeleton += 'GS';
        break;
      case 'j':
        skeleton += 'J';
        break;
      case 'f':
        skeleton += 'F';
        break;
      case 'v':
        skeleton += 'W';
        break;
      case 'w':
        if (!vowelAt(i - 1) || vowelAt(i + 1)) skeleton += 'W';
        break;
      case 'h':
        if (i === 0) skeleton += 'H';
        break;
      case 'l':
        skeleton += 'L';
        break;
      case 'r':
        if (!vowelAt(i - 1) || vowelAt(i + 1)) skeleton += 'L';
        break;
      case 'm':
        skeleton += 'M';
        break;
      case 'n':
        skeleton += 'N';
        // ng is one nasal unless a vowel follows (Angela 安格拉 an-ge-la).
        if (next === 'g' && !vowelAt(i + 2)) i++;
        break;
      case 's':
      case 'z':
        skeleton += 'S';
        break;
    }
  }
  return collapse(skeleton);
}

/** One of two alike: doubled letters, and a consonant a transcription writes once ("Hancock" H N G). */
function collapse(skeleton: string): string {
  let kept = '';
  for (const char of skeleton) if (!kept.endsWith(char)) kept += char;
  return kept;
}
