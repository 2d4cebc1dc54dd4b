import type { ListedEntity } from '../../src/screening/model/listedEntity.js';
import { scoreNamePair } from '../../src/screening/scoring/comparePair.js';
import type { ScreeningProfile } from '../../src/screening/scoring/profiles.js';
import { seededRandom } from './syntheticNames.js';

/**
 * Disguised names: listed persons' names changed the ways the labelled pairs' categories name
 * (typos, characters added or swapped, words typed backwards, joined, split, reordered, titles and
 * suffixes), generated here from the real lists rather than taken from the labelled rows, so a
 * rule tuned on those rows is measured on names it has never seen. Each disguise of a listed name
 * should still match it.
 */

type Disguise = (name: string, pick: <T>(items: readonly T[]) => T, random: () => number) => string;

const KEYBOARD = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const LOOKALIKE_DIGITS: Readonly<Record<string, string>> = { o: '0', i: '1', l: '1', e: '3', a: '4', s: '5' };
const LOOKALIKE_SYMBOLS: Readonly<Record<string, string>> = { a: '@', s: '$', i: '!' };
const SOUNDS: readonly [RegExp, string][] = [
  [/ph/, 'f'],
  [/f/, 'ph'],
  [/ou/, 'u'],
  [/c/, 'k'],
  [/k/, 'c'],
  [/y/, 'i'],
  [/i/, 'y'],
  [/q/, 'k'],
  [/ee/, 'i'],
  [/w/, 'v'],
  [/v/, 'w'],
  [/z/, 's'],
  [/kh/, 'h'],
  [/gh/, 'g'],
  [/th/, 't'],
];

const reversed = (word: string) => [...word].reverse().join('');

/** The name with its longest word changed by `change`. */
function inLongestWord(name: string, change: (word: string) => string): string {
  const words = name.split(' ');
  const longest = words.reduce((best, word, i) => (word.length > words[best]!.length ? i : best), 0);
  words[longest] = change(words[longest]!);
  return words.join(' ');
}

/** One letter of the longest word written as the character in `table` that looks like it. */
const lookalike =
  (table: Readonly<Record<string, string>>): Disguise =>
  (name, pick) =>
    inLongestWord(name, (word) => {
      const places = [...word.toLowerCase()].flatMap((c, i) => (table[c] ? [i] : []));
      if (places.length === 0) return word;
      const at = pick(places);
      return word.slice(0, at) + table[word[at]!.toLowerCase()] + word.slice(at + 1);
    });

/** A position inside the word, neither the first letter nor the last. */
const inside = (word: string, random: () => number) =>
  1 + Math.floor(random() * Math.max(1, word.length - 2));

