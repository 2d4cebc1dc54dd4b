import { REMEMBERED_PARTS, remembered } from '../remembered.js';
/**
 * Sound skeletons: a name part reduced to its consonants in the classes a script that writes
 * foreign names by their sound does not tell apart, so that a transcription (鲍里斯 baolisi, 보리스
 * boriseu, בוריס bwrys) and the Latin spelling it stands for (Boris) meet: B L S on both sides.
 * Each hearing (Chinese, Korean, Hebrew, the alphabets that write vowels (Cyrillic, Greek, Armenian,
 * Georgian), Arabic letters, Japanese katakana) has its own classes for the Latin side; a reading
 * carries its hearing as its first letter ('c', 'k', 'h', 'r', 'a', 'n') before the skeleton, in
 * capitals.
 */
export type Hearing = 'chinese' | 'korean' | 'hebrew' | 'alphabet' | 'arabic' | 'japanese';

const PREFIX: Record<Hearing, string> = {
  chinese: 'c',
  korean: 'k',
  hebrew: 'h',
  alphabet: 'r',
  arabic: 'a',
  japanese: 'n',
};
/**
 * The hearings a name heard is searched by: the Arabic one only scores, next to the consonant
 * skeleton that finds Arabic-script names (a route of its own for every Latin term would cost
 * every query: two million names' p99 4.0 → 5.2 ms); the Japanese one only scores too, next to
 * the katakana readings that find a name in katakana (katakanaLoanwords.ts).
 */
const SEARCHED_HEARINGS: readonly Hearing[] = ['chinese', 'korean', 'hebrew', 'alphabet'];

/** A transcribed part's reading: its hearing, then its skeleton. */
export function soundReading(hearing: Hearing, skeleton: string): string {
  return `${PREFIX[hearing]}${skeleton}`;
}

/** Whether a reading is of that hearing (its first letter). */
export function heardIn(reading: string, hearing: Hearing): boolean {
  return reading[0] === PREFIX[hearing];
}

/**
 * Whether the reading's hearing reads every name of its script rather than only transcribed
 * foreign names (Hebrew, where no mark sets those apart): its short skeletons are common to many
 * names, and only an exact one of two consonants or more counts (tokenSimilarity.ts `soundScore`).
 */
export function readsEveryName(reading: string): boolean {
  return heardIn(reading, 'hebrew') || heardIn(reading, 'alphabet') || heardIn(reading, 'arabic');
}

/**
 * A Latin part as each hearing hears it, kept per hearing: a name heard meets the same candidates'
 * parts search after search (a sixth of a Hebrew query's time at two million names went to
 * hearing them again). Keyed by the part's own text, whose hash the string keeps: a key built
 * for the lookup (the hearing's letter and the part) cost more than the lookup, 80-100 against
 * 30-45 ns, thousands of times in a query heard in Hebrew or Arabic letters.
 */
const HEARD = new Map(
  (Object.keys(PREFIX) as Hearing[]).map((hearing) => [
    PREFIX[hearing],
    // Half the parts each: a query's script uses one or two hearings, not all five.
    remembered(REMEMBERED_PARTS / 2, (latin) => heardAs(latin, hearing)),
  ]),
);

/**
 * Hearings that leave out an r after a vowel where no vowel follows, as English says it (Warner
 * 沃纳, 워너 W N), yet write it where the name's own language says it: Italian, Spanish, German
 * or Russian names (마르코 Marco M L G, 에드가르 Edgar, 戈尔巴乔夫 Gorbachev G L B J W). A Latin part
 * is heard both ways by them.
 */
const SOMETIMES_RHOTIC: ReadonlySet<Hearing> = new Set(['chinese', 'korean', 'japanese']);

/**
 * A Latin part as `hearing` hears it: the hearing's letter, then the skeleton (the letter alone
 * when nothing is heard); a second reading with every r said, where a hearing leaves some out.
 */
function heardAs(latin: string, hearing: Hearing): readonly string[] {
  const said = spoken(latin);
  const heard = soundReading(hearing, latinSkeleton(said, hearing));
  if (!SOMETIMES_RHOTIC.has(hearing) || !said.includes('r')) return [heard];
  const withR = soundReading(hearing, latinSkeleton(said, hearing, false, true));
  return withR === heard ? [heard] : [heard, withR];
}

/** The Latin part's readings to compare with `reading`: heard as the reading's script hears it. */
export function latinSoundsOf(reading: string, latin: string): readonly string[] {
  return (HEARD.get(reading[0]!) ?? HEARD.get(PREFIX.chinese)!)(latin);
}

