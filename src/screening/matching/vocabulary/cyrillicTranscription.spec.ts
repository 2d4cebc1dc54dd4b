import { describe, expect, it } from 'vitest';
import { cyrillicWords, isCyrillicName } from './cyrillicTranscription.js';

describe('Cyrillic names', () => {
  it('are names in Cyrillic letters only', () => {
    expect(isCyrillicName('Джон Флеминг')).toBe(true);
    expect(isCyrillicName("Г'юго Свайр")).toBe(true);
    expect(isCyrillicName('Кейн, Тим')).toBe(true);
    expect(isCyrillicName('John Fleming')).toBe(false);
    // A Latin name with one Cyrillic look-alike letter is read as the Latin name it shows.
    expect(isCyrillicName('Vlаdimir Putin')).toBe(false);
  });

  it('put the given names first when a comma puts the family name first', () => {
    expect(cyrillicWords('Кейн, Тим')).toEqual(['Тим', 'Кейн']);
    expect(cyrillicWords('Шейла Джексон-Лі')).toEqual(['Шейла', 'Джексон', 'Лі']);
  });
});
