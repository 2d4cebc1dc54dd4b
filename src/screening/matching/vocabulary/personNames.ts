/**
 * Vocabulary of person names: spellings of one common name part across transliteration systems,
 * English diminutives, titles and honorifics, name particles and patronymic endings. Entries are
 * general knowledge about naming, not names of listed parties: this is how "Mohammed" meets
 * "Muhammad" and "Yevgeny" meets "Evgeniy" when their spellings are too far apart for the edit
 * distance.
 */

/** Each group lists spellings of one name; the first is the canonical key. */
const TRANSLITERATION_GROUPS: readonly string[][] = [
  [
    'muhammad',
    'mohammed',
    'mohammad',
    'mohamed',
    'muhammed',
    'mohamad',
    'muhamad',
    'mohd',
    'mehmet',
    'mahomed',
  ],
  ['ahmad', 'ahmed', 'ahmet', 'akhmed', 'ahmadou'],
  ['mahmud', 'mahmoud', 'mahmood', 'makhmud'],
  ['mustafa', 'mostafa', 'moustafa', 'mustapha', 'mustafo'],
  ['husayn', 'hussein', 'husein', 'hussain', 'husain', 'hossein', 'hussian', 'husseyn', 'huseyin', 'khusein'],
  ['hasan', 'hassan', 'hasson', 'khasan'],
  ['usama', 'osama', 'usamah', 'osamah'],
  ['umar', 'omar', 'omer', 'oumar'],
  ['uthman', 'othman', 'osman', 'usman', 'usmon'],
  ['yusuf', 'yousef', 'youssef', 'yousuf', 'yusef', 'yussuf', 'jusuf'],
  ['ibrahim', 'ebrahim', 'ibragim', 'brahim'],
  ['ismail', 'ismael', 'ismoil', 'esmail'],
  ['khalid', 'khaled', 'halid'],
  ['abdullah', 'abdallah', 'abdulla', 'abdollah'],
  ['abd', 'abdul', 'abdel', 'abdal', 'abdol', 'abdil'],
  ['abu', 'abou', 'abo'],
  ['said', 'saeed', 'saied', 'sayed', 'sayyed'],
  ['salim', 'saleem', 'selim', 'salem'],
  ['karim', 'kareem', 'kerim'],
  ['rahman', 'rehman', 'rakhman'],
  ['qasim', 'qassim', 'kasim', 'qassem', 'kassem', 'gasim'],
  ['jafar', 'jaafar', 'jafer', 'djafar'],
  ['yahya', 'yahia', 'yehia', 'yahyo'],
  ['zakariya', 'zakaria', 'zakariyya', 'zakarya'],
  ['hamid', 'hamed', 'hamidou'],
  ['rashid', 'rasheed', 'rachid'],
  ['muammar', 'moammar', 'moamer'],
  ['abdulaziz', 'abdelaziz', 'abdul aziz'],
  ['abdurrahman', 'abdulrahman', 'abdelrahman', 'abdel rahman'],
  ['nasser', 'nasir', 'naser', 'nassir'],
  ['faisal', 'faysal', 'feisal'],
  ['jamal', 'gamal', 'djamal'],
  ['mansur', 'mansour', 'mansoor'],
  ['nur', 'noor', 'nour'],
  ['aleksandr', 'alexander', 'aleksander', 'alexandr', 'aleksandar', 'alexandre', 'alyaksandr', 'oleksandr'],
  ['aleksei', 'alexei', 'alexey', 'aleksey', 'oleksiy', 'oleksii', 'aliaksei'],
  ['andrei', 'andrey', 'andriy', 'andrii', 'andrej'],
  ['anatoly', 'anatoliy', 'anatolii', 'anatoli'],
  ['arkady', 'arkadiy', 'arkadii', 'arkadi'],
  ['boris', 'borys'],
  ['dmitry', 'dmitri', 'dmitriy', 'dmitrii', 'dmytro', 'dzmitry'],
  ['evgeny', 'yevgeny', 'evgeniy', 'yevgeniy', 'evgenii', 'yevhen', 'yevgeni', 'evgeni', 'jevgenij'],
  ['gennady', 'gennadiy', 'gennadii', 'hennadiy'],
  ['georgy', 'georgiy', 'georgii', 'heorhiy'],
  ['grigory', 'grigoriy', 'grigorii', 'hryhoriy'],
  ['igor', 'ihor'],
  ['ilya', 'ilia', 'illia', 'ilja'],
  ['konstantin', 'kostiantyn', 'kostyantyn', 'constantin'],
  ['maksim', 'maxim', 'maksym'],
  ['mikhail', 'mikhael', 'mykhailo', 'mikhal'],
  ['nikolai', 'nikolay', 'mykola', 'nicolai', 'nikolaj'],
  ['oleg', 'oleh'],
  ['pyotr', 'petr', 'piotr', 'petro'],
  ['sergei', 'sergey', 'serhiy', 'serhii', 'sergiy', 'sergii', 'siarhei', 'sergej', 'sergejs'],
  ['vadim', 'vadym'],
  ['valery', 'valeriy', 'valerii'],
  ['vasily', 'vasiliy', 'vasyl', 'vasilii', 'wassili'],
  ['viktor', 'victor', 'wiktor'],
  ['vitaly', 'vitaliy', 'vitalii'],
  ['vladimir', 'volodymyr', 'wladimir', 'uladzimir', 'vladymyr'],
  ['vyacheslav', 'viacheslav', 'vjaceslav'],
  ['yury', 'yuri', 'yuriy', 'iurii', 'jurij', 'yurii'],
  ['yakov', 'iakov', 'jakov', 'yaakov', 'yaacov'],
  ['yelena', 'elena', 'olena', 'alena'],
  ['yekaterina', 'ekaterina', 'kateryna'],
  ['natalya', 'natalia', 'nataliya'],
  ['tatyana', 'tatiana', 'tetiana', 'tetyana'],
  ['yulia', 'yuliya', 'iuliia', 'julia'],
  ['olga', 'olha'],
  ['fyodor', 'fedor', 'fiodor', 'fedir'],
  ['pavel', 'pavlo'],
  ['binyamin', 'benjamin', 'benyamin', 'veniamin'],
  ['avraham', 'avrohom'],
  ['yitzhak', 'yitzchak', 'itzhak', 'yitshak'],
  ['yosef', 'yossef'],
  ['mordechai', 'mordecai', 'mordekhai'],
  ['eliyahu', 'eliahu'],
  ['xi', 'hsi'],
  ['zhou', 'chou'],
  ['zhang', 'chang'],
  ['li', 'lee', 'ri', 'yi', 'rhee'],
  ['park', 'pak', 'bak'],
  ['kim', 'gim'],
  ['choe', 'choi', 'choy'],
  ['jong', 'jeong', 'chong', 'chung', 'jung'],
];

