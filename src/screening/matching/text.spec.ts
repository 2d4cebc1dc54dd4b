import { describe, expect, it } from 'vitest';
import { rawWords, transliterate } from './text.js';

describe('transliterate', () => {
  it('splits a Chinese or Korean name written without spaces into family and given name', () => {
    expect(transliterate('习近平', true).trim()).toBe('xi jinping');
    expect(transliterate('习近平', false).trim()).toBe('xijinping');
  });

  it('keeps each word whole when the name is already split into words', () => {
    expect(rawWords('은정 김', true).map((word) => word.text)).toEqual(['eunjeong', 'gim']);
    expect(rawWords('王 晨', true).map((word) => word.text)).toEqual(['wang', 'chen']);
  });

  it('writes the Armenian u (ու) and the ligature և as Latin spellings do', () => {
    expect(transliterate('Կիմ Ջոնգ Ուն', true)).toBe('Kim Jong Un');
    expect(rawWords('Շուլց Երևան', true).map((word) => word.text)).toEqual(['shults', 'erevan']);
  });
});

describe('transliterate: Arabic spelled as Latin spellings write it', () => {
  it('sets the article apart, writes the long a, the feminine ending and the lineage particle', () => {
    const words = (text: string) => rawWords(text, true).map((word) => word.text);
    // al-Ubaidi: the article written onto the word stands apart; a final ي is the long i (Ghazi).
    expect(words('غازي حمود العبيدي')).toEqual(['ghazi', 'hmwd', 'al', 'bydi']);
    // Inside a word ي stays y (Rashid has it as the long i, Yasin as the consonant).
    expect(words('رشيد ياسين')).toEqual(['rshyd', 'yasyn']);
    // Hamza, not Hamzh: ta marbuta is the final a.
    expect(words('حمزة')).toEqual(['hmza']);
    // Bilal: the alif is the long a that letter-by-letter transliteration drops.
    expect(words('بلال')).toEqual(['blal']);
    // "son of" is the particle bin, whether written بن or ابن; a word that merely starts so is not.
    expect(words('بلال بن مروان')).toEqual(['blal', 'bin', 'mrwan']);
    expect(words('ابن تيمية')[0]).toBe('bin');
    expect(words('بنان')).toEqual(['bnan']);
    // A short word that starts with al is no article (الب is not al + one letter).
    expect(words('الب')).toEqual(['alb']);
  });

  it('marks a word joined to the next by a hyphen, and no other', () => {
    const joined = (text: string) =>
      rawWords(text, false).map((word) => `${word.text}${word.hyphenNext ? '-' : ''}`);
    expect(joined('Mercedes-Benz Group AG')).toEqual(['mercedes-', 'benz', 'group', 'ag']);
    expect(joined('Abd-al-Latif Tilfah')).toEqual(['abd-', 'al-', 'latif', 'tilfah']);
    // A dash between words, or one at a word's end, joins nothing.
    expect(joined('Bowne - Boston Inc-')).toEqual(['bowne', 'boston', 'inc']);
  });

  it('writes a name and الدين or الله after it as the one word Latin writes (Jalaluddin, Nurullah)', () => {
    const words = (text: string) => rawWords(text, true).map((word) => word.text);
    expect(words('جلال الدين حقانى')).toEqual(['jlaluddin', 'hqana']);
    expect(words('شمس الدین')).toEqual(['shmsuddin']);
    expect(words('نور الله نوری')).toEqual(['nwrullah', 'nwri']);
    // Allah written with the Urdu heh.
    expect(words('ثناء اللہ')).toEqual(['thnaullah']);
    // عبد compounds keep their own rule; a leading الله stays a word of its own.
    expect(words('عبد الله')).toEqual(['bdallh']);
    expect(words('الله داد')).toEqual(['al', 'lh', 'dad']);
    // Vowel marks on either word do not keep them apart.
    // (any-ascii writes the damma as u; a skeleton drops it with the other vowels.)
    expect(words('نورُ الله')).toEqual(['nwruullah']);
    expect(words('صلاح الدِّين')).toEqual(['slahuddin']);
  });

  it('writes ذ and ظ as z', () => {
    const words = (text: string) => rawWords(text, true).map((word) => word.text);
    expect(words('نظر')).toEqual(['nzr']);
    expect(words('ذاکر')).toEqual(['zakr']);
  });

  it('writes ض as the z Persian says in a name with Persian letters, and as d in Arabic letters', () => {
    const words = (text: string) => rawWords(text, true).map((word) => word.text);
    expect(words('رضا کریمی')).toEqual(['rza', 'krymi']);
    expect(words('قاضی')).toEqual(['qazi']);
    expect(words('رمضان')).toEqual(['rmdan']);
  });

  it('spells Hebrew as Latin spellings write it: vav a vowel, b and p at the start, sh, the final a, geresh', () => {
    const words = (text: string) => rawWords(text, true).map((word) => word.text);
    expect(words('צבי בר יוסף')).toEqual(['zvy', 'br', 'ywsf']);
    expect(words('שלום')).toEqual(['shlwm']);
    expect(words('דניאלה')).toEqual(['dnyla']);
    expect(words('פנחס')).toEqual(['pnhs']);
    expect(words("ג'ורג'")).toEqual(['jwrj']);
    // The final form of tsadi takes a geresh too, and the geresh is often typed as ’.
    expect(words("מיץ' מקונל")).toEqual(['mych', 'mkwnl']);
    expect(words('לינץ’')).toEqual(['lynch']);
    expect(words('דוויד')).toEqual(['dvyd']);
    // A vav that starts a word is written w too: the lists' Hebrew names write W (William) as often as V.
    expect(words('ויליאם')).toEqual(['wylym']);
  });

  it('spells the Greek letter pairs as the sounds they write: μπ b, ντ d, γκ g, τζ j, ου u, γου w', () => {
    expect(transliterate('Τζορτζ Όσμπορν', true)).toBe('Jorj Osborn');
    expect(transliterate('Κλάιβ Μπετς', true)).toBe('Klaiv Bets');
    expect(transliterate('Τομ Γουάτσον', true)).toBe('Tom Watson');
    expect(transliterate('Αλέξης Τσίπρας', true)).toBe('Alexis Tsipras');
    // τζ before ντ; a pair in capitals stays in capitals (a family-name hint).
    expect(transliterate('Άντζελα Μέρκελ', true)).toBe('Anjela Merkel');
    expect(transliterate('Κλάιβ ΜΠΕΤΣ', true)).toBe('Klaiv BETS');
  });

  it('leaves every other script alone', () => {
    expect(transliterate('Владимир Путин', true)).toBe('Vladimir Putin');
    expect(transliterate('Al Ubaidi', true)).toBe('Al Ubaidi');
  });
});

