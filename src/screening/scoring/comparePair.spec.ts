import { describe, expect, it } from 'vitest';
import { scoreNamePair } from './comparePair.js';
import { defaultProfile, findProfile } from './profiles.js';
import { nameOnlyScore } from './scoreWeights.js';

const standard = defaultProfile();
const strict = findProfile('strict')!;
const broad = findProfile('broad')!;
/** A person's name against another, as a screening with the default profile would judge them. */
const match = (a: string, b: string) => scoreNamePair('person', a, b, standard).match;

describe('scoreNamePair', () => {
  it('scores an exact name as a screening would with no other evidence: 0.9, a match', () => {
    expect(scoreNamePair('person', 'Vladimir Putin', 'PUTIN, Vladimir', standard)).toEqual({
      score: nameOnlyScore(1),
      match: true,
    });
  });

  it('passes over a generation one side leaves out, and tells two generations apart', () => {
    expect(match('Angus S. King, Jr.', 'Angus King')).toBe(true);
    expect(match('Matiullah Sr.', 'Matiullah')).toBe(true);
    expect(match('Matiullah PhD', 'Matiullah')).toBe(true);
    expect(match('John Smith Jr.', 'John Smith II')).toBe(true);
    expect(match('John Smith Jr.', 'John Smith Sr.')).toBe(false);
    expect(match('John Albert Smith II', 'John Albert Smith III')).toBe(false);
  });

  it('reads a Belarusian ў as the в of the Russian form Latin spellings come from', () => {
    expect(match('Марозаў Уладзімір Міхайлавіч', 'Vladimir Mikhailovich MOROZOV')).toBe(true);
    expect(match('Алег Анатольевіч Эйбатаў', 'Oleg Anatolyevich EIBATOV')).toBe(true);
    expect(match('Марозаў Уладзімір Міхайлавіч', 'Vladimir Mikhailovich MOROZ')).toBe(false);
  });

  it('hears a foreign name in Chinese characters or Hangul whole, the Latin name\'s "particle" a given name', () => {
    // Al is the Arabic article to a Latin reader; a name written by its sound has no particles.
    expect(match('艾尔·弗兰肯', 'Al Franken')).toBe(true);
    expect(match('앨 프랭큰', 'Al Franken')).toBe(true);
    // The sound must still agree: 本 (B N) is no Al.
    expect(match('本·弗兰肯', 'Al Franken')).toBe(false);
  });

  it('hears the r a Hangul or Chinese transcription of a non-English name writes after a vowel', () => {
    expect(match('마르코 루비오', 'Marco Rubio')).toBe(true);
    // English names keep their r unsaid: 워너 is Warner.
    expect(match('마크 워너', 'Mark Warner')).toBe(true);
    expect(match('마르코 루비오', 'Mako Rubio')).toBe(false);
  });

  it('hears a foreign name in katakana by its consonants, past the vowels Japanese adds', () => {
    expect(match('デイヴィッド・キャメロン', 'David Cameron')).toBe(true);
    expect(match('ドナルド・トランプ', 'Donald Trump')).toBe(true);
    expect(match('マーガレット・サッチャー', 'Margaret Thatcher')).toBe(true);
    expect(match('チャック・シューマー', 'Chuck Schumer')).toBe(true);
    expect(match('キルステン・ジリブランド', 'Kirsten Gillibrand')).toBe(true);
    // Voiced and voiceless stay apart, and another name is another skeleton.
    expect(match('ドナルド・トランプ', 'Donald Drumm')).toBe(false);
    expect(match('デイヴィッド・キャメロン', 'David Carlson')).toBe(false);
  });

  it('hears the sch of a German name as the sh a transcription writes', () => {
    expect(match('布萊恩·夏茲', 'Brian Schatz')).toBe(true);
    expect(match('Чак Шумер', 'Chuck Schumer')).toBe(true);
    expect(match('布萊恩·夏茲', 'Brian Scott')).toBe(false);
  });

  it('hears the El of a name in Persian letters as its own, not the Arabic article', () => {
    expect(match('الیزابت وارن', 'Elizabeth Warren')).toBe(true);
    expect(match('الیزابت وارن', 'Elizabeth Wood')).toBe(false);
  });

  it('hears a Greek χ as a foreign h and τς as ch or ts', () => {
    expect(match('Όριν Χατς', 'Orrin Hatch')).toBe(true);
    expect(match('Κλάιβ Μπετς', 'Clive Betts')).toBe(true);
  });

  it('reads ji, jin and qi in a transcription as the k or g before i Mandarin lacks', () => {
    expect(match('安格斯·金', 'Angus King')).toBe(true);
    expect(match('基思·艾利森', 'Keith Ellison')).toBe(true);
    expect(match('安格斯·林', 'Angus King')).toBe(false);
  });

  it('hears a pinyin x spelled sh, and tells an Iberian patronymic from the given name it comes from', () => {
    expect(match('Shi Jinping', 'Xi Jinping')).toBe(true);
    expect(match('Liu Shiaobo', 'Liu Xiaobo')).toBe(true);
    expect(match('Pedro Sancho', 'Pedro Sánchez')).toBe(false);
    expect(match('Fernando Rodrigo', 'Fernando Rodríguez')).toBe(false);
    expect(match('Pedro Sanches', 'Pedro Sánchez')).toBe(true);
  });

  it('meets a name in Cyrillic word by word by its sound or its letters, whichever each word needs', () => {
    // Andrew heard (Эндрю), Griffiths spelled (Griffits); Thad heard (Тад), Cochran spelled (Kokhran).
    expect(match('Эндрю Гриффитс', 'Andrew Griffiths')).toBe(true);
    expect(match('Тад Кохран', 'Thad Cochran')).toBe(true);
    expect(match('Тад Кохран', 'Thad Cooper')).toBe(false);
    // Not by the letters' metaphone code, which would hear Betts as Potts.
    expect(match('Клайв Беттс', 'Clive Potts')).toBe(false);
  });

  it('rounds the score to three decimals', () => {
    const { score } = scoreNamePair('person', 'Vladimir Putn', 'Vladimir Putin', standard);
    expect(score).toBeLessThan(0.9);
    expect(Math.round(score * 1000) / 1000).toBe(score);
  });

  it('rejects a different family name under every profile, and unrelated names score 0', () => {
    for (const profile of [standard, strict, broad]) {
      expect(scoreNamePair('person', 'Ivan Petrov', 'Ivan Sidorov', profile).match).toBe(false);
      expect(scoreNamePair('person', 'Vladimir Putin', 'Sergey Lavrov', profile)).toEqual({
        score: 0,
        match: false,
      });
    }
  });

  it('decides at the profile threshold: a partial company name passes default and broad, not strict', () => {
    const pair = (profile = standard) => scoreNamePair('company', 'Rosneft', 'Rosneft Oil Company', profile);
    const { score } = pair();
    expect(score).toBeGreaterThanOrEqual(standard.threshold);
    expect(score).toBeLessThan(strict.threshold);
    expect(pair(broad).match).toBe(true);
    expect(pair(standard).match).toBe(true);
    expect(pair(strict).match).toBe(false);
  });

  it("uses the profile's fuzziness: a dropped letter matches by default but not under strict", () => {
    const typo = (profile = standard) => scoreNamePair('person', 'Vladimir Putn', 'Vladimir Putin', profile);
    expect(typo(standard).match).toBe(true);
    expect(typo(strict).match).toBe(false);
    expect(typo(strict).score).toBeLessThan(typo(standard).score);
  });

  it('reads words typed backwards the right way round, told by the capital at their end', () => {
    expect(scoreNamePair('person', 'rimidalV nituP', 'Vladimir Putin', standard).score).toBe(0.9);
    expect(scoreNamePair('person', 'Vladimir nitPu', 'Vladimir Putin', standard).match).toBe(true);
    expect(scoreNamePair('company', 'tfensoR', 'Rosneft', standard).match).toBe(true);
    expect(scoreNamePair('person', 'Kim li-gnawK', 'Kim Kwang-il', standard).score).toBe(0.9);
    // Backwards in capitals or small letters alone, a word cannot be told from a name.
    expect(scoreNamePair('person', 'rimidalv nitup', 'Vladimir Putin', standard).match).toBe(false);
  });

  it('reads words glued with their capitals kept apart, and passes over marks put inside a word', () => {
    expect(
      scoreNamePair(
        'person',
        'Ali BenTaher Ben Faleh Ouni Harzi',
        'Ali Ben Taher Ben Faleh Ouni Harzi',
        standard,
      ).score,
    ).toBe(0.9);
    expect(scoreNamePair('person', 'K*im Se Gon', 'Kim Se Gon', standard).score).toBe(0.9);
    expect(scoreNamePair('person', 'K.im Kyu', 'Kim Kyu', standard).score).toBe(0.9);
  });

  it("reads digits in a person's name as the letters they look like", () => {
    expect(scoreNamePair('person', 'P4k Il Kyu', 'Pak Il Kyu', standard).score).toBe(0.9);
    expect(scoreNamePair('person', 'Ig0r Sech1n', 'Igor Sechin', standard).score).toBe(0.9);
    expect(scoreNamePair('person', 'A1i Hassan', 'Ali Hassan', standard).score).toBe(0.9);
    // Not in a company's name, where digits are the name's own ("G4S" is no gas company).
    expect(scoreNamePair('company', 'G4S', 'GAS', standard).match).toBe(false);
  });

  it('meets a slip of the key in a Korean name, not a syllable changed into another', () => {
    // "Jomg" and "Psk" are no Korean syllable: each is one key away from "Jong" and "Pak".
    expect(scoreNamePair('person', 'Kim Jomg Sik', 'KIM JONG SIK', standard).match).toBe(true);
    expect(scoreNamePair('person', 'Psk Han Se', 'PAK HAN SE', standard).match).toBe(true);
    expect(scoreNamePair('person', 'KIM, Chpl Sam', 'KIM CHOL SAM', standard).match).toBe(true);
    // "Song" is a syllable: Kim Song Sik is another name, and a family name is not met by a given name.
    expect(scoreNamePair('person', 'Kim Song Sik', 'KIM JONG SIK', standard).match).toBe(false);
    expect(scoreNamePair('person', 'Kamg Chol Su', 'KANG CHOL SU', standard).match).toBe(true);
    expect(scoreNamePair('person', 'Kamg Chol Su', 'KAM CHOL SU', standard).match).toBe(false);
    // Under the strict profile, a whole key's slip is past the budget.
    expect(scoreNamePair('person', 'Kim Jomg Sik', 'KIM JONG SIK', strict).match).toBe(false);
  });

  it('reads both names as the given kind', () => {
    // A person's "SURNAME, Given" is only reordered when the names are read as persons.
    expect(scoreNamePair('person', 'YANUKOVYCH, Viktor', 'Viktor Yanukovych', standard).score).toBe(0.9);
    expect(scoreNamePair('company', 'YANUKOVYCH, Viktor', 'Viktor Yanukovych', standard).score).toBeLessThan(
      0.9,
    );
  });
});