/**
 * Diminutives and hypocorisms: a different token, not a spelling, so scored below a
 * transliteration. Each group is a formal name (first) and its common short forms, from general
 * knowledge of English, Slavic, Hebrew, Arabic and Spanish naming; a short form may belong to
 * several names ("sasha", "slava", "eli").
 */
const NICKNAME_GROUPS: readonly string[][] = [
  // English
  ['william', 'bill', 'billy', 'will', 'willy', 'liam'],
  ['robert', 'bob', 'bobby', 'rob', 'robbie', 'bert'],
  ['richard', 'dick', 'rick', 'ricky', 'rich', 'richie'],
  ['james', 'jim', 'jimmy', 'jamie'],
  ['michael', 'mike', 'mikey', 'mick'],
  ['thomas', 'tom', 'tommy'],
  ['joseph', 'joe', 'joey'],
  ['john', 'jack', 'johnny'],
  ['charles', 'charlie', 'chuck'],
  ['edward', 'eddie', 'ted', 'ned'],
  ['theodore', 'ted', 'teddy', 'theo'],
  ['elizabeth', 'liz', 'beth', 'betty', 'eliza', 'lisa', 'betsy', 'libby'],
  ['margaret', 'maggie', 'peggy', 'meg'],
  ['katherine', 'catherine', 'kate', 'kathy', 'cathy', 'katie'],
  ['alexander', 'alex', 'sasha', 'sandy'],
  ['alexandra', 'alex', 'sasha', 'sandra'],
  ['anthony', 'tony'],
  ['benjamin', 'ben', 'benny'],
  ['christopher', 'chris'],
  ['christina', 'chris', 'tina'],
  ['daniel', 'dan', 'danny'],
  ['david', 'dave', 'davy'],
  ['jonathan', 'jon'],
  ['joshua', 'josh'],
  ['matthew', 'matt'],
  ['nicholas', 'nick', 'nicky'],
  ['patrick', 'pat', 'paddy'],
  ['peter', 'pete'],
  ['samuel', 'sam', 'sammy'],
  ['stephen', 'steven', 'steve'],
  ['timothy', 'tim'],
  ['andrew', 'andy', 'drew'],
  ['donald', 'don', 'donny'],
  ['ronald', 'ron', 'ronny'],
  ['gerald', 'gerry', 'jerry'],
  ['lawrence', 'larry'],
  ['harold', 'harry', 'hal'],
  ['henry', 'hank', 'harry'],
  ['frederick', 'fred', 'freddy'],
  ['francis', 'frank', 'frankie'],
  ['gregory', 'greg'],
  ['jeffrey', 'jeff'],
  ['kenneth', 'ken', 'kenny'],
  ['leonard', 'len', 'lenny'],
  ['nathaniel', 'nathan', 'nate', 'nat'],
  ['raymond', 'ray'],
  ['walter', 'walt'],
  ['philip', 'phil'],
  ['douglas', 'doug'],
  ['abraham', 'abe'],
  ['jennifer', 'jenny', 'jen'],
  ['susan', 'sue', 'suzy'],
  ['deborah', 'debbie', 'deb'],
  ['rebecca', 'becky'],
  ['patricia', 'patty', 'trish'],
  ['victoria', 'vicky', 'tori'],
  ['jessica', 'jess', 'jessie'],
  ['abigail', 'abby'],
  ['barbara', 'barb', 'babs'],
  ['cynthia', 'cindy'],
  ['dorothy', 'dot', 'dottie'],
  ['judith', 'judy'],
  ['pamela', 'pam'],
  ['sarah', 'sally', 'sadie'],
  ['mary', 'molly', 'polly'],
  ['teresa', 'theresa', 'terri', 'tess'],
  // Russian, Ukrainian, Belarusian
  ['aleksandr', 'sasha', 'shura', 'sanya'],
  ['aleksei', 'alyosha', 'lyosha'],
  ['anatoly', 'tolya'],
  ['boris', 'borya'],
  ['dmitry', 'dima', 'mitya'],
  ['evgeny', 'zhenya'],
  ['fyodor', 'fedya'],
  ['georgy', 'zhora', 'gosha'],
  ['grigory', 'grisha'],
  ['ivan', 'vanya'],
  ['konstantin', 'kostya'],
  ['leonid', 'lyonya'],
  ['maksim', 'max'],
  ['mikhail', 'misha'],
  ['nikolai', 'kolya'],
  ['pavel', 'pasha'],
  ['pyotr', 'petya'],
  ['sergei', 'seryozha', 'serezha'],
  ['stanislav', 'stas', 'slava'],
  ['vladimir', 'vova', 'volodya'],
  ['vladislav', 'vlad', 'slava'],
  ['vyacheslav', 'slava'],
  ['vasily', 'vasya'],
  ['viktor', 'vitya'],
  ['yakov', 'yasha'],
  ['yury', 'yura'],
  ['yekaterina', 'katya'],
  ['yelena', 'lena'],
  ['natalya', 'natasha'],
  ['olga', 'olya'],
  ['tatyana', 'tanya'],
  ['maria', 'masha'],
  ['anna', 'anya'],
  ['svetlana', 'sveta'],
  ['lyudmila', 'lyuda'],
  ['nadezhda', 'nadya'],
  ['irina', 'ira'],
  ['anastasia', 'nastya'],
  ['darya', 'dasha'],
  // Hebrew
  ['binyamin', 'bibi', 'beni', 'benny'],
  ['avraham', 'avi'],
  ['yitzhak', 'itzik', 'tzachi'],
  ['yakov', 'kobi', 'yaki'],
  ['yosef', 'yossi'],
  ['shmuel', 'shmulik', 'muli'],
  ['moshe', 'moishe', 'moshik'],
  ['mordechai', 'motti', 'moti'],
  ['david', 'dudu'],
  ['eliyahu', 'eli'],
  ['eliezer', 'eli'],
  // Arabic
  ['muhammad', 'hamoudi'],
  ['abdullah', 'abboud'],
  // Spanish, Italian, German
  ['francisco', 'paco', 'pancho', 'curro'],
  ['jose', 'pepe'],
  ['manuel', 'manolo'],
  ['ignacio', 'nacho'],
  ['enrique', 'quique'],
  ['dolores', 'lola'],
  ['giuseppe', 'beppe', 'peppe'],
  ['johannes', 'hans'],
];

