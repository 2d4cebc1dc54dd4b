import { describe, expect, it } from 'vitest';
import { collectEntities, entityById, fixturePath, namesOf } from '../../../test/support/parsedEntities.js';
import { SourceParseError } from '../model/listedEntity.js';
import { caSemaXmlFormat, splitCanadaAliases } from './caSemaXml.js';

const fixture = (name: string) => fixturePath('ca-sema-xml', name);
const id = (ref: string) => `ca_dfatd_sema_sanctions:${ref}`;

describe('ca-sema-xml', () => {
  it('identifies records by regime, schedule and item', async () => {
    const entities = await collectEntities(caSemaXmlFormat, [fixture('sema.xml')]);
    expect(entities.map((e) => [e.id, e.kind, e.sourceRecordRef])).toEqual([
      [id('belarus/1-part-1/8'), 'person', 'Belarus, Schedule 1, Part 1, Item 8'],
      [id('syria/part-2/44'), 'person', 'Syria, Part 2, Item 44'],
      [id('russia/1-part-2/571'), 'company', 'Russia, Schedule 1, Part 2, Item 571'],
      [id('iran/1-part-1/45'), 'organization', 'Iran, Schedule 1, Part 1, Item 45'],
      [id('russia/1.1/1'), 'vessel', 'Russia, Schedule 1.1, Item 1'],
      [
        id('justice-for-victims-of-corrupt-foreign-officials-regulations-jvcfor/-/12'),
        'person',
        'Justice for Victims of Corrupt Foreign Officials Regulations (JVCFOR), Item 12',
      ],
    ]);
  });

  it('maps a person field by field, aliases split by language label', async () => {
    const person = entityById(
      await collectEntities(caSemaXmlFormat, [fixture('sema.xml')]),
      id('belarus/1-part-1/8'),
    );
    expect(person.names).toEqual([
      {
        full: 'Aleksandr Grigoryevich Lukashenko',
        kind: 'primary',
        parts: { given: 'Aleksandr Grigoryevich', family: 'Lukashenko' },
        script: 'Latn',
      },
      { full: 'Alyaksandr Ryhoravich Lukashenka', kind: 'alias', script: 'Latn' },
      { full: 'Аляксандр Рыгоравіч Лукашэнка', kind: 'alias', script: 'Cyrl' },
      { full: 'Александр Григорьевич Лукашенко', kind: 'alias', script: 'Cyrl' },
      { full: 'Sasha', kind: 'weak', script: 'Latn' },
    ]);
    expect(person).toMatchObject({
      birthDates: [{ from: '1954-08-30' }],
      countries: ['BY'],
      nationalities: [],
      programs: ['Belarus'],
      listedOn: '2020-09-28',
      topics: ['sanction'],
      datasets: ['ca_dfatd_sema_sanctions'],
    });
  });

  it('turns another spelling in parentheses into an alias and reads "or" birth dates', async () => {
    const person = entityById(
      await collectEntities(caSemaXmlFormat, [fixture('sema.xml')]),
      id('syria/part-2/44'),
    );
    expect(namesOf(person, 'primary')).toEqual(['Munir Adanov']);
    expect(namesOf(person, 'alias')).toEqual(['Munir Adnuf']);
    expect(person.birthDates).toEqual([{ from: '1963' }, { from: '1964' }]);
    expect(person.notes).toEqual(['Title: Major General/major-général']);
  });

  it('splits entity names into English/French and a.k.a. asides', async () => {
    const entities = await collectEntities(caSemaXmlFormat, [fixture('sema.xml')]);
    const company = entityById(entities, id('russia/1-part-2/571'));
    expect(namesOf(company, 'primary')).toEqual(['Afanasyev Research and Production Enterprise Technomac']);
    expect(namesOf(company, 'alias')).toEqual([
      'Afanasyev Technomac, JSC',
      'Акционерное Общество «Техномаш», АО',
      'Technomash',
    ]);
    const agency = entityById(entities, id('iran/1-part-1/45'));
    expect(namesOf(agency, 'primary')).toEqual(['Iranian Space Agency']);
    expect(namesOf(agency, 'alias')).toEqual(['Agence spatiale iranienne']);
  });

  it('reads ships as vessels with an IMO number; the build year is no birth date', async () => {
    const ship = entityById(
      await collectEntities(caSemaXmlFormat, [fixture('sema.xml')]),
      id('russia/1.1/1'),
    );
    expect(ship).toMatchObject({
      identifiers: [{ scheme: 'imo', value: '7612448' }],
      birthDates: [],
      countries: ['RU'],
      notes: ['Vessel type: General Cargo / Multi Purpose', 'Build date: 1980'],
    });
  });

  it('gives no country for a regime that is not a country', async () => {
    const entities = await collectEntities(caSemaXmlFormat, [fixture('sema.xml')]);
    const person = entityById(
      entities,
      id('justice-for-victims-of-corrupt-foreign-officials-regulations-jvcfor/-/12'),
    );
    expect(person.countries).toEqual([]);
    expect(person.birthDates).toEqual([{ from: '1970', to: '1979', approximate: true }]);
  });

  it('splits free-text aliases', () => {
    expect(splitCanadaAliases('Сбербанк; Сбер; Sberbank of Russia; Sber', false).map((a) => a.name)).toEqual([
      'Сбербанк',
      'Сбер',
      'Sberbank of Russia',
      'Sber',
    ]);
    expect(splitCanadaAliases('Anna Andreevna or Анна Шейман / Ганна', true)).toEqual([
      { name: 'Anna Andreevna', kind: 'alias' },
      { name: 'Анна Шейман', kind: 'alias' },
      { name: 'Ганна', kind: 'weak' },
    ]);
    expect(splitCanadaAliases('', true)).toEqual([]);
  });

  it('splits a person\'s aliases at " and ", a lone word after a name being another family name', () => {
    const names = (text: string, isPerson = true) => splitCanadaAliases(text, isPerson).map((a) => a.name);
    expect(names('Віталій Вікторович Булюк and Виталий Викторович Булюк')).toEqual([
      'Віталій Вікторович Булюк',
      'Виталий Викторович Булюк',
    ]);
    expect(names('Тетяна Олександрівна Кузьміч and Цвєтаєва')).toEqual([
      'Тетяна Олександрівна Кузьміч',
      'Тетяна Олександрівна Цвєтаєва',
    ]);
    expect(names('Manakhimova and Semendueva')).toEqual(['Manakhimova', 'Semendueva']);
    // An organisation's "and" is its name's.
    expect(names('Myanma Investment and Commercial Bank', false)).toEqual([
      'Myanma Investment and Commercial Bank',
    ]);
  });

  describe('malformed input', () => {
    async function failure(name: string): Promise<SourceParseError> {
      const error = await collectEntities(caSemaXmlFormat, [fixture(name)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceParseError);
      expect((error as SourceParseError).file).toBe(fixture(name));
      return error as SourceParseError;
    }

    it('names line and record of a record without a name', async () => {
      const error = await failure('missing-name.xml');
      expect(error.location).toEqual({ line: 9, record: 'Ukraine, Part 1, Item 2' });
    });

    it('refuses the same regime, schedule and item twice', async () => {
      const error = await failure('duplicate-item.xml');
      expect(error.location).toEqual({ line: 9, record: 'Ukraine, Part 1, Item 7' });
    });
  });
});
