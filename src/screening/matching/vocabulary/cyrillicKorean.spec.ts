import { describe, expect, it } from 'vitest';
import { cyrillicKoreanReadings } from './cyrillicKorean.js';

describe('cyrillicKoreanReadings', () => {
  it('reads each syllable every way the Latin systems spell it: final н as n or ng, е as eo or o', () => {
    const [family, first, second] = cyrillicKoreanReadings('Ким Чен Ын')!;
    expect(family).toEqual({ word: 'ким', readings: expect.arrayContaining(['kim']) });
    expect(first!.readings).toEqual(expect.arrayContaining(['jong', 'chong', 'jeong', 'cheon']));
    expect(second!.readings).toEqual(expect.arrayContaining(['un', 'eun']));
    expect(cyrillicKoreanReadings('Пак Пон Джу')![2]!.readings).toEqual(
      expect.arrayContaining(['ju', 'chu']),
    );
  });

  it('reads й before a vowel as the y of ё, and Рю as a family name (Ким Йон Ир, Рю Ми Ён)', () => {
    expect(cyrillicKoreanReadings('Ким Йон Ир')![1]!.readings).toEqual(
      expect.arrayContaining(['yong', 'yeon']),
    );
    expect(cyrillicKoreanReadings('Рю Ми Ён')![0]!.readings).toEqual(['ryu', 'lyu']);
  });

  it('reads only names that start with a Korean family name and are made of Korean syllables', () => {
    for (const name of ['Иван Петров', 'Лиана Ким', 'Ким', 'Ким Чен Ын Пак Ли', 'Ким Владимир'])
      expect(cyrillicKoreanReadings(name), name).toBeUndefined();
  });
});