const DISGUISES: Readonly<Record<string, Disguise>> = {
  'a word typed backwards': (name) => inLongestWord(name, reversed),
  'every word typed backwards': (name) => name.split(' ').map(reversed).join(' '),
  'a sound spelled otherwise': (name, pick, random) => {
    const words = name.split(' ');
    for (let attempt = 0; attempt < 10; attempt++) {
      const [sound, spelling] = pick(SOUNDS);
      const k = Math.floor(random() * words.length);
      const word = words[k]!;
      if (sound.test(word.slice(1).toLowerCase())) {
        words[k] = word[0] + word.slice(1).toLowerCase().replace(sound, spelling);
        return words.join(' ');
      }
    }
    return name;
  },
  'a character added (- . * _)': (name, pick, random) =>
    inLongestWord(name, (word) => {
      const at = inside(word, random);
      return word.slice(0, at) + pick(['-', '.', '*', '_']) + word.slice(at);
    }),
  'a letter repeated': (name, _pick, random) =>
    inLongestWord(name, (word) => {
      const at = inside(word, random);
      return word.slice(0, at) + word[at] + word.slice(at);
    }),
  'a digit for a letter': lookalike(LOOKALIKE_DIGITS),
  'a neighbouring key': (name, _pick, random) =>
    inLongestWord(name, (word) => {
      const at = inside(word, random);
      const letter = word[at]!.toLowerCase();
      const row = KEYBOARD.find((keys) => keys.includes(letter));
      if (!row) return word;
      const i = row.indexOf(letter);
      const key = row[i + (i > 0 && random() < 0.5 ? -1 : 1)] ?? row[i - 1]!;
      return word.slice(0, at) + key + word.slice(at + 1);
    }),
  'a letter dropped': (name, _pick, random) =>
    inLongestWord(name, (word) => {
      const at = inside(word, random);
      return word.slice(0, at) + word.slice(at + 1);
    }),
  'two letters swapped': (name, _pick, random) =>
    inLongestWord(name, (word) => {
      const at = inside(word, random);
      return word.slice(0, at) + (word[at + 1] ?? '') + word[at] + word.slice(at + 2);
    }),
  'two words joined': (name, _pick, random) => {
    const words = name.split(' ');
    if (words.length < 2) return name;
    const k = Math.floor(random() * (words.length - 1));
    return [...words.slice(0, k), words[k]! + words[k + 1]!, ...words.slice(k + 2)].join(' ');
  },
  'a word split': (name, _pick, random) =>
    inLongestWord(name, (word) => {
      const at = 2 + Math.floor(random() * Math.max(1, word.length - 3));
      return `${word.slice(0, at)} ${word.slice(at)}`;
    }),
  'given names as initials': (name) => {
    const words = name.split(' ');
    if (words.length < 2) return name;
    return words.map((word, i) => (i < words.length - 1 ? `${word[0]}.` : word)).join(' ');
  },
  'a title in front': (name, pick) =>
    `${pick(['Mr.', 'Dr.', 'Sheikh', 'General', 'President', 'Mullah', 'Colonel', 'Haji'])} ${name}`,
  'a suffix after': (name, pick) => `${name} ${pick(['Jr.', 'Sr.', 'PhD', 'Esq.'])}`,
  'the first word written twice': (name) => `${name.split(' ')[0]} ${name}`,
  // As an abjad writes it, or a payment message abbreviates it (Mhmd, Vldmr).
  'a word without its vowels': (name) =>
    inLongestWord(name, (word) => {
      const consonants = word[0] + word.slice(1).replace(/[aeiouy]/gi, '');
      return consonants.length >= 3 ? consonants : word;
    }),
  // Appended last: each disguise draws from one seeded sequence, so the rows above keep their samples.
  'a symbol for a letter (@ $ !)': lookalike(LOOKALIKE_SYMBOLS),
};

export interface DisguiseRow {
  disguise: string;
  pairs: number;
  recall: number;
}

/** Names of listed persons in Latin letters, as publishers capitalise them (Title Case). */
function latinPersonNames(entities: readonly ListedEntity[]): string[] {
  const names: string[] = [];
  for (const entity of entities) {
    if (entity.kind !== 'person') continue;
    const name = entity.names.find((n) => n.kind === 'primary')?.full ?? entity.names[0]?.full;
    if (!name || !/^[A-Za-z' .-]+$/.test(name)) continue;
    names.push(
      name
        .split(/\s+/)
        .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase())
        .join(' '),
    );
  }
  return names;
}

/** `count` listed persons (seeded), each disguised every way, scored against the name disguised. */
export function scoreDisguises(
  entities: readonly ListedEntity[],
  profile: ScreeningProfile,
  count = 300,
): DisguiseRow[] {
  const random = seededRandom(17);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const names = latinPersonNames(entities);
  const sample = Array.from({ length: count }, () => pick(names));
  return Object.entries(DISGUISES).map(([disguise, change]) => {
    let pairs = 0;
    let found = 0;
    for (const name of sample) {
      const disguised = change(name, pick, random);
      if (disguised === name) continue;
      pairs++;
      if (scoreNamePair('person', disguised, name, profile).match) found++;
    }
    return { disguise, pairs, recall: found / pairs };
  });
}
