import { describe, expect, it } from 'vitest';
import { countryCode, countryCodes } from './countries.js';

describe('countryCode', () => {
  it.each([
    ['Russia', 'RU'],
    ['Russian Federation', 'RU'],
    ["Democratic People's Republic of Korea", 'KP'],
    ['Korea, North', 'KP'],
    ['Korea, South', 'KR'],
    ['Iran (Islamic Republic of)', 'IR'],
    ['Syrian Arab Republic', 'SY'],
    ['Syria', 'SY'],
    ['Viet Nam', 'VN'],
    ['United Kingdom of Great Britain and Northern Ireland', 'GB'],
    ['Congo', 'CG'],
    ['Congo, Democratic Republic of the', 'CD'],
    ['Democratic Republic of the Congo', 'CD'],
    ['Burma', 'MM'],
    ['Türkiye', 'TR'],
    ['Cote d Ivoire', 'CI'],
    ['Virgin Islands, British', 'VG'],
    ['Bahamas, The', 'BS'],
    ['Region: Crimea', 'UA'],
    ['Palestinian', 'PS'],
    ['Kosovo', 'XK'],
    ['Belarus / Bélarus', 'BY'],
    ['Myanmar (Burma) / Myanmar (Birmanie)', 'MM'],
    ['  United   States ', 'US'],
    ['RU', 'RU'],
    ['GNB', 'GW'],
    ['PRC', 'CN'],
    ['Peoples Republic of China', 'CN'],
    ["People's Republic of China", 'CN'],
    ['Kyrgyz Republic', 'KG'],
    ['Bolivarian Republic of Venezuela', 'VE'],
    ['Democratic Republic of Congo', 'CD'],
    ['USA', 'US'],
    ['UK', 'GB'],
    ['Kingdom of Saudi Arabia', 'SA'],
    ['State of Kuwait', 'KW'],
    ['Republic of Azerbaijan', 'AZ'],
    ['Republic of Kosovo', 'XK'],
    ['Republic of Korea', 'KR'],
    ['Iraq (Islamic Republic of)', 'IQ'],
  ])('%s -> %s', (name, code) => {
    expect(countryCode(name)).toBe(code);
  });

  it.each([
    '',
    'na',
    'former Soviet Union',
    'Stuttgart',
    'Justice for Victims of Corrupt Foreign Officials (JVCFOR)',
    'vi',
  ])('names no country: %j', (name) => {
    expect(countryCode(name)).toBeUndefined();
  });

  it('lists distinct codes in first-seen order and drops unknown names', () => {
    expect(countryCodes(['Russia', 'Atlantis', 'Russian Federation', 'Iran', undefined])).toEqual([
      'RU',
      'IR',
    ]);
  });
});
