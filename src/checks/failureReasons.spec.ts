import { describe, expect, it } from 'vitest';
import { IndexBuildError, screeningErrorReason, workerLostReason } from './failureReasons.js';

describe('failure reasons', () => {
  it('say what failed without internal error texts', () => {
    const database = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432'), { code: 'ECONNREFUSED' });
    expect(screeningErrorReason(database, 4)).toBe(
      'screening_error: 4 attempts failed, the last because the database was unavailable or failed; the check was not screened',
    );
    expect(screeningErrorReason(Object.assign(new Error('x'), { code: '42P01' }), 4)).toContain(
      'the database was unavailable or failed',
    );
    expect(screeningErrorReason(new IndexBuildError('out of memory'), 2)).toBe(
      'screening_error: 2 attempts failed, the last because the screening index could not be built; the check was not screened',
    );
    const unexpected = screeningErrorReason(new TypeError('cannot read properties of undefined'), 4);
    expect(unexpected).toContain('the last because of an unexpected error');
    expect(unexpected).not.toContain('undefined');
    expect(workerLostReason(4)).toMatch(/^worker_lost: .*attempt 4 of 4/);
  });
});