function groupIndex(groups: readonly string[][]): Map<string, string> {
  const index = new Map<string, string>();
  for (const group of groups) {
    const key = group[0]!;
    for (const spelling of group)
      if (!spelling.includes(' ') && !index.has(spelling)) index.set(spelling, key);
  }
  return index;
}

const SPELLINGS = groupIndex(TRANSLITERATION_GROUPS);

/**
 * Canonical spelling of a name -> canonical spellings of the formal names it is a short form of
 * (a formal name maps to itself). One name can have several diminutives and a diminutive
 * several names ("sasha").
 */
const NICKNAMES = new Map<string, Set<string>>();
for (const group of NICKNAME_GROUPS) {
  const formal = canonicalSpelling(group[0]!);
  for (const name of group) {
    const key = canonicalSpelling(name);
    const set = NICKNAMES.get(key) ?? new Set<string>();
    set.add(formal);
    NICKNAMES.set(key, set);
  }
}

/** The canonical spelling of a name part ("mohamed" -> "muhammad"), or the part itself. */
export function canonicalSpelling(token: string): string {
  return SPELLINGS.get(token) ?? token;
}

/**
 * True when one is a known diminutive of the other, or both are diminutives of one name.
 * Takes canonical spellings (NameToken.key).
 */
export function areNicknames(a: string, b: string): boolean {
  const left = NICKNAMES.get(a);
  const right = NICKNAMES.get(b);
  if (!left || !right) return false;
  for (const name of left) if (right.has(name)) return true;
  return false;
}

