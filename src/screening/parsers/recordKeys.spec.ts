import { describe, expect, it } from 'vitest';
import { foldForKey, hashedId } from './recordKeys.js';

describe('record keys', () => {
  it('folds case, spacing, compatibility forms and quote styles', () => {
    expect(foldForKey('  “Supper  Fortuna” LLC ')).toBe('supper fortuna llc');
    expect(foldForKey('"Supper Fortuna" LLC')).toBe('supper fortuna llc');
    expect(foldForKey('ＡＢＣ Co')).toBe('abc co');
    expect(foldForKey(undefined)).toBe('');
  });

  it('hashes the folded parts into 16 stable hex digits, keeping the parts apart', () => {
    expect(hashedId(' I. ASH')).toBe(hashedId('i. ash'));
    expect(hashedId('I. ASH')).toMatch(/^[0-9a-f]{16}$/);
    expect(hashedId('I. ASH')).toBe('ee8ceaa28f0619f2');
    expect(hashedId('AB', 'C')).not.toBe(hashedId('A', 'BC'));
  });
});
