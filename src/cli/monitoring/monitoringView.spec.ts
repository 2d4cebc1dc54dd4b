import { describe, expect, it } from 'vitest';
import { lagNote } from './monitoringView.js';

describe('monitoring CLI output', () => {
  it('notes when the runs and alerts lists lag the configuration stream, and only then', () => {
    expect(lagNote({ streamRevision: 7, appliedRevision: 7 })).toBe('');
    expect(lagNote({ streamRevision: 7, appliedRevision: 3 })).toContain(
      "has applied revision 3 of the configuration's 7: later runs and alerts are not listed yet",
    );
    expect(lagNote({ streamRevision: 0, appliedRevision: -1 })).toContain('applied revision -1');
  });
});