/**
 * Spanish and Portuguese patronymic surnames beside the given names they were made from ("son of
 * Sancho": Sánchez, Sanches). Two letters apart, each pair is within a fuzzy match's edit budget,
 * yet a Sancho is not a Sánchez: "Pedro Sancho" and "Pedro Sánchez" are two people, as "Pedro
 * Martín" and "Pedro Martínez" are. Pairs one letter apart (Lope / López, Enrique / Enríquez) are
 * left out: one letter is also a typo. Each group: the given name, then its patronymics.
 */
const PATRONYMIC_GROUPS: readonly (readonly string[])[] = [
  ['sancho', 'sanchez', 'sanches'],
  ['martin', 'martinez'],
  ['martim', 'martins'],
  ['rodrigo', 'rodriguez', 'rodrigues'],
  ['fernando', 'fernandez', 'fernandes'],
  ['hernando', 'hernandez', 'hernandes'],
  ['gonzalo', 'gonzalez'],
  ['alvaro', 'alvarez', 'alvares'],
  ['ramiro', 'ramirez', 'ramires'],
  ['benito', 'benitez'],
  ['jimeno', 'jimenez'],
  ['mendo', 'mendez', 'mendes'],
  ['nuno', 'nunez', 'nunes'],
  ['ordono', 'ordonez'],
  ['galindo', 'galindez'],
  ['lopo', 'lopes'],
  ['pero', 'perez', 'peres'],
];

/** Canonical spelling of a patronymic -> that of the given name it was made from. */
const PATRONYMIC_ROOTS = new Map<string, string>(
  PATRONYMIC_GROUPS.flatMap(([root, ...patronymics]) =>
    patronymics.map((patronymic) => [canonicalSpelling(patronymic), canonicalSpelling(root!)] as const),
  ),
);

/** True when one is a patronymic surname made from the other ("sanchez" / "sancho"). Takes keys. */
export function arePatronymicAndRoot(a: string, b: string): boolean {
  return PATRONYMIC_ROOTS.get(a) === b || PATRONYMIC_ROOTS.get(b) === a;
}

/**
 * Titles, honorifics and ranks dropped from the front of a person's name ("President Erdogan",
 * "Mr. Rami Makhlouf", "Shaikh Isa"). Only leading tokens are dropped, and never the last one.
 */
