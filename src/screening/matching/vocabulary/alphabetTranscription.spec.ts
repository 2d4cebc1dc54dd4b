import { describe, expect, it } from 'vitest';
import { alphabetSpellings, alphabetWords, isAlphabetName } from './alphabetTranscription.js';

describe('names in Cyrillic, Greek, Armenian or Georgian letters', () => {
  it('are names in those letters only', () => {
    expect(isAlphabetName('Джон Флеминг')).toBe(true);
    expect(isAlphabetName("Г'юго Свайр")).toBe(true);
    expect(isAlphabetName('Кейн, Тим')).toBe(true);
    expect(isAlphabetName('Κλάιβ Μπετς')).toBe(true);
    expect(isAlphabetName('Թեդ Քրուզ')).toBe(true);
    expect(isAlphabetName('ალექსანდრე ლუკაშენკო')).toBe(true);
    expect(isAlphabetName('John Fleming')).toBe(false);
    // A Latin name with one Cyrillic look-alike letter is read as the Latin name it shows.
    expect(isAlphabetName('Vlаdimir Putin')).toBe(false);
  });

  it('put the given names first when a comma puts the family name first', () => {
    expect(alphabetWords('Кейн, Тим')).toEqual(['Тим', 'Кейн']);
    expect(alphabetWords('Шейла Джексон-Лі')).toEqual(['Шейла', 'Джексон', 'Лі']);
  });

  it('hears a Greek χ as the kh of Russian х, and τσ also as ch', () => {
    expect(alphabetSpellings('Χατς', 'chats')).toEqual(['khats', 'khach']);
    expect(alphabetSpellings('Μπετς', 'bets')).toEqual(['bets', 'bech']);
    // Cyrillic keeps its transliteration: ч is ch.
    expect(alphabetSpellings('Чак', 'chak')).toEqual(['chak']);
  });
});