/** A Latin part's readings in every hearing (the search routes list and look them up). */
export function latinSoundReadings(latin: string): string[] {
  const readings: string[] = [];
  for (const hearing of SEARCHED_HEARINGS) {
    for (const reading of heardAs(latin, hearing)) if (reading.length > 1) readings.push(reading);
  }
  return readings;
}

const VOWEL = /[aeiouy]/;
const GERMAN_SCH = /sch/g;

/** ch before l or r, and Michael's, is k (Крис, کریس, 克里斯 Chris; Хлоя Chloe; Майкл, 麦克 Michael). */
const HARD_CH = /ch(?=[lr])|(?<=i)ch(?=ae)/g;

/**
 * English letters no one says, which transcriptions leave out: kn, wr, gn and ps at the start
 * (Knight Найт 奈特, Wright Райт 赖特, Psaki Псаки), the l of alk and olk (Walker Уокер 沃克 واکر).
 */
const SILENT = /^(?:k(?=n)|w(?=r)|g(?=n)|p(?=s))|(?<=[ao])l(?=k)/g;

/** A Latin spelling as said: without its silent letters (the other script's side never has them). */
const spoken = (latin: string) => latin.replace(SILENT, '');

/**
 * What a hearing does to a spelling before its consonants are classed: Korean writes f, ph and v
 * as ㅍ and ㅂ (b), z as ㅈ (j), w as a vowel; Hebrew writes p and f with one letter פ, b and v with
 * ב, and w as the vowel letter ו (h, y and a final th are handled in the classes); the alphabets
 * write w as a vowel but at the start; Arabic letters write w and v alike.
 */
const HEARD_AS: Record<Hearing, (latin: string) => string> = {
  chinese: (latin) => latin,
  korean: (latin) =>
    latin
      .replace(/ph|f|v/g, 'b')
      .replace(/(?<!t)z/g, 'j')
      .replace(/wh?/g, ''),
  hebrew: (latin) => latin.replace(/ph|p/g, 'f').replace(/v/g, 'b').replace(/wh?/g, ''),
  alphabet: (latin) =>
    latin
      // The alphabet's side, transliterated: дж and ж are j (Джон John, Жак Jacques), у and ου
      // before a vowel at the start w (Уилсон Wilson, Уортон Wharton, Ουίλσον).
      .replace(/d?zh/g, 'j')
      .replace(/^u(?=[aeio])/, 'w')
      // The Latin side: w but at the start is a vowel (Льюис Lewis), wh at the start w.
      .replace(/^wh/, 'w')
      .replace(/(?<!^)w/g, ''),
  // Arabic letters write w and v with one letter و (ویلیام William, دیوید David), and gh and q
  // with ق or غ (قاسم Ghassem, Ghasem); the English gh of ight is silent (نایت Knight, رایت Wright).
  arabic: (latin) =>
    latin
      .replace(/igh(?=t)/g, 'i')
      .replace(/gh|q/g, 'g')
      .replace(/wh?/g, 'v'),
  // Katakana (read in Hepburn) writes v as b mostly (ヴ and ビ alike: ヴィッター, ビッター Vitter),
  // and an m before b or p with ン (トランプ Trump).
  japanese: (latin) =>
    latin
      .replace(/ph/g, 'f')
      .replace(/v/g, 'b')
      .replace(/m(?=[bp])/g, 'n'),
};
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
 * The sound skeleton of a Latin name part (lower-case ASCII), as a transcription hears it: ph f,
 * th s, ch and soft g j, sch sh, soft c s, hard c, k, q g, x g s, v w, kh h; h but at the start, gh, w
 * after a vowel, and r after a vowel where no vowel follows (non-rhotic English: Warner 沃纳 W N,
 * 워너 W N, Palmer 帕尔默 B L M) silent. Korean hears more alike: f, ph and v as b (Philip 필립,
 * Kevin 케빈), z as j (Cruz 크루즈), and w as a vowel (Woodall 우돌). Hebrew hears p and f alike
 * (Foster פוסטר), b and v (Steve סטיב), w, y and h as vowels (John ג'ון jwn), th as t (Smith
 * סמית'), and keeps r after a vowel (Warner וורנר). The alphabets (Cyrillic, Greek, Armenian,
 * Georgian) keep r and hear th as t too, but tell voiced from voiceless (б п, д т, г к, в), r from
 * l, and hear h as g (Гайді Heidi, Хувен Hoeven). Arabic letters tell them apart as well, and kh
 * from h and z from s, but have no p and no v (فيليب Philip, ديفيد David). Katakana (its Hepburn
 * spelling heard the same way) tells voiced from voiceless too, but has one r for r and l, b for v,
 * and writes the g of ng (キング King). `transliterated`: the spelling is an alphabet's letters
 * transliterated, or kana romanised, not English (no soft c or g). `everyR`: every r said
 * (SOMETIMES_RHOTIC).
 */