describe('scoreNamePair across Arabic script and Latin spellings', () => {
  it('matches names of UN-listed people written in Arabic with their Latin spellings', () => {
    // Each fixes a class: two z around a vowel (Aziz), ta marbuta (Hamza), the article on the
    // word (al-Majid), w as the long u (Yunis), a one-consonant name (Ali), the long a (Bilal).
    expect(match('طارق عزيز', 'TARIQ AZIZ')).toBe(true);
    expect(match('محمد حمزة زبيدي', 'MUHAMMAD HAMZA ZUBAIDI')).toBe(true);
    expect(match('علي حسن المجيد', 'ALI HASSAN AL-MAJID')).toBe(true);
    expect(match('محمد يونس أحمد', 'MUHAMMAD YUNIS AHMAD')).toBe(true);
    expect(match('بلال بن مروان', 'BILAL BIN MARWAN')).toBe(true);
    // A compound Arabic writes in two words and Latin in one.
    expect(match('جمال مصطفى عبد الله سلطان التكريتي', 'JAMAL MUSTAFA ABDALLAH SULTAN AL-TIKRITI')).toBe(
      true,
    );
    expect(match('يحيى عبد الله العبيدي', 'YAHIA ABDALLAH AL-UBAIDI')).toBe(true);
    // ... and the other way round, the article of the compound left for the other article.
    expect(
      match('برزان عبد الغفور سليمان مجيد التكريتي', 'BARZAN ABD AL-GHAFUR SULAIMAN MAJID AL-TIKRITI'),
    ).toBe(true);
  });

  it('matches a word written without its vowels, as an abjad writes it', () => {
    expect(match('Mhmd Ali', 'Mohammed Ali')).toBe(true);
    expect(match('Vldmr Ptn', 'Vladimir Putin')).toBe(true);
    expect(match('Vldmr Ptn', 'Vladimir Popov')).toBe(false);
  });

  it('hears foreign names written in Persian or Arabic letters, not native names heard alike', () => {
    expect(match('دیوید جونز', 'David Jones')).toBe(true);
    expect(match('کریس مورفی', 'Chris Murphy')).toBe(true);
    expect(match('فيليب هاموند', 'Philip Hammond')).toBe(true);
    expect(match('مایکل مکول', 'Michael McCaul')).toBe(true);
    expect(match('سفير آل حسين', 'HUSSAIN, Zafar Anis Ishteyaq')).toBe(false);
    expect(match('أزهار آل خضير', 'Zuhayr Haydar')).toBe(false);
  });

  it('matches names written in Hebrew with their Latin spellings', () => {
    expect(match('צבי בר יוסף', 'ZVI BAR YOSEF')).toBe(true);
    expect(match('שלום זיכרמן', 'SHALOM ZICHERMAN')).toBe(true);
    expect(match("בוריס ג'ונסון", 'BORIS JOHNSON')).toBe(true);
  });

  it('matches names written in Greek with their Latin spellings', () => {
    expect(match('Τομ Γουάτσον', 'Tom Watson')).toBe(true);
    expect(match('Αλέξης Τσίπρας', 'Alexis Tsipras')).toBe(true);
  });

  it('matches North Korean names written in Hangul with their McCune-Reischauer spellings', () => {
    expect(match('박봉주', 'Pak Pong-ju')).toBe(true);
    expect(match('황병서', 'Hwang Pyong-so')).toBe(true);
    expect(match('강석주', 'Kang Sok-ju')).toBe(true);
    // The parts split the syllables elsewhere than the whole word: hyeong-yu against Hyon-gyu.
    expect(match('김현규', 'Kim Hyon-gyu')).toBe(true);
    // Syllable by syllable, as lists write given names in parts.
    expect(match('최룡해', 'CHOE, Ryong Hae')).toBe(true);
    // A syllable one letter from another is another syllable: 영 yong is not jong, 상 sang not chang.
    expect(match('영식 김', 'KIM, Jong Sik')).toBe(false);
    expect(match('상호 박', 'Pak Chang-Ho')).toBe(false);
  });

  it('matches Korean names written in Hanja with their McCune-Reischauer spellings', () => {
    expect(match('金正恩', 'Kim Jong Un')).toBe(true);
    expect(match('崔龍海', 'Choe Ryong Hae')).toBe(true);
    // 金 is Kim as a family name; read as the word for gold (금, Kum) the name would not match.
    expect(match('金正日', 'Kim Jong Il')).toBe(true);
    // The Korean reading is one more reading of the characters: the pinyin one still matches.
    expect(match('习近平', 'Xi Jinping')).toBe(true);
    // Another given name is another person, Kim or not.
    expect(match('金平', 'Kim Jong Un')).toBe(false);
    // Only names that start with a Korean family name, as Korea writes it, are read as Korean: the
    // simplified 张 is mainland Chinese (张成泽 is Zhang Chengze).
    expect(match('張成澤', 'Jang Song Taek')).toBe(true);
    expect(match('张成泽', 'Jang Song Taek')).toBe(false);
  });

  it('matches Japanese names in kanji or kana with their Hepburn spellings, both ways', () => {
    expect(match('安倍晋三', 'Abe Shinzo')).toBe(true);
    expect(match('Shinzou ABE', '安倍晋三')).toBe(true);
    expect(match('岸田 文雄', 'KISHIDA, Fumio')).toBe(true);
    expect(match('あべ しんぞう', 'Abe Shinzo')).toBe(true);
    // Another given name is another person.
    expect(match('安倍晋三', 'Abe Akie')).toBe(false);
  });

  it('matches foreign names written in katakana with their Latin spellings', () => {
    expect(match('テッド・クルーズ', 'Ted Cruz')).toBe(true);
    expect(match('ティム・スコット', 'Tim Scott')).toBe(true);
    expect(match('アラン・ジョンソン', 'Alan Johnson')).toBe(true);
    expect(match('ビル・ネルソン', 'Bill Nelson')).toBe(true);
    expect(match('テッド・クルーズ', 'Ted Kennedy')).toBe(false);
  });

  it('hears an English spelling as katakana writes it: silent letters, non-rhotic r, th as s', () => {
    expect(match('マーク・ウォーナー', 'Mark Warner')).toBe(true);
    expect(match('ジョン・スーン', 'John Thune')).toBe(true);
    expect(match('トム・コール', 'Tom Cole')).toBe(true);
    expect(match('サム・ファー', 'Sam Farr')).toBe(true);
    expect(match('ミッチ・マコーネル', 'Mitch McConnell')).toBe(true);
    // The family name still has to sound alike.
    expect(match('ジョン・スーン', 'John Tester')).toBe(false);
    expect(match('マーク・ウォーナー', 'Mark Kelly')).toBe(false);
  });

  it('matches foreign names in Chinese characters by their sound (both directions)', () => {
    expect(match('鲍里斯·约翰逊', 'Boris Johnson')).toBe(true);
    expect(match('乔治·奥斯本', 'George Osborne')).toBe(true);
    expect(match('道格拉斯·卡斯維爾', 'Douglas Carswell')).toBe(true);
    expect(match('马修·汉考克', 'Matthew Hancock')).toBe(true);
    expect(match('Alan Duncan', '阿蘭·鄧肯')).toBe(true);
    // Another family name is another person; without the middle dot the name is read as a
    // Chinese one, in pinyin only.
    expect(match('鲍里斯·约翰逊', 'Boris Becker')).toBe(false);
    expect(match('乔治·奥斯本', 'George Clooney')).toBe(false);
    expect(match('乔治 奥斯本', 'George Osborne')).toBe(false);
  });

  it('matches foreign names in Hangul by their sound, Korean names by their syllables', () => {
    expect(match('보리스 존슨', 'Boris Johnson')).toBe(true);
    expect(match('테드 크루즈', 'Ted Cruz')).toBe(true);
    expect(match('필립 해먼드', 'Philip Hammond')).toBe(true);
    expect(match('Mitch McConnell', '미치 매코널')).toBe(true);
    expect(match('보리스 존슨', 'Boris Becker')).toBe(false);
    // Two consonants are too few to forgive an edit: Boris (B L S) is not Bill (B L).
    expect(match('보리스 존슨', 'Bill Johnson')).toBe(false);
    expect(match('김정은', 'Kim Jong Un')).toBe(true);
  });

  it('hears names in Hebrew letters: one letter for p and f, for b and v, vowel letters', () => {
    expect(match('ביל פוסטר', 'Bill Foster')).toBe(true);
    expect(match('פיליפ המונד', 'Philip Hammond')).toBe(true);
    expect(match('סטיב ישראל', 'Steve Israel')).toBe(true);
    // Short skeletons are common to many names: Eden Levi (D N / L) is not Dawn Haley.
    expect(match('עדן לוי', 'Dawn Haley')).toBe(false);
    expect(match('ביל פוסטר', 'Bill Porter')).toBe(false);
  });

  it('hears English names written in Cyrillic: дж for j, у for w, г or х for h, r kept', () => {
    expect(match('Джон Флеминг', 'John Fleming')).toBe(true);
    expect(match('Клайв Беттс', 'Clive Betts')).toBe(true);
    expect(match('Хувен, Джон', 'John Hoeven')).toBe(true);
    expect(match('Гайді Гайткемп', 'Heidi Heitkamp')).toBe(true);
    expect(match('Джеймс Уортон', 'James Wharton')).toBe(true);
    expect(match('Майкл Гоув', 'Michael Gove')).toBe(true);
    expect(match('Клайв Беттс', 'Clive Potts')).toBe(false);
    expect(match('Майкл Гоув', 'Michael Grove')).toBe(false);
    // Greek and Armenian write a foreign name by its sound as well.
    expect(match('Κλάιβ Μπετς', 'Clive Betts')).toBe(true);
    expect(match('Τζορτζ Όσμπορν', 'George Osborne')).toBe(true);
    expect(match('Թեդ Քրուզ', 'Ted Cruz')).toBe(true);
    // An alphabet's g is hard before e and i too (Georgian adds -i to a name: Klegi); a Latin
    // spelling of an alphabet's name may soften it (Sergei).
    expect(match('ნიკ კლეგი', 'Nick Clegg')).toBe(true);
    expect(match('Грег Гендс', 'Greg Hands')).toBe(true);
    expect(match('Сергей Бурлаков', 'Sergei Burlakov')).toBe(true);
    // Armenian writes u as ու.
    expect(match('Կիմ Ջոնգ Ուն', 'Kim Jong-un')).toBe(true);
    // Parts of two consonants, weak alone, agree as a whole name; one of them off, they do not.
    expect(match('Джон Манн', 'John Mann')).toBe(true);
    expect(match('Тім Кейн', 'Tim Kaine')).toBe(true);
    expect(match('Джон Манн', 'John Moore')).toBe(false);
    // English letters no one says are not heard: the l of Walker, the w of Wright.
    expect(match('رابین واکر', 'Robin Walker')).toBe(true);
    expect(match('杰里米·赖特', 'Jeremy Wright')).toBe(true);
    // The hearing is of English spellings: a romanised Chinese name (Meng Zhaowen) is none.
    expect(match('ჯონ მანი', '孟昭文')).toBe(false);
    // As John Mann meets it: Манн is mann letter for letter, and a list gives fuller names.
    expect(match('Джон Манн', 'John Mann Smith')).toBe(true);
  });

  it('matches Thai names with their RTGS spellings, parts joined or not', () => {
    expect(match('ประยุทธ์ จันทร์โอชา', 'Prayut Chan-o-cha')).toBe(true);
    expect(match('สมชาย วงศ์สวัสดิ์', 'Somchai Wongsawat')).toBe(true);
    expect(match('ประวิตร วงษ์สุวรรณ', 'Prawit Wongsuwan')).toBe(true);
    expect(match('สมชาย วงศ์สวัสดิ์', 'Somsak Wongsawat')).toBe(false);
  });

  it('reads a Cyrillic name as Ukrainian and Belarusian romanise it too: г as h, и as y', () => {
    expect(match('Олександр Григорович Якименко', 'Oleksandr Hryhorovych Yakymenko')).toBe(true);
    expect(match('Алег Рыгоравіч Мішчанка', 'Aleh Ryhoravich Mishchanka')).toBe(true);
    // The Russian-style reading stays.
    expect(match('Александр Григорьевич Якименко', 'Aleksandr Grigoryevich Yakimenko')).toBe(true);
  });

  it('matches Korean names written in Cyrillic with their Latin spellings', () => {
    expect(match('Ким Чен Ын', 'Kim Jong Un')).toBe(true);
    expect(match('Kim Jong-un', 'Ким Чен Ын')).toBe(true);
    expect(match('Пак Пон Джу', 'PAK Pong Ju')).toBe(true);
    expect(match('Ким Чен Ын', 'Kim Jong Il')).toBe(false);
  });

  it('keeps names that only share a consonant or two apart', () => {
    expect(match('مروان عيسى', 'Marianne Aas')).toBe(false);
    expect(match('طارق عزيز', 'TAREK ZAYED')).toBe(false);
    expect(match('علي حسن', 'ELI HAUSMANN')).toBe(false);
  });

  it('reads letters written more than one way each way, the final ي as i, and no Latin title in Arabic', () => {
    // ظ as th, ض as z, ش as the French ch, ث as s, a final ه as a, a final ي as i.
    expect(match('رشيد كاظم', 'RASHID KATHIM')).toBe(true);
    expect(match('فضل رحيم', 'FAZAL RAHIM')).toBe(true);
    expect(match('عصام علوش', 'ISAM ALOUCHE')).toBe(true);
    expect(match('نور محمد ثاقب', 'NOOR MOHAMMAD SAQIB')).toBe(true);
    expect(match('محمد جمعه', 'MUHAMMAD JUMA')).toBe(true);
    expect(match('حكمت العزاوي', 'HIKMAT AL-AZZAWI')).toBe(true);
    expect(match('ولی محمد', 'WALI MOHAMMAD')).toBe(true);
    // عمر without vowels is "mr": a name, not the title Mr.
    expect(match('عمر محمد', 'UMAR MOHAMMAD')).toBe(true);
    // Egyptian g for ج, the French soft c for س, Latin -ah for a final vowel; ت and س stay two letters.
    expect(match('رجب محمد', 'RAGAB MOHAMED')).toBe(true);
    expect(match('جمال لونيسي', 'DJAMEL LOUNICI')).toBe(true);
    expect(match('منير المتصدق', 'MOUNIR EL MOTASSADEQ')).toBe(true);
    // An honorific leads the name in Arabic script as in Latin (قاري Qari).
    expect(match('قاري سیف الله توخى', 'SAIFULLAH TOKHI')).toBe(true);
    // ولد is the particle ould; sh and an h after it are two letters (شهيد Shahid).
    expect(match('محفوظ ولد الوليد', 'MAHFOUZ OULD AL-WALID')).toBe(true);
    expect(match('شهيد', 'SHAHID')).toBe(true);
    // A compound with the article assimilated (Abderrahmane), or its repeated article left out.
    expect(match('عبد الرحمن ولد العامر', 'ABDERRAHMANE OULD EL AMAR')).toBe(true);
    expect(match('راضي أبواليزيد العياشي', 'RADI ABOU YAZID AYASHI')).toBe(true);
    // The French ou of و in a short word.
    expect(match('علي بن الطاهر العوني', 'ALI BEN TAHER OUNI')).toBe(true);
    // و and ו compared as the consonant v too (Persian, Hebrew).
    expect(match('وحید احمدی', 'VAHID AHMADI')).toBe(true);
    expect(match('דוד בן גוריון', 'DAVID BEN GURION')).toBe(true);
    // The readings widen a letter, not a name: other consonants still disagree.
    expect(match('فضل رحيم', 'FAISAL RAHIM')).toBe(false);
    expect(match('رشيد كاظم', 'RASHID KATIB')).toBe(false);
  });

  it('meets Arabic-script names in the Latin spellings the lists use (compounds, ذ ظ as z or dh, the French dj)', () => {
    expect(match('جلال الدين حقانى', 'JALALUDDIN HAQQANI')).toBe(true);
    expect(match('جلال الدين حقانى', 'Jalal al-Din Haqqani')).toBe(true);
    expect(match('صلاح الدين', 'Salah al-Din')).toBe(true);
    expect(match('نور الله نوری', 'NURULLAH NURI')).toBe(true);
    expect(match('نظر محمد', 'NAZIR MOHAMMAD')).toBe(true);
    expect(match('ظافر', 'DHAFER')).toBe(true);
    // A Latin d and h of two syllables still meets the Arabic د and ه.
    expect(match('أدهم', 'ADHAM')).toBe(true);
    expect(match('جمال عكاشة', 'DJAMEL AKKACHA')).toBe(true);
    expect(match('جلال الدين حقانى', 'Salah al-Din')).toBe(false);
  });
});
