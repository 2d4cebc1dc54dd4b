import { describe, expect, it } from 'vitest';
import { cleanText, detectScript, joinGivenFamily, splitFamilyCommaGiven } from './names.js';

describe('cleanText', () => {
  it('trims and collapses every kind of whitespace and drops control characters', () => {
    expect(cleanText('  Al\u00a0Assad\n\t Bashar\u001a ')).toBe('Al Assad Bashar');
    expect(cleanText(undefined)).toBe('');
  });
});

describe('detectScript', () => {
  it.each([
    ['SADDAM HUSSEIN', 'Latn'],
    ['صدام حسين التكريتي', 'Arab'],
    ['Александр Лукашенко', 'Cyrl'],
    ['金铁三', 'Hani'],
    ['김정은', 'Hang'],
    ['Aндрэй Сяргеевiч', 'Cyrl'],
  ])('%s is %s', (text, script) => {
    expect(detectScript(text)).toBe(script);
  });

  it('finds none without letters', () => {
    expect(detectScript('1234 -')).toBeUndefined();
  });
});

describe('person name parts', () => {
  it('splits "FAMILY, Given" at the first comma', () => {
    expect(splitFamilyCommaGiven('CIFUENTES VILLA, Jorge Milton')).toEqual({
      family: 'CIFUENTES VILLA',
      given: 'Jorge Milton',
    });
    expect(splitFamilyCommaGiven('ABU BAKR')).toBeUndefined();
    expect(splitFamilyCommaGiven('ZAHAR,')).toBeUndefined();
  });

  it('joins given and family, either may be missing', () => {
    expect(joinGivenFamily(' Munir ', 'Adanov')).toBe('Munir Adanov');
    expect(joinGivenFamily(undefined, 'Thaung')).toBe('Thaung');
  });
});