export function latinSkeleton(
  spelling: string,
  hearing: Hearing,
  transliterated = false,
  everyR = false,
): string {
  // One consonant for two first (Matthew, Carswell), so a doubled t does not stand before th.
  const doubled = spelling.replace(/([b-df-hj-np-tv-z])\1/g, '$1');
  // Every script hears the English ch of Chris and Michael as k (克里斯, 크리스, Крис, کریس), and the
  // German sch as sh (夏茨 Schatz, 슈머 and שומר Schumer, Шольц Scholz).
  const latin = HEARD_AS[hearing](doubled.replace(GERMAN_SCH, 'sh')).replace(HARD_CH, 'k');
  // Hebrew and the alphabets write r after a vowel (וורנר, Уорнер Warner) and th as t (סמית', Смит Smith).
  const rhotic = hearing === 'hebrew' || hearing === 'alphabet' || hearing === 'arabic';
  // The alphabets and Arabic letters have one for each of b and p, d and t, k and g, v and w, r and l
  // (Беттс Betts, Поттс Potts).
  const voicing = hearing === 'alphabet' || hearing === 'arabic' || hearing === 'japanese';
  // Japanese has one r for r and l, and writes the g of ng (キング kingu King).
  const japanese = hearing === 'japanese';
  // Arabic letters also tell r from l, kh (خ) from h, and z from s; an English s said z is written
  // ز (جیمز James), which the Arabic side's readings allow for (arabicTranscription.ts).
  const arabic = hearing === 'arabic';
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
    if (pair === 'th' && (i === 0 || rhotic)) {
      skeleton += voicing ? 'T' : 'D';
      i++;
      continue;
    }
    const digraph = DIGRAPHS.get(pair);
    if (digraph !== undefined) {
      skeleton += voicing && pair === 'ck' ? 'K' : arabic && pair === 'kh' ? 'X' : digraph;
      i++;
      continue;
    }
    // English softens c and g before e, i and y; a transliteration of an alphabet has letters of
    // its own for those sounds (ж, ჯ, ц), so its g stays hard (კლეგი Klegi, with Georgian's
    // nominative -i, is Clegg).
    const soft = !transliterated && (next === 'e' || next === 'i' || next === 'y');
    switch (char) {
      case 'b':
        skeleton += 'B';
        break;
      case 'p':
        skeleton += voicing ? 'P' : 'B';
        break;
      case 'd':
        skeleton += 'D';
        break;
      case 't':
        skeleton += voicing ? 'T' : 'D';
        break;
      case 'c':
        skeleton += soft ? 'S' : voicing ? 'K' : 'G';
        break;
      case 'g':
        skeleton += soft ? 'J' : 'G';
        break;
      case 'k':
      case 'q':
        skeleton += voicing ? 'K' : 'G';
        break;
      case 'x':
        skeleton += voicing ? 'KS' : 'GS';
        break;
      case 'j':
        skeleton += 'J';
        break;
      case 'f':
        skeleton += 'F';
        break;
      case 'v':
        skeleton += voicing ? 'V' : 'W';
        break;
      case 'w':
        if (!vowelAt(i - 1) || vowelAt(i + 1)) skeleton += 'W';
        break;
      case 'h':
        if (i === 0 && hearing !== 'hebrew') skeleton += 'H';
        break;
      case 'l':
        skeleton += 'L';
        break;
      case 'r':
        if (rhotic || everyR || !vowelAt(i - 1) || vowelAt(i + 1))
          skeleton += voicing && !japanese ? 'R' : 'L';
        break;
      case 'm':
        skeleton += 'M';
        break;
      case 'n':
        skeleton += 'N';
        // ng is one nasal unless a vowel follows (Angela 安格拉 an-ge-la).
        if (next === 'g' && !vowelAt(i + 2) && !japanese) i++;
        break;
      case 's':
        skeleton += 'S';
        break;
      case 'z':
        skeleton += arabic ? 'Z' : 'S';
        break;
    }
  }
  // Russian writes h as х (Хувен Hoeven), Ukrainian and Belarusian as г (Гайді Heidi): one class.
  if (hearing === 'alphabet') return collapse(skeleton.replaceAll('H', 'G'));
  // Arabic has no p and no v: b and f write them (فيليب Philip, ديفيد David).
  if (hearing === 'arabic') return collapse(skeleton.replaceAll('P', 'B').replaceAll('V', 'F'));
  return collapse(skeleton);
}

/** One of two alike: doubled letters, and a consonant a transcription writes once ("Hancock" H N G). */
export function collapse(skeleton: string): string {
  let kept = '';
  for (const char of skeleton) if (!kept.endsWith(char)) kept += char;
  return kept;
}
