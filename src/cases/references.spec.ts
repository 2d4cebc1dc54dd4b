import { describe, expect, it } from 'vitest';
import { KEY_ID as KEY_A, OTHER_KEY_ID as KEY_B } from '../../test/support/caseBuilders.js';
import {
  attachmentId,
  CASE_REFERENCE,
  CHECK_REFERENCE,
  candidateCaseReference,
  caseReferenceOfCheck,
  caseReferenceOfMatch,
  checkId,
  checkReference,
  MATCH_ID,
  matchId,
  materialId,
} from './references.js';

const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('candidateCaseReference', () => {
  it('is three letters and six digits', () => {
    for (let attempt = 0; attempt < 50; attempt++) {
      expect(candidateCaseReference(KEY_A, `idem-${attempt}`, attempt)).toMatch(CASE_REFERENCE);
    }
    expect(CASE_REFERENCE.source).toBe('^[A-Z]{3}[0-9]{6}$');
  });

  it('is the same for the same (key, Idempotency-Key, attempt): a retried request finds its own case', () => {
    expect(candidateCaseReference(KEY_A, 'order-1001', 0)).toBe(
      candidateCaseReference(KEY_A, 'order-1001', 0),
    );
    expect(candidateCaseReference(KEY_A.toUpperCase(), 'order-1001', 0)).toBe(
      candidateCaseReference(KEY_A, 'order-1001', 0),
    );
  });

  it('differs from one attempt to the next, so a taken reference is followed by another', () => {
    const candidates = [0, 1, 2, 3, 4].map((attempt) => candidateCaseReference(KEY_A, 'order-1001', attempt));
    expect(new Set(candidates).size).toBe(candidates.length);
  });

  it('differs by key and by Idempotency-Key', () => {
    const base = candidateCaseReference(KEY_A, 'order-1001', 0);
    expect(candidateCaseReference(KEY_B, 'order-1001', 0)).not.toBe(base);
    expect(candidateCaseReference(KEY_A, 'order-1002', 0)).not.toBe(base);
    // The Idempotency-Key is taken as sent.
    expect(candidateCaseReference(KEY_A, 'ORDER-1001', 0)).not.toBe(base);
  });
});

describe('check references and ids', () => {
  it('numbers checks <case_reference>-<n>', () => {
    expect(checkReference('ABC123456', 1)).toBe('ABC123456-1');
    expect(checkReference('ABC123456', 3)).toMatch(CHECK_REFERENCE);
    expect(CHECK_REFERENCE.source).toBe('^[A-Z]{3}[0-9]{6}-[0-9]+$');
  });

  it('reads the case reference back from a check reference', () => {
    expect(caseReferenceOfCheck('ABC123456-1')).toBe('ABC123456');
    expect(caseReferenceOfCheck('ABC123456-12')).toBe('ABC123456');
  });

  it('derives the check id, a version-5 UUID, from the reference', () => {
    expect(checkId('ABC123456-1')).toMatch(UUID_V5);
    expect(checkId('ABC123456-1')).toBe(checkId('ABC123456-1'));
    expect(checkId('ABC123456-2')).not.toBe(checkId('ABC123456-1'));
  });
});

describe('matchId', () => {
  it('is <check_reference>.<12 hex>, the same for the same check and party', () => {
    const id = matchId('ABC123456-1', 'ofac:sdn-1234');
    expect(id).toMatch(/^ABC123456-1\.[0-9a-f]{12}$/);
    expect(id).toMatch(MATCH_ID);
    expect(matchId('ABC123456-1', 'ofac:sdn-1234')).toBe(id);
  });

  it('differs by party and by check', () => {
    const id = matchId('ABC123456-1', 'ofac:sdn-1234');
    expect(matchId('ABC123456-1', 'un:1')).not.toBe(id);
    expect(matchId('ABC123456-2', 'ofac:sdn-1234')).not.toBe(id);
  });

  it('names its case, so the match is found without a lookup', () => {
    expect(caseReferenceOfMatch(matchId('ABC123456-1', 'ofac:1'))).toBe('ABC123456');
    expect(caseReferenceOfMatch(matchId('QRS000001-12', 'un:7'))).toBe('QRS000001');
    expect(caseReferenceOfMatch('ABC123456-1.3f9a2c1b7d0e')).toBe('ABC123456');
  });

  it.each([
    'ABC123456-1',
    'ABC123456.3f9a2c1b7d0e',
    'abc123456-1.3f9a2c1b7d0e',
    'ABC123456-1.3F9A2C1B7D0E',
    'ABC123456-1.3f9a2c1b7d0',
    'ABC123456-1.3f9a2c1b7d0e0',
    'xABC123456-1.3f9a2c1b7d0e',
    '',
  ])('reads no case from %j', (id) => {
    expect(caseReferenceOfMatch(id)).toBeUndefined();
  });
});

describe('material and attachment ids', () => {
  const EVENT = '7d3b1c9a-1f2e-4a5b-8c6d-0e1f2a3b4c5d';

  it('derives material_<24 hex> from the id of the event that adds it', () => {
    const id = materialId(EVENT);
    expect(id).toMatch(/^material_[0-9a-f]{24}$/);
    expect(materialId(EVENT)).toBe(id);
    expect(materialId(EVENT.toUpperCase())).toBe(id);
    expect(materialId('8d3b1c9a-1f2e-4a5b-8c6d-0e1f2a3b4c5d')).not.toBe(id);
  });

  it('derives attachment_<24 hex> from the material and the position', () => {
    const material = materialId(EVENT);
    expect(attachmentId(material, 0)).toMatch(/^attachment_[0-9a-f]{24}$/);
    expect(attachmentId(material, 0)).toBe(attachmentId(material, 0));
    expect(attachmentId(material, 1)).not.toBe(attachmentId(material, 0));
    expect(attachmentId(materialId('8d3b1c9a-1f2e-4a5b-8c6d-0e1f2a3b4c5d'), 0)).not.toBe(
      attachmentId(material, 0),
    );
  });
});
