import { describe, expect, it } from 'vitest';
import { companyOrOrganization, isOnlyLegalForm } from './legalEntityKind.js';

describe('companyOrOrganization', () => {
  it.each([
    ['ANGLO-CARIBBEAN CO., LTD.', 'company'],
    ['VTB BANK PUBLIC JOINT STOCK COMPANY', 'company'],
    ['OOO Stroygazmontazh', 'company'],
    ['ООО "Актуальные решения"', 'company'],
    ['COMERCIAL IBEROAMERICANA, S.A.', 'company'],
    ['AL-QAIDA', 'organization'],
    ['BANCO NACIONAL DE CUBA', 'organization'],
    ['Iranian Space Agency', 'organization'],
  ])('%s is an %s', (name, kind) => {
    expect(companyOrOrganization([name])).toBe(kind);
  });

  it('looks at every name given', () => {
    expect(companyOrOrganization(['KOMID', 'KOREA MINING DEVELOPMENT TRADING CORPORATION'])).toBe('company');
  });
});

describe('isOnlyLegalForm', () => {
  it('is true for names that are nothing but legal forms', () => {
    expect(isOnlyLegalForm('JSC')).toBe(true);
    expect(isOnlyLegalForm('Limited Liability Company')).toBe(true);
    expect(isOnlyLegalForm('АО')).toBe(true);
    expect(isOnlyLegalForm('Technomac JSC')).toBe(false);
    expect(isOnlyLegalForm('')).toBe(false);
  });
});