describe('transliterate: Devanagari spelled as Latin spellings of Hindi names write it', () => {
  const words = (text: string) => rawWords(text, true).map((word) => word.text);

  it('gives every consonant its vowel a, except at the end of a word after a single consonant', () => {
    // any-ascii wrote "nremdr modi" and "rahul gamdhi".
    expect(words('नरेंद्र मोदी')).toEqual(['narendra', 'modi']);
    expect(words('नरेन्द्र मोदी')).toEqual(['narendra', 'modi']);
    expect(words('राहुल गांधी')).toEqual(['rahul', 'gandhi']);
  });

  it('reads the anusvara as n (m before a labial), श and ष as sh, च as ch, ऋ as ri', () => {
    expect(words('चंद्रशेखर')).toEqual(['chandrashekhar']);
    expect(words('कृष्ण')).toEqual(['krishna']);
    expect(words('अमित शाह')).toEqual(['amit', 'shah']);
    expect(words('कंबोज')).toEqual(['kamboj']);
  });

  it('reads the candrabindu as the anusvara, and leaves Latin letters beside Devanagari as written', () => {
    expect(words('गाँधी')).toEqual(['gandhi']);
    expect(words('Marc मोदी')).toEqual(['marc', 'modi']);
  });

  it('reads the English vowels of hot and hat in transcribed names (ऑ ॉ, ऍ ॅ) as o and a', () => {
    // From EveryPolitician's Hindi names of British MPs and members of Congress.
    expect(words('गॉर्डन ब्राउन')).toEqual(['gordan', 'braun']);
    expect(words('जॉन प्रेस्कॉट')).toEqual(['jon', 'preskot']);
    expect(words('ओरिन हॅच')).toEqual(['orin', 'hach']);
    expect(words('जॅक्सन')).toEqual(['jaksan']);
  });
});

describe('transliterate: kana in modified Hepburn', () => {
  const words = (name: string) =>
    transliterate(name, true)
      .split(/[^a-z]+/)
      .filter(Boolean);

  it('reads small kana with the kana before them, and ッ as a doubled consonant', () => {
    // any-ascii read ジョン as jiyon.
    expect(words('ジョン・スコット')).toEqual(['jon', 'sukotto']);
  });

  it("writes the foreign sounds of katakana as Hepburn's table adds them (ティ ti, ヴィ vi, ファ fa)", () => {
    expect(words('ティム デーヴィッド ファルコ')).toEqual(['timu', 'deviddo', 'faruko']);
  });

  it('writes long vowels short, as Latin spellings of names do', () => {
    expect(words('あべ しんぞう')).toEqual(['abe', 'shinzo']);
    expect(words('クルーズ')).toEqual(['kuruzu']);
  });
});