export const PERSON_TITLES: ReadonlySet<string> = new Set([
  'the',
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'doctor',
  'prof',
  'professor',
  'sir',
  'dame',
  'lord',
  'baron',
  'baroness',
  'count',
  'countess',
  'vice',
  'deputy',
  'prime',
  'president',
  'presidente',
  'praesident',
  'prasident',
  'president-elect',
  'minister',
  'premier',
  'chancellor',
  'rt',
  'hon',
  'honourable',
  'honorable',
  'chief',
  'senior',
  'grand',
  'field',
  'brig',
  'senator',
  'sen',
  'rep',
  'representative',
  'congressman',
  'congresswoman',
  'governor',
  'gov',
  'mayor',
  'judge',
  'justice',
  'ambassador',
  'general',
  'gen',
  'colonel',
  'col',
  'major',
  'maj',
  'captain',
  'capt',
  'lieutenant',
  'lt',
  'sergeant',
  'sgt',
  'admiral',
  'adm',
  'commander',
  'cdr',
  'marshal',
  'brigadier',
  'sheikh',
  'shaikh',
  'shaykh',
  'sheik',
  'cheikh',
  'haji',
  'hajji',
  'hadji',
  'alhaji',
  'mullah',
  'mulla',
  'maulavi',
  'mawlawi',
  'maulvi',
  'mawlavi',
  'maulana',
  'mawlana',
  'imam',
  'ayatollah',
  'hojatoleslam',
  'qari',
  'hafiz',
  'prince',
  'princess',
  // Malaysian honorifics; "Tan Sri" and the "Seri" of "Dato' Seri" are read in nameTokens.
  'dato',
  'datuk',
  'datin',
  'tunku',
  'tengku',
  'king',
  'queen',
  'emperor',
  'empress',
  'duke',
  'duchess',
  'emir',
  'hrh',
  'highness',
  'excellency',
  'his',
  'her',
  'rev',
  'reverend',
  'pastor',
  'bishop',
  'archbishop',
  'cardinal',
  'patriarch',
  'pope',
  'father',
  'engr',
  'eng',
  'ing',
  'dipl',
]);

/**
 * The honorifics of PERSON_TITLES as an Arabic-script name spells them once transliterated
 * (arabicSpelling, no short vowels): قاري Qari, ملا Mullah, شيخ Sheikh, حاجي Haji, مولوي Mawlawi,
 * مولانا Maulana, مفتي Mufti. Latin titles are not read in a transliteration: عمر (Umar) is "mr".
 */
export const ABJAD_TITLES: ReadonlySet<string> = new Set([
  'qari',
  'mla',
  'mlla',
  'shykh',
  'haji',
  'haj',
  'mwlwi',
  'mwlwy',
  'mwlana',
  'mfti',
  // سید, written so by text.ts (arabicSpelling).
  'seyyed',
]);

/**
 * Name particles: articles and kinship words that connect name parts. They weigh little, and the
 * spellings of one particle are equal ("al" = "el", "bin" = "ben" = "ibn").
 */
const PARTICLES = new Map<string, string>([
  ['al', 'al'],
  ['el', 'al'],
  ['ul', 'al'],
  ['ur', 'al'],
  ['ud', 'al'],
  ['ad', 'al'],
  ['ed', 'al'],
  ['ash', 'al'],
  ['as', 'al'],
  ['at', 'al'],
  ['az', 'al'],
  ['bin', 'bin'],
  ['ben', 'bin'],
  ['ibn', 'bin'],
  ['bn', 'bin'],
  ['bint', 'bint'],
  ['binti', 'bint'],
  ['binte', 'bint'],
  ['bte', 'bint'],
  ['abu', 'abu'],
  ['abou', 'abu'],
  ['abo', 'abu'],
  ['umm', 'umm'],
  ['um', 'umm'],
  ['ould', 'ould'],
  ['van', 'van'],
  ['von', 'van'],
  ['vom', 'van'],
  ['der', 'der'],
  ['den', 'der'],
  ['ter', 'der'],
  ['ten', 'der'],
  ['de', 'de'],
  ['da', 'de'],
  ['du', 'de'],
  ['dos', 'de'],
  ['das', 'de'],
  ['del', 'de'],
  ['della', 'de'],
  ['des', 'de'],
  ['y', 'y'],
  ['zu', 'zu'],
]);

/**
 * Particles as an Arabic-script name spells them once transliterated (arabicSpelling, no short
 * vowels): ابو and أبو (the hamza left out) are Abu. The article and بن already read as Latin does.
 */
const ABJAD_PARTICLES = new Map<string, string>([
  ['abw', 'abu'],
  ['bw', 'abu'],
]);

/** The canonical particle ("el" -> "al"), or undefined when the token is no particle. */
export function particleOf(token: string, abjad = false): string | undefined {
  return (abjad ? ABJAD_PARTICLES.get(token) : undefined) ?? PARTICLES.get(token);
}

const PATRONYMIC_ENDINGS = [
  'ovich',
  'evich',
  'ovych',
  'evych',
  'ovitch',
  'evitch',
  'ovna',
  'evna',
  'ivna',
  'ichna',
  'ogly',
  'oglu',
  'kyzy',
  'qizi',
];

/** Russian/Ukrainian/Turkic patronymic by its ending ("Viktorovich", "Borisovitch", "Ivanovna"). */
export function looksLikePatronymic(token: string): boolean {
  if (token.length < 6) return false;
  for (const ending of PATRONYMIC_ENDINGS) if (token.endsWith(ending)) return true;
  return false;
}
